/**
 * What directory sync reads from a company directory (Google Workspace, Microsoft Entra ID,
 * Okta, JumpCloud): its users with their status, its groups and their members. Each provider
 * client speaks its documented API over `fetch` and follows its paging to the end.
 */
export interface DirectoryUser {
  /** The directory's own, stable user id (the `subject` of the user's external identity). */
  id: string;
  email: string;
  /** False when the directory suspended, deactivated or deprovisioned the account. */
  isActive: boolean;
}

export interface DirectoryGroup {
  id: string;
  name: string;
}

export interface DirectoryClient {
  listUsers(): Promise<DirectoryUser[]>;
  listGroups(): Promise<DirectoryGroup[]>;
  /** The ids of the group's user members (nested groups and devices are left out). */
  listGroupMembers(group: DirectoryGroup): Promise<string[]>;
}

/**
 * Why talking to the directory failed, in words an administrator can act on ("the token
 * endpoint refused the credentials: invalid_client"). Never carries a secret.
 */
export class DirectoryError extends Error {
  override readonly name = 'DirectoryError';
}

/** How long one request to a directory may take. */
export const DIRECTORY_REQUEST_TIMEOUT_MS = 20_000;
/** A guard against a directory that pages forever (a loop in its next links). */
export const MAX_PAGES = 10_000;

async function describeFailure(response: Response): Promise<string> {
  const text = (await response.text().catch(() => '')).slice(0, 2000);
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error as unknown;
    const reason =
      (typeof body.error_description === 'string' && body.error_description) ||
      (typeof error === 'string' && error) ||
      (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string'
        ? (error as { message: string }).message
        : '') ||
      (typeof body.errorSummary === 'string' && body.errorSummary) ||
      (typeof body.message === 'string' && body.message) ||
      '';
    if (reason) return `HTTP ${response.status}: ${reason.slice(0, 300)}`;
  } catch {
    // not JSON: the status says enough
  }
  return `HTTP ${response.status} ${response.statusText}`.trim();
}

/** One request; a network failure or a non-2xx answer becomes a DirectoryError naming `what`. */
export async function request(what: string, url: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(DIRECTORY_REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new DirectoryError(`${what} could not be reached (${new URL(url).host}): ${reason}`);
  }
  if (!response.ok) throw new DirectoryError(`${what} failed: ${await describeFailure(response)}`);
  return response;
}

export async function requestJson<T>(what: string, url: string, init: RequestInit = {}): Promise<T> {
  const response = await request(what, url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  try {
    return (await response.json()) as T;
  } catch {
    throw new DirectoryError(`${what} answered with something that is not JSON`);
  }
}

/** POSTs a form to an OAuth token endpoint and returns the access token. */
export async function fetchAccessToken(tokenUrl: string, form: Record<string, string>): Promise<string> {
  const body = await requestJson<{ access_token?: unknown }>('The token endpoint', tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new DirectoryError('The token endpoint answered without an access token');
  }
  return body.access_token;
}

/** Follows a cursor from page to page: `page(cursor)` returns its items and the next cursor. */
export async function collectPages<T, C>(first: C, page: (cursor: C) => Promise<{ items: T[]; next: C | undefined }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: C | undefined = first;
  for (let n = 0; cursor !== undefined; n++) {
    if (n >= MAX_PAGES) throw new DirectoryError(`The directory returned more than ${MAX_PAGES} pages`);
    const { items, next }: { items: T[]; next: C | undefined } = await page(cursor);
    all.push(...items);
    cursor = next;
  }
  return all;
}

/** Caches an access token for a client's lifetime (one sync run or one connection test). */
export function cachedToken(fetchToken: () => Promise<string>): () => Promise<string> {
  let token: Promise<string> | undefined;
  return () => {
    token ??= fetchToken().catch((error: unknown) => {
      token = undefined;
      throw error;
    });
    return token;
  };
}

export const trimSlash = (url: string) => url.replace(/\/+$/, '');
