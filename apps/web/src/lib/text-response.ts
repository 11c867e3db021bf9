import { ApiError } from '@palisade/api-client';

/**
 * The config routes answer text/plain, which openapi-fetch reads with `parseAs: 'text'`; a failure
 * then arrives as the problem+json text, parsed back here so the console still branches on `code`.
 */
export async function unwrapText(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<string> {
  const { data, error, response } = await pending;
  if (response.ok) return typeof data === 'string' ? data : '';
  let problem: ApiError['problem'] = { code: response.status === 401 ? 'auth.unauthenticated' : 'internal', title: response.statusText };
  try {
    const parsed: unknown = typeof error === 'string' ? JSON.parse(error) : error;
    if (parsed && typeof parsed === 'object' && 'code' in parsed) problem = parsed as ApiError['problem'];
  } catch {
    // Not JSON: keep the status-based problem.
  }
  throw new ApiError(response.status, problem);
}
