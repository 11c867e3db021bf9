import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '#test/child-env.js';
import { ensureWorkerDatabase } from '#test/helpers.js';
import { verifyArchive } from './archive.js';

/** The palisade-admin program itself: arguments, environment, exit status and messages. */

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function admin(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/admin/cli.ts', ...args],
      { env: childEnv({ DATABASE_URL: '', SECRET_KEY: '', ...env }), timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('palisade-admin', () => {
  let tmp: string;
  let url: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'palisade-admin-cli-'));
    url = await ensureWorkerDatabase();
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('prints its usage with status 2 for an unknown command or a missing option', async () => {
    for (const args of [[], ['backup'], ['frobnicate'], ['restore', '--bogus']]) {
      const run = await admin(args, { DATA_DIR: tmp });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: palisade-admin');
    }
  }, 120_000);

  it('backs up the database of DATABASE_URL and says loudly when the key is not in the backup', async () => {
    const out = join(tmp, 'pg.backup');
    const run = await admin(['backup', '--out', out], { DATA_DIR: join(tmp, 'data'), DATABASE_URL: url, SECRET_KEY: 'k'.repeat(40) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Backup written to .*pg\.backup: \d+ tables, \d+ rows, postgresql database at migration \d{4}_/);
    expect(run.stderr).toMatch(/does NOT contain the secret key/);
    const manifest = await verifyArchive(out);
    expect(manifest.secret_key).toEqual({ included: false, reason: 'secret-key-variable' });
  }, 120_000);

  it('fails with status 1 and one clear line for a missing archive or database', async () => {
    const missing = await admin(['restore', '--in', join(tmp, 'nope')], { DATA_DIR: join(tmp, 'empty') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^palisade-admin: cannot read .*nope/);
    const noDb = await admin(['backup', '--out', join(tmp, 'x')], { DATA_DIR: join(tmp, 'empty') });
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toMatch(/^palisade-admin: no embedded database in .* and no DATABASE_URL/);
  }, 120_000);
});
