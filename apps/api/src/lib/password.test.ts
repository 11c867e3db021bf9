import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '#src/lib/password.js';

describe('password hashing', () => {
  it('uses Argon2id with m=19456, t=2, p=1 (OWASP), visible in the encoded hash', async () => {
    const encoded = await hashPassword('Corr3ct-horse!');
    expect(encoded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(encoded).not.toContain('Corr3ct-horse!');
    expect(ARGON2_OPTIONS).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('salts: the same password hashes differently', async () => {
    expect(await hashPassword('Same-pass1!')).not.toBe(await hashPassword('Same-pass1!'));
  });

  it('verifies the right password only', async () => {
    const encoded = await hashPassword('Corr3ct-horse!');
    expect(await verifyPassword(encoded, 'Corr3ct-horse!')).toBe(true);
    expect(await verifyPassword(encoded, 'corr3ct-horse!')).toBe(false);
    expect(await verifyPassword(encoded, '')).toBe(false);
  });

  it('answers false (never throws) for a missing or malformed hash', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword(undefined, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });
});
