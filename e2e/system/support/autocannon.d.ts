/** The part of autocannon 8 (untyped) the replicas system test uses. */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }

  interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    totalCompletedRequests: number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  // biome-ignore lint/style/noDefaultExport: autocannon (CommonJS) exports one function
  export default autocannon;
}
