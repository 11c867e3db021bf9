import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Argon2 runs on a few worker threads of its own, each lowered to nice 10 (Linux applies a nice
 * value per thread). A login burst keeps every core hashing, and the event loop, PostgreSQL and
 * every other request then had to wait for a time slice: the scheduler now gives them the core
 * at once, while the hashing threads still use all the CPU nobody else wants (bench/login.ts:
 * `GET /me` during a burst). On libuv's pool, as before, the hashing threads could not be told
 * apart from file and DNS work.
 */
export const ARGON2_THREAD_NICE = 10;

interface Job {
  op: 'hash' | 'verify';
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
let tid;
try {
  tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  setPriority(tid, workerData.nice);
} catch {
  // not Linux, or the priority cannot change: hash at normal priority
}
const argon2 = require(workerData.modulePath);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash' ? argon2.hashSync(...job.args) : argon2.verifySync(...job.args);
    parentPort.postMessage({ value });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ tid });
`;

const modulePath = createRequire(import.meta.url).resolve('@node-rs/argon2');

class HashingThread {
  readonly #worker: Worker;
  #job: Job | undefined;
  /** The thread's id (Linux), once it reported it. */
  tid: number | undefined;

  constructor(onExit: (thread: HashingThread) => void) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, nice: ARGON2_THREAD_NICE } });
    this.#worker.unref();
    this.#worker.on('message', (message: { tid?: number; value?: unknown; error?: string }) => {
      if ('tid' in message) {
        this.tid = message.tid;
        return;
      }
      const job = this.#job;
      this.#job = undefined;
      // Idle threads do not keep the process alive; a running job does.
      this.#worker.unref();
      if (!job) return;
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.value);
    });
    const fail = (error: Error) => {
      this.#job?.reject(error);
      this.#job = undefined;
      onExit(this);
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`Argon2 worker exited with code ${code}`)));
  }

  get isIdle(): boolean {
    return this.#job === undefined;
  }

  run(job: Job): void {
    this.#job = job;
    this.#worker.ref();
    this.#worker.postMessage({ op: job.op, args: job.args });
  }
}

const threads: HashingThread[] = [];

/** Hashing threads started so far (at most one per concurrent operation). */
export function hashingThreadIds(): (number | undefined)[] {
  return threads.map((t) => t.tid);
}

/**
 * Runs one Argon2 operation on an idle hashing thread, starting one when none is idle. The caller
 * bounds the concurrency (lib/password.ts), which bounds the number of threads.
 */
export function runOnHashingThread<T>(op: 'hash' | 'verify', args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let thread = threads.find((t) => t.isIdle);
    if (!thread) {
      thread = new HashingThread((gone) => {
        const index = threads.indexOf(gone);
        if (index >= 0) threads.splice(index, 1);
      });
      threads.push(thread);
    }
    thread.run({ op, args, resolve: resolve as (value: unknown) => void, reject });
  });
}
