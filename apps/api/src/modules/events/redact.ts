/**
 * Keys whose values never enter an event (and so never reach the activity log, a webhook or a
 * stream): passwords, tokens, secrets, private keys, cookies. Applied at record time, whatever a
 * caller passes in `details`.
 */
const SECRET_KEY = /pass(word|phrase)?|secret|token|private|cookie|authorization|credential|^key$|_key$|hash/i;
/** Public keys are identifiers, not secrets. */
const PUBLIC_KEY = /pub(lic)?_?key/i;

export const REDACTED = '[redacted]';

export function redactDetails(value: unknown, depth = 0): unknown {
  if (depth > 8) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactDetails(v, depth + 1));
  if (value === null || typeof value !== 'object')
    return typeof value === 'string' && value.length > 2048 ? `${value.slice(0, 2048)}…` : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    out[k] = SECRET_KEY.test(k) && !PUBLIC_KEY.test(k) ? REDACTED : redactDetails(v, depth + 1);
  }
  return out;
}
