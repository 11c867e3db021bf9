import type { AuthKeyType } from '@palisade/contracts';
import { readKeys } from 'openpgp';
import sshpk from 'sshpk';
import { HttpProblem } from '#src/lib/problem.js';

/**
 * Parsing and validation of pasted public keys (issue 13 §2). Only public keys are accepted and
 * stored; what is stored is re-rendered from the parsed key (never the pasted text), so an
 * `authorized_keys` line built from it cannot carry options or a second key.
 *
 * SSH: ed25519, ecdsa (nistp256/384/521) and RSA of at least 2048 bits. `sk-` security-key types
 * are refused: sshpk, the parser used here, does not read them. GPG: one armored public key.
 */
export interface ParsedKey {
  keyType: AuthKeyType;
  /** SSH: `type base64`; GPG: the armored public key. */
  key: string;
  /** SSH: `SHA256:…` (as `ssh-keygen -l`); GPG: the primary key fingerprint, upper-case hex. */
  fingerprint: string;
}

const MIN_RSA_BITS = 2048;

const unsupported = (detail: string) =>
  new HttpProblem(400, 'auth_key.unsupported_format', detail, [{ path: 'key', code: 'auth_key.unsupported_format', message: detail }]);

const privateKey = () => {
  const detail = 'This is a private key. Paste the public key only: a private key must never leave your machine.';
  return new HttpProblem(400, 'auth_key.private_key', detail, [{ path: 'key', code: 'auth_key.private_key', message: detail }]);
};

const PRIVATE_MARKERS = /PRIVATE KEY|PRIVATE-KEY/;

export function parseSshKey(text: string): ParsedKey {
  const line = text.trim();
  if (PRIVATE_MARKERS.test(line)) throw privateKey();
  if (/[\r\n]/.test(line)) throw unsupported('Paste one SSH public key on a single line.');
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(line, 'ssh');
  } catch {
    throw unsupported('This is not an SSH public key in OpenSSH format (ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa).');
  }
  if (key.type === 'rsa' && key.size < MIN_RSA_BITS) throw tooWeak(key.size);
  if (key.type !== 'rsa' && key.type !== 'ed25519' && key.type !== 'ecdsa') {
    throw unsupported(`SSH keys of type ${key.type} are not supported (use ed25519, ecdsa or RSA of at least 2048 bits).`);
  }
  key.comment = '';
  return { keyType: 'ssh', key: key.toString('ssh').trim(), fingerprint: key.fingerprint('sha256').toString() };
}

function tooWeak(bits: number): HttpProblem {
  const detail = `RSA keys need at least ${MIN_RSA_BITS} bits; this one has ${bits}.`;
  return new HttpProblem(400, 'auth_key.too_weak', detail, [{ path: 'key', code: 'auth_key.too_weak', message: detail }]);
}

export async function parseGpgKey(text: string): Promise<ParsedKey> {
  const armored = text.trim();
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(armored)) throw privateKey();
  if (!/^-----BEGIN PGP PUBLIC KEY BLOCK-----/.test(armored)) {
    throw unsupported('This is not an armored GPG public key (-----BEGIN PGP PUBLIC KEY BLOCK-----).');
  }
  let keys: Awaited<ReturnType<typeof readKeys>>;
  try {
    keys = await readKeys({ armoredKeys: armored });
  } catch {
    throw unsupported('This GPG public key could not be read.');
  }
  const [key] = keys;
  if (!key || keys.length !== 1) throw unsupported('Paste exactly one GPG public key.');
  if (key.isPrivate()) throw privateKey();
  return { keyType: 'gpg', key: key.armor().trim(), fingerprint: key.getFingerprint().toUpperCase() };
}

export function parseAuthKey(keyType: AuthKeyType, text: string): Promise<ParsedKey> | ParsedKey {
  return keyType === 'ssh' ? parseSshKey(text) : parseGpgKey(text);
}
