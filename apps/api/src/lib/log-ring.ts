/**
 * The last log lines of this API process, kept in memory for the support page (GET /support/logs,
 * docs/support.md). The logger writes every line to its destination (stdout) AND here; lines are
 * already redacted by the logger's `redact` paths, and are scrubbed again of known secret shapes
 * before they are stored, so neither memory nor a download holds a secret a later change logs by
 * mistake. Nothing is written to disk; a restart empties the buffer.
 */

/** How many lines the buffer keeps (the oldest go first). */
export const LOG_RING_LINES = 2000;
/** A longer line is cut here, so the buffer stays bounded (about 2000 × 8 KiB at most). */
export const LOG_LINE_MAX_CHARS = 8192;

const REDACTED = '[redacted]';

/** Body and log keys whose string value is a secret, wherever they appear in a JSON line. */
const SECRET_KEYS =
  'password|new_password|old_password|current_password|smtp_password|ldap_bind_password|client_secret|secret|token|access_token|refresh_token|id_token|api_key|private_key|license_key|licence_key|recovery_code|otp|authorization|cookie|set-cookie';

const SCRUBS: [RegExp, string][] = [
  // "key":"value" in JSON (the logger's own output and logged bodies).
  [new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
  // Session cookies, whatever header or message carries them.
  [/(palisade_[a-z_]*=)[^;\s"',]+/gi, `$1${REDACTED}`],
  // Authorization schemes.
  [/\b(Bearer|Basic|Worker|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  // Palisade API tokens (`pal_…`, modules/api-tokens/token-format.ts).
  [/\bpal_[A-Za-z0-9_]{8,}/g, `pal_${REDACTED}`],
  // Values sealed with the SecretBox (`v1.` + base64url).
  [/\bv1\.[A-Za-z0-9_-]{20,}/g, `v1.${REDACTED}`],
  // Secrets in URLs: query parameters and user:password@host.
  [/([?&](?:token|code|secret|password|key|state|id_token_hint|ticket)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
  [/(\/\/[^/\s:@"']+:)[^@\s/"']+@/g, `$1${REDACTED}@`],
];

/** `line` with every known secret shape replaced by `[redacted]`. */
export function scrubSecrets(line: string): string {
  let out = line;
  for (const [pattern, replacement] of SCRUBS) out = out.replace(pattern, replacement);
  return out;
}

/** A fixed-size ring of log lines; `write` makes it a pino destination. */
export class LogRing {
  readonly #lines: string[] = [];
  #next = 0;

  constructor(readonly capacity = LOG_RING_LINES) {}

  write(chunk: string): void {
    for (const raw of chunk.split('\n')) {
      if (raw === '') continue;
      const line = scrubSecrets(raw.length > LOG_LINE_MAX_CHARS ? `${raw.slice(0, LOG_LINE_MAX_CHARS)}…` : raw);
      if (this.#lines.length < this.capacity) this.#lines.push(line);
      else this.#lines[this.#next] = line;
      this.#next = (this.#next + 1) % this.capacity;
    }
  }

  /** The kept lines, oldest first. */
  lines(): string[] {
    if (this.#lines.length < this.capacity) return [...this.#lines];
    return [...this.#lines.slice(this.#next), ...this.#lines.slice(0, this.#next)];
  }
}

/** A destination that writes to `out` unchanged and keeps a scrubbed copy in `ring`. */
export const teeToRing = (out: { write(msg: string): unknown }, ring: LogRing) => ({
  write(msg: string): void {
    out.write(msg);
    ring.write(msg);
  },
});
