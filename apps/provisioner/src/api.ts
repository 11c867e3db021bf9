/** The station's side of the API (docs/provisioning.md): plain HTTPS with `Authorization: Worker`. */
export interface Task {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  /** Seconds between job heartbeats (the API derives it from its heartbeat timeout and job deadline). */
  heartbeat_seconds?: number;
}

export type JobResult = { success: true; serial: string; ssh_key: string; gpg_key: string } | { success: false; error: string };

/** A heartbeat or report that has no answer after this long is abandoned (and retried). */
const REQUEST_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class StationApi {
  constructor(private readonly baseUrl: string) {}

  private async call(path: string, token: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    const res = await fetch(new URL(`/api/v1/worker/${path}`, this.baseUrl), {
      method: 'POST',
      headers: { authorization: `Worker ${token}`, 'content-type': 'application/json', 'user-agent': 'palisade-provisioner/0.1.0' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    if (res.status >= 400) {
      const text = await res.text();
      let detail = text.slice(0, 300);
      try {
        const problem = JSON.parse(text) as { detail?: string; code?: string };
        detail = problem.detail ?? problem.code ?? detail;
      } catch {}
      throw new ApiError(res.status, `${path}: ${res.status} ${detail}`);
    }
    return res;
  }

  async register(registrationToken: string, name: string): Promise<{ id: number; name: string; token: string }> {
    return (await this.call('register', registrationToken, { name })).json() as Promise<{ id: number; name: string; token: string }>;
  }

  /** A job, or undefined when none came within the wait. */
  async poll(token: string, waitSeconds: number, signal?: AbortSignal): Promise<Task | undefined> {
    // A poll the API (or a proxy) never answers is abandoned, so the station polls again.
    const timeout = AbortSignal.timeout((waitSeconds + 30) * 1000);
    const res = await this.call('poll', token, { wait_seconds: waitSeconds }, signal ? AbortSignal.any([signal, timeout]) : timeout);
    return res.status === 204 ? undefined : ((await res.json()) as Task);
  }

  /** The station works on the job; the first heartbeat acknowledges (takes) it. 409: no longer in progress. */
  async heartbeat(token: string, jobId: number, signal?: AbortSignal): Promise<void> {
    await this.call(
      `job/${jobId}/heartbeat`,
      token,
      {},
      AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(signal ? [signal] : [])]),
    );
  }

  /** The job's result; a repeat of a report the API already stored answers 200 unchanged. */
  async report(token: string, jobId: number, result: JobResult, signal?: AbortSignal): Promise<void> {
    await this.call(
      `job/${jobId}/result`,
      token,
      result,
      AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(signal ? [signal] : [])]),
    );
  }
}
