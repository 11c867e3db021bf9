import { createHmac } from 'node:crypto';
import { APP_VERSION } from '#src/lib/route-schemas.js';

export const WEBHOOK_USER_AGENT = `Palisade-Webhooks/${APP_VERSION}`;

/**
 * The HMAC key of a webhook token (docs/webhooks.md): a Standard Webhooks secret
 * (`whsec_<base64>`, what the `standardwebhooks` libraries take) signs with its decoded bytes;
 * any other token signs with its own UTF-8 bytes (receivers verify with `{ format: 'raw' }`).
 */
export function signingKey(token: string): Buffer {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(token);
  if (m?.[1]) {
    const bytes = Buffer.from(m[1], 'base64');
    if (bytes.length > 0) return bytes;
  }
  return Buffer.from(token, 'utf8');
}

/** The `webhook-id` of an event: the same on every attempt and redelivery, so receivers can drop duplicates. */
export const webhookMessageId = (eventId: number): string => `msg_${eventId}`;

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signedHeaders(key: Buffer, messageId: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
