import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { type JobContext, JobRunner } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('job metrics', () => {
  it('reports each periodic round by job name and counts the warnings and errors a job logs', async () => {
    const rounds: [string, number][] = [];
    const errors: string[] = [];
    const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
    const ctx = {
      log,
      metrics: { observeJobRound: (job: string, s: number) => rounds.push([job, s]), countJobError: (job: string) => errors.push(job) },
    };
    let n = 0;
    const runner = new JobRunner(ctx as unknown as JobContext, [
      (c) =>
        periodicJob({
          name: 'probe',
          firstDelayMs: 0,
          round: async () => {
            n++;
            if (n === 1) c.log.error('round failed');
            else c.log.info('fine');
            return n < 3 ? 0 : 60_000;
          },
        }),
    ]);
    runner.start();
    await until(() => rounds.length >= 3, 'three rounds');
    await runner.stop();
    expect(rounds.map(([job]) => job)).toEqual(['probe', 'probe', 'probe']);
    expect(rounds.every(([, s]) => s >= 0 && s < 60)).toBe(true);
    expect(errors).toEqual(['probe']);
    // The job's own logger still gets the line.
    expect(log.error).toHaveBeenCalledWith('round failed');
  });
});
