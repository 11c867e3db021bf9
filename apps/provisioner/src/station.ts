import { ApiError, type StationApi } from './api.js';
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

const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

/**
 * The station loop (ADR-007): register with the registration token for a station token, then poll
 * (each poll is the heartbeat) and run each job it hands out, reporting the result. A 401 (the
 * station was deleted, or registered again elsewhere) registers again; network errors back off.
 */
export async function runStation(api: StationApi, card: CardPort, options: StationOptions, signal: AbortSignal): Promise<void> {
  let token: string | undefined;
  let failures = 0;
  while (!signal.aborted) {
    try {
      if (token === undefined) {
        const registered = await api.register(options.registrationToken, options.name);
        token = registered.token;
        options.log(`registered as "${registered.name}" (worker ${registered.id})`);
      }
      const task = await api.poll(token, options.pollWaitSeconds, signal);
      failures = 0;
      if (!task) continue;
      options.log(`job ${task.id}: provisioning a YubiKey for ${task.username}`);
      const result = await provision(task, card, options.keyAlgorithm);
      await api.report(token, task.id, result);
      options.log(result.success ? `job ${task.id}: done, card ${result.serial}` : `job ${task.id}: failed: ${result.error}`);
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ApiError && error.status === 401) token = undefined;
      const wait = RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)] ?? 30_000;
      options.log(`${error instanceof Error ? error.message : String(error)}; retrying in ${wait / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
