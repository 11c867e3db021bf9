import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2 (an ambient const enum, so spelled out here). */
const ARGON2ID = 2;

/**
 * Argon2id at OWASP's first recommended setting (m = 19 MiB, t = 2, p = 1). @node-rs/argon2 runs
 * on the libuv thread pool, so a burst of logins does not block the event loop.
 */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

/** A hash of a random password, verified against when the user does not exist so timing is alike. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('palisade-timing-equaliser-0');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
