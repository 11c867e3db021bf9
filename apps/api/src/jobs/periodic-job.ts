import type { Job } from './jobs.js';

export interface PeriodicJobOptions {
  name: string;
  /** The delay before the first round. */
  firstDelayMs: number;
  /**
   * One round; resolves to the delay before the next. A round handles (and logs) its own errors:
   * a rejection ends the schedule. `isStopped` turns true when the job is asked to stop, for
   * rounds that work in steps.
   */
  round: (isStopped: () => boolean) => Promise<number>;
}

/**
 * A job that runs one round at a time, each after the delay the previous one asked for; `stop`
 * clears the pending timer and waits for a round in progress. The timer does not keep the
 * process alive. Each finished round's duration goes to `onRound` (the /metrics histogram).
 */
export function periodicJob({ name, firstDelayMs, round }: PeriodicJobOptions): Job {
  const job: Job = { name, onRound: undefined, start: () => schedule(firstDelayMs), stop };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const isStopped = () => stopped;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      const began = performance.now();
      const current = round(isStopped).then((next) => {
        job.onRound?.((performance.now() - began) / 1000);
        running = undefined;
        schedule(next);
      });
      running = current;
    }, ms);
    timer.unref();
  };
  async function stop() {
    stopped = true;
    clearTimeout(timer);
    await running;
  }
  return job;
}
