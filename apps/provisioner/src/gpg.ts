import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyAlgorithm } from './config.js';
import { readEnvironment } from './env.js';
import { run } from './run.js';

/** The person a key is made for (the job's user). */
export interface KeyOwner {
  name: string;
  email: string;
}

/**
 * A private, throw-away GnuPG home (mode 0700 under the system temp dir) for one job: the private
 * keys exist only there until the card step moved them and `dispose()` deleted it.
 */
export class GnupgHome {
  private constructor(readonly path: string) {}

  static async create(): Promise<GnupgHome> {
    return new GnupgHome(await mkdtemp(join(tmpdir(), 'palisade-gnupg-')));
  }

  get env(): NodeJS.ProcessEnv {
    return { ...readEnvironment(), GNUPGHOME: this.path, LC_ALL: 'C' };
  }

  gpg(args: readonly string[], input?: string): Promise<string> {
    return run('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
      env: this.env,
      ...(input === undefined ? {} : { input }),
    });
  }

  async dispose(): Promise<void> {
    await run('gpgconf', ['--kill', 'all'], { env: this.env }).catch(() => undefined);
    await rm(this.path, { recursive: true, force: true });
  }
}

const PRIMARY: Record<KeyAlgorithm, string> = {
  ed25519: 'Key-Type: EDDSA\nKey-Curve: ed25519',
  rsa4096: 'Key-Type: RSA\nKey-Length: 4096',
};
const ENCRYPTION: Record<KeyAlgorithm, string> = {
  ed25519: 'Subkey-Type: ECDH\nSubkey-Curve: cv25519',
  rsa4096: 'Subkey-Type: RSA\nSubkey-Length: 4096',
};
const AUTHENTICATION: Record<KeyAlgorithm, string> = { ed25519: 'ed25519', rsa4096: 'rsa4096' };

/** One line of a batch parameter file: no newlines can sneak in from the user's name. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

/**
 * Generates the card's OpenPGP key in `home`: a signing primary key, an encryption subkey and an
 * authentication subkey (the one SSH uses), no passphrase (the card PIN protects them on the
 * card), no expiry. Returns the primary key fingerprint.
 */
export async function generateKey(home: GnupgHome, owner: KeyOwner, algorithm: KeyAlgorithm): Promise<string> {
  const params = [
    PRIMARY[algorithm],
    'Key-Usage: sign',
    ENCRYPTION[algorithm],
    'Subkey-Usage: encrypt',
    `Name-Real: ${oneLine(owner.name)}`,
    `Name-Email: ${oneLine(owner.email)}`,
    'Expire-Date: 0',
    '%no-protection',
    '%commit',
    '',
  ].join('\n');
  await home.gpg(['--gen-key'], params);
  const fingerprint = await primaryFingerprint(home);
  await home.gpg(['--quick-add-key', fingerprint, AUTHENTICATION[algorithm], 'auth', 'never']);
  return fingerprint;
}

async function primaryFingerprint(home: GnupgHome): Promise<string> {
  const listing = await home.gpg(['--with-colons', '--list-secret-keys']);
  const lines = listing.split('\n');
  const sec = lines.findIndex((l) => l.startsWith('sec:'));
  const fpr = lines.slice(sec).find((l) => l.startsWith('fpr:'));
  const value = fpr?.split(':')[9];
  if (sec < 0 || !value) throw new Error('gpg made no secret key');
  return value;
}

/** The public key, armored (what the API stores as the user's GPG key). */
export function exportPublicKey(home: GnupgHome, fingerprint: string): Promise<string> {
  return home.gpg(['--armor', '--export', fingerprint]);
}

/** The authentication subkey as an OpenSSH public key line (`gpg --export-ssh-key`). */
export async function exportSshKey(home: GnupgHome, fingerprint: string): Promise<string> {
  return (await home.gpg(['--export-ssh-key', fingerprint])).trim();
}
