import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * DATA_DIR holds the secret key file and the embedded database (password and session hashes, every
 * setting): only the account that runs Palisade may read them, as PostgreSQL insists for its own
 * data directory. Files are created owner-only (umask 077) and looser modes found at start (older
 * releases created `pgdata` 0755 with files 0644) are tightened. Only Palisade's own entries are
 * touched: DATA_DIR itself, `secret.key` and `pgdata`.
 */
export const OWNER_ONLY_UMASK = 0o077;

const OWN_ENTRIES = ['secret.key', 'pgdata'];

export interface ModeChange {
  path: string;
  from: number;
  to: number;
  /** False when the mode could not be changed (the process does not own the path). */
  applied: boolean;
}

/** chmod, or false when not permitted: a path owned by another account is reported, not fatal. */
async function tryChmod(path: string, mode: number): Promise<boolean> {
  try {
    await chmod(path, mode);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return false;
    throw error;
  }
}

export const formatMode = (mode: number) => `0${mode.toString(8)}`;

/** Directories 0700, files without group/other bits (0600); symbolic links are left alone. */
export async function tightenTree(path: string, changes: ModeChange[] = []): Promise<ModeChange[]> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!info || info.isSymbolicLink()) return changes;
  const mode = info.mode & 0o777;
  const wanted = info.isDirectory() ? 0o700 : mode & 0o700;
  if (mode !== wanted) changes.push({ path, from: mode, to: wanted, applied: await tryChmod(path, wanted) });
  if (info.isDirectory()) for (const entry of await readdir(path)) await tightenTree(join(path, entry), changes);
  return changes;
}

/**
 * Sets the process umask to owner-only, creates DATA_DIR (0700) and tightens what is already
 * there. Returns what it changed, for the start-up log.
 */
export async function secureDataDir(dataDir: string): Promise<ModeChange[]> {
  process.umask(OWNER_ONLY_UMASK);
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const changes: ModeChange[] = [];
  const info = await lstat(dir);
  if ((info.mode & 0o077) !== 0) {
    changes.push({ path: dir, from: info.mode & 0o777, to: info.mode & 0o700, applied: await tryChmod(dir, info.mode & 0o700) });
  }
  for (const entry of OWN_ENTRIES) await tightenTree(join(dir, entry), changes);
  return changes;
}
