import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from './api.js';
import { SimulatedCard } from './card/simulated-card.js';
import { provision } from './provision.js';

const task: Task = { id: 7, username: 'alice', first_name: 'Alice', last_name: 'Liddell', email: 'alice@example.com' };

/** Real gpg (key generation and export); only the card is simulated. */
describe('provision', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palisade-card-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('generates an ed25519/cv25519 key with gpg, exports it armored and as SSH, moves it to the card and leaves no GnuPG home behind', async () => {
    const before = (await readdir(tmpdir())).filter((n) => n.startsWith('palisade-gnupg-'));
    const result = await provision(task, new SimulatedCard({ dir }), 'ed25519');
    if (!result.success) throw new Error(result.error);
    expect(result.serial).toMatch(/^[0-9]{8}$/);
    expect(result.ssh_key).toMatch(/^ssh-ed25519 [A-Za-z0-9+/=]+ openpgp:0x[0-9A-F]{8}$/);
    expect(result.gpg_key).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----[\s\S]+-----END PGP PUBLIC KEY BLOCK-----\s*$/);
    expect(result.gpg_key).not.toContain('PRIVATE');

    const record = JSON.parse(await readFile(join(dir, `${result.serial}.json`), 'utf8'));
    expect(record.fingerprint).toMatch(/^[0-9A-F]{40}$/);
    // Signature, encryption, authentication: the primary key first (as the real card's check reads them).
    expect(record.slots).toHaveLength(3);
    expect(record.slots[0]).toBe(record.fingerprint);
    // The encryption (cv25519) and authentication subkeys went to the card with the primary key.
    // In this order: keytocard moves `key 1` to the encryption slot and `key 2` to authentication.
    expect(record.subkeys.map((s: { usage: string }) => s.usage)).toEqual(['e', 'a']);
    const after = (await readdir(tmpdir())).filter((n) => n.startsWith('palisade-gnupg-'));
    expect(after.sort()).toEqual(before.sort());
  });

  it('turns a failing card step into the error text and still deletes the private keys', async () => {
    const before = (await readdir(tmpdir())).filter((n) => n.startsWith('palisade-gnupg-'));
    const result = await provision(task, new SimulatedCard({ error: 'card not present' }), 'ed25519');
    expect(result).toEqual({ success: false, error: 'card not present' });
    expect((await readdir(tmpdir())).filter((n) => n.startsWith('palisade-gnupg-')).sort()).toEqual(before.sort());
  });
});
