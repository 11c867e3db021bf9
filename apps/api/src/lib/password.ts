import { availableParallelism } from 'node:os';
import { runOnHashingThread } from './argon2-workers.js';

/**
 * At most one Argon2 operation per CPU at a time: more only makes them share cores (and their
 * 19 MiB working sets share caches). They run on hashing threads of lowered priority
 * (lib/argon2-workers.ts), one per slot.
 */
export const ARGON2_MAX_CONCURRENT = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];
/** Runs `task` in one of the slots; a finishing task hands its slot straight to the next waiter. */
export async function withArgon2Slot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= ARGON2_MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await task();
  } finally {
    const next = waiting.shift();
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
