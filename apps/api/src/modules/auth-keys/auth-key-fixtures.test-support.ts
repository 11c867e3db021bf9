import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';

/**
 * Public key fixtures made once with `ssh-keygen` and `gpg --batch` (test-only keys),
 * with the fingerprints those tools print (`ssh-keygen -l`, `gpg --with-colons`), so the tests
 * prove the API computes the same.
 */
export const SSH_ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICAY7Yo78+FOvXsrc25MfKcYTANeIwqsN8qH/lfFn2KM root@vm';
export const SSH_ED25519_FINGERPRINT = 'SHA256:9aDwdRKyRJ/AkhzMt5wUdCcYam3bXhlmxCgo0eL0Of8';
export const SSH_ECDSA_384 =
  'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBL6496mxsean37Daw1JnyBfWms4IGWylIyIi6J1ek/RgikKUDx6Rw/SxxgoTz7suI1bu+dVT/j1ajf8MKoeScGJ+dgL1uVi5SZBeRBc1orTBv99/EGZ8eNC74x1I5K0yng== root@vm';
export const SSH_ECDSA_384_FINGERPRINT = 'SHA256:GIwk5AgGwRJctJrsx4q78TbjGk3ShfxnR28mlGMRK/E';
export const SSH_RSA_2048 =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC1cxUI0ufRrUJYOuW3Abem275BnUYUkXEbjEJ99O+7KA8Ll/8ezEZbMNLMutHYiBkphq7v7erhQSGQyF9t+MgunkaDlMqgYQ+cBV/Xn2/JlCYoaOAamlDbTNZeqsSWBi3zDp4ZBEZt++f08HwBJ4piUW6PweEnbQC4IKJrwUVJ7PdmwvCktRhoNZvkIv8XbvBneGViPShRgOjc0bgoYBcCV1Gqp4l4q/1w+serfOH+zkkL0AsXKwQIvXxKLF5f8mqWlpHss/mvuyVQMkJXxgDWEOiFOthr1BSnf64SKMFpfIaEcFzTYmbv8ssO2f17frupBfURSXJhxIdekXUo9nsT root@vm';
export const SSH_RSA_2048_FINGERPRINT = 'SHA256:jthlY3omuf0pfEd3ITf3RdXs9fPk7fVNNWnZOR9PPOA';
export const SSH_RSA_1024 =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC3+oY+azggrBbVItHIICoxcqDqRYun6N0Rn/J/J3zJ1HMz7fjCyCUBY0YVEVKpC2QCyWklYF1IVj5Ov1x8SBZocjvwF19bgmkJXGcRmrwKyqIfjNHmpKbmF/xr/l8UQ+vP8284LDhLAbLm6TCJCUDcIH+CeuXgEAfm3yj6+c/APw== root@vm';
export const SSH_DSA =
  'ssh-dss AAAAB3NzaC1kc3MAAACBAIP48OHvkv5DIlsKLDnJoeMDqDsoUfxl6FzYRWpesWcG5lkwHKxNLGdTun28UhEwhkmtYT0NKMiBJOykQ9QknhhWM2fHn24axMdbl0F5pOSwq0rNdfpMbIgo3H2x8bwM2LOxLEmySWVpau8gJ6C/nsjeLMxFFBi2aVhtSrGM34ovAAAAFQDttWRzW7/eP2IJ+qxo5L7q6yaMEwAAAIB/qNFG1wvunUOp1zuWH2Dzlz8d2pgFWPxpEiPNZAocFF1iNqM68M7b2Eamh0vxZzwSQDx5YrepHQFQFKaPOkcHUPBhoptzu92t1ptwL3BHXht1dbLDp2EQ924kVXEi/LdH6c8R/fjzqsss7S558bBhhDKXJFw1ASOD2KdzJEnmPAAAAIANn5J2Xs+Li7Rl6F0hNtnLeeJ4CBvEe30oycuQDqQTvwr7D/1zecd/Ok6/hY+yYJjNBMaGUXM7W6m+/v379+E0S3xZKF0GQJUJjf8BV7XWJSc4FJfYKeHoX1LAFdeVpOrhEQhq3SYMz7wB40eNE7z3lLrNAf8ZKy+zajDBriaU1Q== root@vm';
export const GPG_PUBLIC = `-----BEGIN PGP PUBLIC KEY BLOCK-----

mDMEawXwERYJKwYBBAHaRw8BAQdAiVHof/GE/VBlJ0emlti4+XZyUvG2SIIoZiFk
yaQc2r+0IkZpeHR1cmUgVXNlciA8Zml4dHVyZUBleGFtcGxlLmNvbT6IkAQTFggA
OBYhBGRev7vb/XKz+SbiBI09DhsdQ+AVBQJrBfARAhsDBQsJCAcCBhUKCQgLAgQW
AgMBAh4BAheAAAoJEI09DhsdQ+AVsCsBAKLawr1R3d+wdqlR8OC2t5htczA+p8qd
NXmwh8Zim5ZAAP9Nr3KRROzW8ZoLkZQUFVKzF7371HUZQ3xbp2h4cYYhDg==
=JNyp
-----END PGP PUBLIC KEY BLOCK-----
`;
export const GPG_FINGERPRINT = '645EBFBBDBFD72B3F926E2048D3D0E1B1D43E015';

/** A fresh ed25519 public key line (OpenSSH format), different on each call. */
export function freshSshPublicKey(comment = ''): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = sshpk.parsePrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }), 'pem');
  return `${key.toPublic().toString('ssh')} ${comment}`.trim();
}
