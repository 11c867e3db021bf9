import { spawnSync } from 'node:child_process';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dropTestDatabase, newRunId, runIsOver } from './db-urls.js';

/** A PID that no process holds: one of a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

describe('test database names', () => {
  it('names each run apart even when the PID is the same', () => {
    expect(newRunId()).toMatch(new RegExp(`^${process.pid}_[0-9a-z]+_[0-9a-f]{4}$`));
    expect(newRunId()).not.toBe(newRunId());
  });

  it('a run is over when its process is gone, or when its PID now belongs to a process started later', () => {
    const now = Date.now().toString(36);
    expect(runIsOver(`palisade_test_${process.pid}_${now}_abcd_template`)).toBe(false);
    expect(runIsOver(`palisade_test_${deadPid()}_${now}_abcd_w1_0a1b2c`)).toBe(true);
    // Same PID, but the run began a day before this process: the PID was reused.
    const dayBefore = Math.round(Date.now() - 86_400_000 - process.uptime() * 1000).toString(36);
    expect(runIsOver(`palisade_test_${process.pid}_${dayBefore}_abcd_template`)).toBe(true);
    // Names of older runs (PID only) and of other schemes.
    expect(runIsOver(`palisade_test_${process.pid}_template`)).toBe(false);
    expect(runIsOver(`palisade_test_${deadPid()}_w1`)).toBe(true);
    expect(runIsOver('palisade_test_local_template')).toBe(false);
  });
});

describe('dropTestDatabase', () => {
  const client = (failures: number) => {
    const calls: string[] = [];
    const admin = {
      query: async (text: string) => {
        calls.push(text);
        if (calls.length <= failures) throw new Error('must be a member of the role whose process is being terminated');
        return { rows: [] };
      },
    };
    return { admin: admin as unknown as pg.Client, calls };
  };

  it('retries while the database is held, then drops it', async () => {
    const { admin, calls } = client(2);
    expect(await dropTestDatabase(admin, 'palisade_test_1_x_abcd_w1_aa', 5)).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('never fails the run for a database it cannot drop', async () => {
    const { admin, calls } = client(Number.POSITIVE_INFINITY);
    expect(await dropTestDatabase(admin, 'palisade_test_1_x_abcd_w1_aa', 2)).toBe(false);
    expect(calls).toHaveLength(2);
  });

  it('touches only test databases', async () => {
    const { admin } = client(0);
    await expect(dropTestDatabase(admin, 'palisade', 1)).rejects.toThrow(/refusing/);
  });
});
