import { generateKeyPairSync } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { generateKey } from 'openpgp';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authKeys, events } from '#src/db/schema/index.js';
import { SYSTEM_ACTOR } from '#src/modules/events/event-actor.js';
import { createTestApp, problemOf, type TestApp } from '#test/helpers.js';
import {
  GPG_FINGERPRINT,
  GPG_PUBLIC,
  SSH_DSA,
  SSH_ECDSA_384,
  SSH_ECDSA_384_FINGERPRINT,
  SSH_ED25519,
  SSH_ED25519_FINGERPRINT,
  SSH_RSA_1024,
  SSH_RSA_2048,
  SSH_RSA_2048_FINGERPRINT,
} from './auth-key-fixtures.test-support.js';
import { addUserKeys } from './auth-keys.service.js';

/** A fresh ed25519 key pair: the public key line and the OpenSSH private key. */
function freshSshKey(): { publicKey: string; privateKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = sshpk.parsePrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }), 'pem');
  return { publicKey: key.toPublic().toString('ssh'), privateKey: key.toString('openssh') };
}

describe('Authentication keys: /user/{username}/auth_key and /user/{username}/ssh_keys', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
  });
  afterAll(() => t.close());

  const add = (cookie: string, username: string, payload: Record<string, unknown>) =>
    t.request('POST', `/api/v1/user/${username}/auth_key`, { cookie, payload });
  const list = async (cookie: string, username: string) => {
    const res = await t.request('GET', `/api/v1/user/${username}/auth_key`, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; name: string; key_type: string; key: string; fingerprint: string; serial?: string }[];
  };

  it('adds SSH keys of every supported type with the fingerprint ssh-keygen prints, normalized without the comment', async () => {
    const cases = [
      [SSH_ED25519, SSH_ED25519_FINGERPRINT, 'laptop'],
      [SSH_ECDSA_384, SSH_ECDSA_384_FINGERPRINT, 'desktop'],
      [SSH_RSA_2048, SSH_RSA_2048_FINGERPRINT, 'server'],
    ] as const;
    for (const [key, fingerprint, name] of cases) {
      const res = await add(alice, 'alice', { name, key_type: 'ssh', key: `  ${key}\n` });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ name, key_type: 'ssh', fingerprint, key: key.replace(/ root@vm$/, '') });
      expect(body.serial).toBeUndefined();
      expect(typeof body.created_at).toBe('string');
    }
    expect((await list(alice, 'alice')).map((k) => k.name)).toEqual(['laptop', 'desktop', 'server']);
    // The activity log names the key and the user it belongs to.
    const recorded = await t.database.db.select().from(events).where(eq(events.type, 'auth_key.added'));
    expect(recorded.some((e) => e.objectName === 'laptop' && e.username === 'alice')).toBe(true);
  });

  it('adds an armored GPG public key with its primary key fingerprint', async () => {
    const res = await add(alice, 'alice', { name: 'signing', key_type: 'gpg', key: GPG_PUBLIC });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ key_type: 'gpg', fingerprint: GPG_FINGERPRINT });
    expect(res.json().key).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
  });

  it('refuses a key the user already has (409 auth_key.already_added), also with another comment', async () => {
    const dup = await add(alice, 'alice', { name: 'again', key_type: 'ssh', key: SSH_ED25519.replace('root@vm', 'other comment') });
    expect(problemOf(dup)).toMatchObject({ status: 409, code: 'auth_key.already_added' });
    expect(dup.json().errors).toEqual([expect.objectContaining({ path: 'key', code: 'auth_key.already_added' })]);
    const dupGpg = await add(alice, 'alice', { name: 'again', key_type: 'gpg', key: GPG_PUBLIC });
    expect(problemOf(dupGpg)).toMatchObject({ status: 409, code: 'auth_key.already_added' });
    // Another user may publish the same public key.
    expect((await add(bob, 'bob', { name: 'shared', key_type: 'ssh', key: SSH_ED25519 })).statusCode).toBe(201);
  });

  it('two requests adding the same key at once: one 201, one 409, never a 500', async () => {
    const { publicKey } = freshSshKey();
    const results = await Promise.all([0, 1, 2].map(() => add(bob, 'bob', { name: 'race', key_type: 'ssh', key: publicKey })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('refuses malformed, weak and unsupported SSH keys with a stable code, storing nothing', async () => {
    const before = (await list(bob, 'bob')).length;
    const refused: [string, string, string][] = [
      ['ssh', 'not a key', 'auth_key.unsupported_format'],
      ['ssh', 'ssh-ed25519 AAAA', 'auth_key.unsupported_format'],
      ['ssh', SSH_ED25519.replace('ssh-ed25519', 'ssh-rsa'), 'auth_key.unsupported_format'],
      ['ssh', `${SSH_ED25519}\n${SSH_RSA_2048}`, 'auth_key.unsupported_format'],
      ['ssh', `command="/bin/sh" ${SSH_RSA_2048}`, 'auth_key.unsupported_format'],
      ['ssh', SSH_DSA, 'auth_key.unsupported_format'],
      ['ssh', SSH_RSA_1024, 'auth_key.too_weak'],
      ['ssh', GPG_PUBLIC, 'auth_key.unsupported_format'],
      ['gpg', SSH_ED25519, 'auth_key.unsupported_format'],
      ['gpg', '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----', 'auth_key.unsupported_format'],
    ];
    for (const [keyType, key, code] of refused) {
      const res = await add(bob, 'bob', { name: 'bad', key_type: keyType, key });
      expect(problemOf(res), `${keyType} ${key.slice(0, 40)}: ${res.body}`).toMatchObject({ status: 400, code });
      expect(res.json().errors?.[0]?.path).toBe('key');
    }
    expect((await add(bob, 'bob', { name: 'weak', key_type: 'ssh', key: SSH_RSA_1024 })).json().detail).toMatch(/2048 bits.*1024/);
    expect((await list(bob, 'bob')).length).toBe(before);
  });

  it('refuses private keys (SSH and GPG) with a clear message and never stores them', async () => {
    const ssh = freshSshKey();
    const gpg = await generateKey({ userIDs: [{ name: 'Priv', email: 'priv@example.com' }], format: 'armored' });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
    for (const [keyType, key] of [
      ['ssh', ssh.privateKey],
      ['ssh', pem],
      ['gpg', gpg.privateKey],
    ] as const) {
      const res = await add(bob, 'bob', { name: 'secret', key_type: keyType, key });
      expect(problemOf(res), res.body).toMatchObject({ status: 400, code: 'auth_key.private_key' });
      expect(res.json().detail).toMatch(/private key/i);
    }
    const stored = await t.database.db.select().from(authKeys).where(eq(authKeys.name, 'secret'));
    expect(stored).toEqual([]);
    const logged = await t.database.db.select().from(events);
    expect(JSON.stringify(logged)).not.toContain('PRIVATE');
  });

  it('a user manages only their own keys; another user gets 403; an admin manages everyone’s', async () => {
    const [aliceKey] = await list(alice, 'alice');
    if (!aliceKey) throw new Error('alice has no key');
    const { publicKey } = freshSshKey();
    // Bob on Alice's keys: refused, nothing changes.
    expect((await t.request('GET', '/api/v1/user/alice/auth_key', { cookie: bob })).statusCode).toBe(403);
    expect((await add(bob, 'alice', { name: 'planted', key_type: 'ssh', key: publicKey })).statusCode).toBe(403);
    expect((await t.request('DELETE', `/api/v1/user/alice/auth_key/${aliceKey.id}`, { cookie: bob })).statusCode).toBe(403);
    const rename = { cookie: bob, payload: { name: 'hijacked' } };
    expect((await t.request('POST', `/api/v1/user/alice/auth_key/${aliceKey.id}/rename`, rename)).statusCode).toBe(403);
    // Bob addressing Alice's key id under his own name finds nothing.
    expect(problemOf(await t.request('DELETE', `/api/v1/user/bob/auth_key/${aliceKey.id}`, { cookie: bob }))).toMatchObject({
      status: 404,
      code: 'auth_key.not_found',
    });
    const renamedByBob = await t.request('POST', `/api/v1/user/bob/auth_key/${aliceKey.id}/rename`, rename);
    expect(problemOf(renamedByBob).code).toBe('auth_key.not_found');
    expect((await list(alice, 'alice')).find((k) => k.id === aliceKey.id)?.name).toBe(aliceKey.name);
    // The admin lists, adds, renames and deletes Alice's keys.
    expect((await list(admin, 'alice')).length).toBeGreaterThan(0);
    const added = await add(admin, 'alice', { name: 'from admin', key_type: 'ssh', key: publicKey });
    expect(added.statusCode, added.body).toBe(201);
    const renamed = await t.request('POST', `/api/v1/user/alice/auth_key/${added.json().id}/rename`, {
      cookie: admin,
      payload: { name: 'renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: added.json().id, name: 'renamed' });
    const deleted = await t.request('DELETE', `/api/v1/user/alice/auth_key/${added.json().id}`, { cookie: admin });
    expect(deleted.statusCode).toBe(204);
    expect((await list(alice, 'alice')).some((k) => k.id === added.json().id)).toBe(false);
    expect(problemOf(await t.request('GET', '/api/v1/user/nobody/auth_key', { cookie: admin })).code).toBe('user.not_found');
  });

  it('the owner renames and deletes a key, recording the events', async () => {
    const { publicKey } = freshSshKey();
    const created = (await add(alice, 'alice', { name: 'temp', key_type: 'ssh', key: publicKey })).json();
    const renamed = await t.request('POST', `/api/v1/user/alice/auth_key/${created.id}/rename`, {
      cookie: alice,
      payload: { name: ' work ' },
    });
    expect(renamed.json().name).toBe('work');
    expect((await t.request('DELETE', `/api/v1/user/alice/auth_key/${created.id}`, { cookie: alice })).statusCode).toBe(204);
    expect((await t.request('DELETE', `/api/v1/user/alice/auth_key/${created.id}`, { cookie: alice })).statusCode).toBe(404);
    const types = await t.database.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.objectType, 'auth_key'), eq(events.objectId, String(created.id))));
    expect(types.map((e) => e.type)).toEqual(['auth_key.added', 'auth_key.renamed', 'auth_key.removed']);
  });

  it('a key name must be one line (it becomes the authorized_keys comment)', async () => {
    const res = await add(alice, 'alice', { name: 'a\nssh-ed25519 AAAA evil', key_type: 'ssh', key: freshSshKey().publicKey });
    expect(problemOf(res).status).toBe(400);
    expect(res.json().errors[0].path).toBe('name');
  });

  it('GET /user/{username}/ssh_keys: authorized_keys lines of the SSH keys only, anonymously', async () => {
    const res = await t.request('GET', '/api/v1/user/alice/ssh_keys');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.body.split('\n');
    expect(lines.pop()).toBe('');
    const keys = await list(alice, 'alice');
    expect(lines).toEqual(keys.filter((k) => k.key_type === 'ssh').map((k) => `${k.key} ${k.name}`));
    expect(lines).toContain(`${SSH_ED25519.replace(/ root@vm$/, '')} laptop`);
    expect(res.body).not.toContain('PGP');
    // Every line parses back as the stored key, with the same fingerprint.
    for (const line of lines)
      expect(keys.map((k) => k.fingerprint)).toContain(sshpk.parseKey(line, 'ssh').fingerprint('sha256').toString());
  });

  it('ssh_keys answers an empty body for an unknown user and for a disabled user', async () => {
    const unknown = await t.request('GET', '/api/v1/user/nobody-at-all/ssh_keys');
    expect([unknown.statusCode, unknown.body]).toEqual([200, '']);
    expect(problemOf(await t.request('GET', `/api/v1/user/${'x'.repeat(65)}/ssh_keys`)).status).toBe(400);
    await t.createUser('carol');
    const carol = await t.login('carol', 'Passw0rd!user');
    expect((await add(carol, 'carol', { name: 'c', key_type: 'ssh', key: freshSshKey().publicKey })).statusCode).toBe(201);
    expect((await t.request('GET', '/api/v1/user/carol/ssh_keys')).body).toMatch(/^ssh-ed25519 \S+ c\n$/);
    const user = (await t.request('GET', '/api/v1/user/carol', { cookie: admin })).json();
    const disabled = await t.request('PUT', '/api/v1/user/carol', {
      cookie: admin,
      payload: { username: 'carol', first_name: user.first_name, last_name: user.last_name, email: user.email, is_active: false },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const after = await t.request('GET', '/api/v1/user/carol/ssh_keys');
    expect([after.statusCode, after.body]).toEqual([200, '']);
  });

  it('addUserKeys stores card keys with the card serial in the caller transaction (YubiKey provisioning)', async () => {
    await t.createUser('erin');
    const erin = await t.login('erin', 'Passw0rd!user');
    const user = (await t.request('GET', '/api/v1/user/erin', { cookie: admin })).json();
    const ssh = freshSshKey().publicKey;
    const added = await t.database.db.transaction((tx) =>
      addUserKeys(
        tx,
        SYSTEM_ACTOR,
        { id: user.id, username: 'erin' },
        [
          { name: 'YubiKey 5 SSH', key_type: 'ssh', key: ssh },
          { name: 'YubiKey 5 GPG', key_type: 'gpg', key: GPG_PUBLIC },
        ],
        '12345678',
      ),
    );
    expect(added.map((k) => [k.key_type, k.serial])).toEqual([
      ['ssh', '12345678'],
      ['gpg', '12345678'],
    ]);
    expect((await list(erin, 'erin')).map((k) => k.serial)).toEqual(['12345678', '12345678']);
    expect((await t.request('GET', '/api/v1/user/erin/ssh_keys')).body).toBe(`${ssh.split(' ').slice(0, 2).join(' ')} YubiKey 5 SSH\n`);
    // A failure rolls back with the caller's transaction: nothing from a half-provisioned card stays.
    const other = freshSshKey().publicKey;
    await expect(
      t.database.db.transaction((tx) =>
        addUserKeys(
          tx,
          SYSTEM_ACTOR,
          { id: user.id, username: 'erin' },
          [
            { name: 'new', key_type: 'ssh', key: other },
            { name: 'dup', key_type: 'ssh', key: ssh },
          ],
          '87654321',
        ),
      ),
    ).rejects.toMatchObject({ code: 'auth_key.already_added' });
    expect((await list(erin, 'erin')).length).toBe(2);
  });

  it('deleting the user deletes their keys', async () => {
    await t.createUser('dave');
    const dave = await t.login('dave', 'Passw0rd!user');
    expect((await add(dave, 'dave', { name: 'd', key_type: 'ssh', key: freshSshKey().publicKey })).statusCode).toBe(201);
    const user = (await t.request('GET', '/api/v1/user/dave', { cookie: admin })).json();
    expect((await t.request('DELETE', '/api/v1/user/dave', { cookie: admin })).statusCode).toBeLessThan(300);
    expect(await t.database.db.select().from(authKeys).where(eq(authKeys.userId, user.id))).toEqual([]);
  });
});
