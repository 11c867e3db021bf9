import { availableParallelism } from 'node:os';
import { runOnHashingThread } from './argon2-workers.js';

/**
 * At most CPUs − 1 Argon2 operations at a time (never fewer than one): a login burst
 * then leaves a core to the event loop, PostgreSQL and every other request (the token endpoint's
 * p99 during a burst, docs/benchmarks.md), and logins queue here instead. More than one per CPU
 * only makes them share cores (and their 19 MiB working sets share caches). They run on hashing
 * threads of lowered priority (lib/argon2-workers.ts), one per slot. `ARGON2_CONCURRENCY`
 * overrides the default (main.ts).
 */
export function defaultArgon2Concurrency(cpus = availableParallelism()): number {
  return Math.max(1, cpus - 1);
}

let maxConcurrent = defaultArgon2Concurrency();
let running = 0;
const waiting: (() => void)[] = [];

/** Argon2 operations allowed at once. */
export function argon2Concurrency(): number {
  return maxConcurrent;
}

/** Changes the bound; a raised bound starts waiting operations at once. */
export function setArgon2Concurrency(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Argon2 concurrency must be a positive integer, got ${limit}`);
  maxConcurrent = limit;
  while (running < maxConcurrent && waiting.length > 0) {
    running++;
    waiting.shift()?.();
  }
}

/**
 * Runs `task` in one of the slots, first come first served; a finishing task hands its slot
 * straight to the next waiter (unless the bound was lowered meanwhile).
 */
export async function withArgon2Slot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await task();
  } finally {
    const next = running <= maxConcurrent ? waiting.shift() : undefined;
    if (next) next();
    else running--;
  }
}

/** `Algorithm.Argon2id` of @node-rs/argon2 (an ambient const enum, so spelled out here). */
const ARGON2ID = 2;

/**
 * Argon2id at OWASP's first recommended setting (m = 19 MiB, t = 2, p = 1), off the event loop, so
 * a burst of logins does not block it.
 */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

const hash = (password: string) => runOnHashingThread<string>('hash', [password, ARGON2_OPTIONS]);
const verify = (encoded: string, password: string) => runOnHashingThread<boolean>('verify', [encoded, password]);

export const hashPassword = (password: string): Promise<string> => withArgon2Slot(() => hash(password));

/** A hash of a random password, verified against when the user does not exist so timing is alike. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('palisade-timing-equaliser-0');
    const dummy = await dummyHash;
    await withArgon2Slot(() => verify(dummy, password)).catch(() => false);
    return false;
  }
  try {
    return await withArgon2Slot(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
