import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signedHeaders, signingKey, webhookMessageId } from './webhook-signature.js';

const body = JSON.stringify({ id: 7, type: 'user.created', timestamp: '2026-11-24T10:00:00.000Z', data: {} });

describe('webhook signatures', () => {
  it('a whsec_ token verifies with the standardwebhooks library as given', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const headers = signedHeaders(signingKey(secret), webhookMessageId(7), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('any other token verifies in raw format', () => {
    const token = 'my shared secret';
    const headers = signedHeaders(signingKey(token), webhookMessageId(7), body);
    expect(new Webhook(token, { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook('another secret', { format: 'raw' }).verify(body, headers)).toThrow();
  });

  it('a non-ASCII token signs with its UTF-8 bytes (the library takes them as a Uint8Array)', () => {
    const token = 'zażółć-시크릿';
    const headers = signedHeaders(signingKey(token), webhookMessageId(7), body);
    expect(new Webhook(new TextEncoder().encode(token), { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('a changed body fails verification', () => {
    const headers = signedHeaders(signingKey('s3cret'), webhookMessageId(7), body);
    expect(() => new Webhook('s3cret', { format: 'raw' }).verify(`${body} `, headers)).toThrow();
  });

  it('webhook-id is stable per event', () => {
    const a = signedHeaders(signingKey('k'), webhookMessageId(42), body, new Date(1_000_000));
    const b = signedHeaders(signingKey('k'), webhookMessageId(42), body, new Date(2_000_000));
    expect(a['webhook-id']).toBe('msg_42');
    expect(b['webhook-id']).toBe('msg_42');
    expect(a['webhook-timestamp']).toBe('1000');
  });
});
