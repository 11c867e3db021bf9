/**
 * The API client captures `fetch` and `Request` when it is created, so tests install a
 * delegating fetch before any module creates it, and swap the handler per test.
 * Relative URLs (the console calls `/api/v1/...`) are resolved against the jsdom origin.
 */
type Handler = (request: Request) => Promise<Response> | Response;

let handler: Handler = () => new Response(null, { status: 404 });

export function setFetchHandler(next: Handler): void {
  handler = next;
}

export function jsonResponse(status: number, body: unknown, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

export function problemResponse(
  status: number,
  code: string,
  errors?: { path: string; code: string; message: string; params?: Record<string, number> }[],
) {
  return jsonResponse(
    status,
    { type: 'about:blank', title: 'Error', status, code, ...(errors ? { errors } : {}) },
    'application/problem+json',
  );
}

export function installFetchMock(): void {
  const NativeRequest = globalThis.Request;
  class RelativeRequest extends NativeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.origin) : input, init);
    }
  }
  globalThis.Request = RelativeRequest;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(input instanceof Request ? input : new Request(input, init));
}
