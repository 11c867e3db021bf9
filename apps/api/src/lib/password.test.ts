import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARGON2_THREAD_NICE, hashingThreadIds } from '#src/lib/argon2-workers.js';
import { ARGON2_MAX_CONCURRENT, ARGON2_OPTIONS, hashPassword, verifyPassword, withArgon2Slot } from '#src/lib/password.js';

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

  it('runs at most one Argon2 operation per CPU at a time; a failure frees its slot', async () => {
    let active = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = (fail: boolean) => async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise<void>((resolve) => releases.push(resolve));
      active--;
      if (fail) throw new Error('boom');
      return 'ok';
    };
    const total = ARGON2_MAX_CONCURRENT * 3;
    const results = Array.from({ length: total }, (_, i) => withArgon2Slot(task(i % 2 === 0)).catch((e: Error) => e.message));
    let finished = 0;
    while (finished < total) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(active).toBeLessThanOrEqual(ARGON2_MAX_CONCURRENT);
      const next = releases.shift();
      if (next) {
        next();
        finished++;
      }
    }
    const settled = await Promise.all(results);
    expect(peak).toBe(ARGON2_MAX_CONCURRENT);
    expect(settled.filter((r) => r === 'boom')).toHaveLength(Math.ceil(total / 2));
    expect(settled.filter((r) => r === 'ok')).toHaveLength(Math.floor(total / 2));
    // Slots were all given back: a new task starts at once.
    let started = false;
    const probe = withArgon2Slot(async () => {
      started = true;
    });
    expect(started).toBe(true);
    await probe;
  });

  it('hashes on threads of lowered priority, leaving the event loop at its own', async () => {
    const niceOf = (tid: number) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    await Promise.all(Array.from({ length: ARGON2_MAX_CONCURRENT }, () => hashPassword('Thread-nice1!')));
    const tids = hashingThreadIds();
    expect(tids.length).toBeGreaterThan(0);
    expect(tids.length).toBeLessThanOrEqual(ARGON2_MAX_CONCURRENT);
    for (const tid of tids) expect(niceOf(tid as number)).toBe(ARGON2_THREAD_NICE);
    expect(niceOf(process.pid)).toBe(0);
  });
});
