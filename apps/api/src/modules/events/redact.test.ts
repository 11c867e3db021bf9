import { describe, expect, it } from 'vitest';
import { REDACTED, redactDetails } from './redact.js';

describe('redactDetails', () => {
  it('replaces secret-looking keys at any depth and keeps the rest', () => {
    const out = redactDetails({
      username: 'alice',
      password: 'hunter2',
      nested: { new_password: 'x', token: 't', client_secret: 's', private_key: 'k', pubkey: 'P', public_key: 'Q', items: [{ secret: 1 }] },
      fields: ['email', 'phone'],
    });
    expect(out).toEqual({
      username: 'alice',
      password: REDACTED,
      nested: {
        new_password: REDACTED,
        token: REDACTED,
        client_secret: REDACTED,
        private_key: REDACTED,
        pubkey: 'P',
        public_key: 'Q',
        items: [{ secret: REDACTED }],
      },
      fields: ['email', 'phone'],
    });
  });

  it('cuts long strings', () => {
    expect((redactDetails({ note: 'a'.repeat(5000) }) as { note: string }).note.length).toBe(2049);
  });
});
