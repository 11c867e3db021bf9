import { ApiError, type JobResult, type StationApi, type Task } from './api.js';
import type { CardPort } from './card/card-port.js';
import type { KeyAlgorithm } from './config.js';
import { provision } from './provision.js';

export interface StationOptions {
  name: string;
  registrationToken: string;
  keyAlgorithm: KeyAlgorithm;
  pollWaitSeconds: number;
  log: (line: string) => void;
}

/** Waits between attempts: a poll, an acknowledgement or a report that failed is tried again. */
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];
/** Job heartbeats when an older API does not say how often. */
const DEFAULT_HEARTBEAT_SECONDS = 15;

/** The API ended the job (409) or it is not this station's (404): nothing more to do with it. */
const jobGone = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 409);
const describe = (error: unknown) => {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The station loop (ADR-007, docs/provisioning.md "Job lifecycle"): register with the registration
 * token for a station token, then poll (each poll is a heartbeat) and, for each job offered:
 * acknowledge it (the first job heartbeat takes it), send a heartbeat every `heartbeat_seconds`
 * while the card is written, and report the result, retrying with backoff until the API answers
 * (a repeated report is idempotent on the API). A station polls only when it holds no job. A 401
 * (the station was deleted, or registered again elsewhere) registers again; network errors back off.
 */
export async function runStation(api: StationApi, card: CardPort, options: StationOptions, signal: AbortSignal): Promise<void> {
  let token: string | undefined;
  const tokenOf = async (): Promise<string> => {
    if (token === undefined) {
      const registered = await api.register(options.registrationToken, options.name);
      token = registered.token;
      options.log(`registered as "${registered.name}" (worker ${registered.id})`);
    }
    return token;
  };

  /**
   * Runs `call` until it succeeds; gives up (false) when the job is gone, or after a failed attempt
   * once the station is stopping (a result is still reported once when the stop came mid-job).
   */
  const untilDone = async (what: string, call: (token: string) => Promise<void>): Promise<boolean> => {
    for (let failures = 0; ; failures++) {
      try {
        await call(await tokenOf());
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        if (jobGone(error)) {
          options.log(`${what}: ${describe(error)}; the job is over for this station`);
          return false;
        }
        if (error instanceof ApiError && error.status === 401) token = undefined;
        const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 30_000;
        options.log(`${what}: ${describe(error)}; retrying in ${wait / 1000} s`);
        await sleep(wait, signal);
        if (signal.aborted) return false;
      }
    }
  };

  const runJob = async (task: Task) => {
    options.log(`job ${task.id}: provisioning a YubiKey for ${task.username}`);
    if (!(await untilDone(`job ${task.id}: acknowledge`, (t) => api.heartbeat(t, task.id, signal)))) return;
    const heartbeatMs = (task.heartbeat_seconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000;
    const beating = setInterval(() => {
      if (token === undefined) return;
      api.heartbeat(token, task.id, signal).catch((error: unknown) => options.log(`job ${task.id}: heartbeat: ${describe(error)}`));
    }, heartbeatMs);
    let result: JobResult;
    try {
      result = await provision(task, card, options.keyAlgorithm);
    } catch (error) {
      result = { success: false, error: `The station failed: ${describe(error)}` };
    } finally {
      clearInterval(beating);
    }
    if (await untilDone(`job ${task.id}: report`, (t) => api.report(t, task.id, result))) {
      options.log(result.success ? `job ${task.id}: done, card ${result.serial}` : `job ${task.id}: failed: ${result.error}`);
    }
  };

  let failures = 0;
  while (!signal.aborted) {
    let task: Task | undefined;
    try {
      task = await api.poll(await tokenOf(), options.pollWaitSeconds, signal);
      failures = 0;
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ApiError && error.status === 401) token = undefined;
      const wait = RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)] ?? 30_000;
      options.log(`${describe(error)}; retrying in ${wait / 1000} s`);
      await sleep(wait, signal);
      continue;
    }
    if (task) await runJob(task);
  }
}
