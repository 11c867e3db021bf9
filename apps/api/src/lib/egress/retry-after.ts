const MAX_RETRY_AFTER_MS = 365 * 24 * 3600 * 1000;

/**
 * `Retry-After` as milliseconds from now: either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * A date in the past is 0; anything else unparseable is undefined.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  // HTTP dates start with a day name; this keeps Date.parse's leniency ("5.5") out.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}
