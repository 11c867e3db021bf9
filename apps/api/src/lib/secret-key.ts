import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `SECRET_KEY` when set; otherwise a key file created in `DATA_DIR` on first start (mode 0600). */
export async function resolveSecretKey(secretKey: string | undefined, dataDir: string): Promise<string> {
  if (secretKey) return secretKey;
  const file = join(dataDir, 'secret.key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return (await readFile(file, 'utf8')).trim();
}
