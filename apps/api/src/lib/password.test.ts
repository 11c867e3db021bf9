import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARGON2_THREAD_NICE, hashingThreadIds } from '#src/lib/argon2-workers.js';
import {
  ARGON2_OPTIONS,
  argon2Concurrency,
  defaultArgon2Concurrency,
  hashPassword,
  setArgon2Concurrency,
  verifyPassword,
  withArgon2Slot,
} from '#src/lib/password.js';

/** A task that runs until released, counting how many run at once. */
function gate() {
  const state = { active: 0, peak: 0, started: [] as number[] };
  const releases = new Map<number, (fail: boolean) => void>();
  const task = (id: number) => async () => {
    state.active++;
    state.peak = Math.max(state.peak, state.active);
    state.started.push(id);
    const fail = await new Promise<boolean>((resolve) => releases.set(id, resolve));
    state.active--;
    if (fail) throw new Error(`boom ${id}`);
    return `ok ${id}`;
  };
  const release = (id: number, fail = false) => {
    const r = releases.get(id);
    if (!r) throw new Error(`task ${id} has not started`);
    releases.delete(id);
    r(fail);
  };
  return { state, task, release };
}
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

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

  it('defaults to one operation fewer than the CPUs, never fewer than one', () => {
    expect(defaultArgon2Concurrency(1)).toBe(1);
    expect(defaultArgon2Concurrency(2)).toBe(1);
    expect(defaultArgon2Concurrency(8)).toBe(7);
    expect(argon2Concurrency()).toBe(defaultArgon2Concurrency());
    expect(() => setArgon2Concurrency(0)).toThrow(RangeError);
  });

  it('runs at most the bound at once, first come first served; a failure frees its slot', async () => {
    const before = argon2Concurrency();
    setArgon2Concurrency(3);
    try {
      const { state, task, release } = gate();
      const total = 12;
      const results = Array.from({ length: total }, (_, i) => withArgon2Slot(task(i)).catch((e: Error) => e.message));
      await settle();
      expect(state.started).toEqual([0, 1, 2]);
      // Release the newest running task each time (every other one failing): the waiters still
      // start in the order they came, and never more than 3 run.
      const released = new Set<number>();
      while (released.size < total) {
        const id = state.started.filter((i) => !released.has(i)).pop() as number;
        released.add(id);
        release(id, id % 2 === 0);
        await settle();
        expect(state.active).toBeLessThanOrEqual(3);
        expect(state.active).toBe(Math.min(3, total - released.size));
      }
      expect(state.started).toEqual(Array.from({ length: total }, (_, i) => i));
      const settled = await Promise.all(results);
      expect(state.peak).toBe(3);
      expect(settled).toEqual(Array.from({ length: total }, (_, i) => (i % 2 === 0 ? `boom ${i}` : `ok ${i}`)));
      // Every slot was given back: three new tasks start at once.
      const probe = gate();
      const more = [0, 1, 2].map((i) => withArgon2Slot(probe.task(i)));
      await settle();
      expect(probe.state.active).toBe(3);
      for (const i of [0, 1, 2]) probe.release(i);
      await Promise.all(more);
    } finally {
      setArgon2Concurrency(before);
    }
  });

  it('starts waiting operations at once when the bound is raised, and shrinks as they finish when lowered', async () => {
    const before = argon2Concurrency();
    setArgon2Concurrency(1);
    try {
      const { state, task, release } = gate();
      const results = [0, 1, 2, 3].map((i) => withArgon2Slot(task(i)));
      await settle();
      expect(state.started).toEqual([0]);
      setArgon2Concurrency(3);
      await settle();
      expect(state.started).toEqual([0, 1, 2]);
      setArgon2Concurrency(1);
      release(0);
      release(1);
      await settle();
      // Two were still running (2 and nothing new until the count fell below the bound).
      expect(state.started).toEqual([0, 1, 2]);
      release(2);
      await settle();
      expect(state.started).toEqual([0, 1, 2, 3]);
      release(3);
      await Promise.all(results);
    } finally {
      setArgon2Concurrency(before);
    }
  });

  it('hashes on threads of lowered priority, leaving the event loop at its own', async () => {
    const niceOf = (tid: number) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    await Promise.all(Array.from({ length: argon2Concurrency() }, () => hashPassword('Thread-nice1!')));
    const tids = hashingThreadIds();
    expect(tids.length).toBeGreaterThan(0);
    expect(tids.length).toBeLessThanOrEqual(argon2Concurrency());
    for (const tid of tids) expect(niceOf(tid as number)).toBe(ARGON2_THREAD_NICE);
    expect(niceOf(process.pid)).toBe(0);
  });
});
