import { describe, expect, it } from 'vitest';
import { usernameFromClaims } from './username.js';

describe('usernameFromClaims', () => {
  it('remove drops the characters a username cannot hold, and leading digits', () => {
    expect(usernameFromClaims({ preferred_username: '42 Zoë O’Neil' }, 'remove')).toBe('ZoONeil');
    expect(usernameFromClaims({ email: 'a.b@corp.example' }, 'remove')).toBe('a.bcorp.example');
  });

  it('replace puts _ in their place', () => {
    expect(usernameFromClaims({ preferred_username: 'zoë o neil' }, 'replace')).toBe('zo__o_neil');
    expect(usernameFromClaims({ email: 'a.b@corp.example' }, 'replace')).toBe('a.b_corp.example');
  });

  it('prune_email takes the part before @, from preferred_username when there is no email', () => {
    expect(usernameFromClaims({ preferred_username: 'ignored', email: 'jane.doe+vpn@corp.example' }, 'prune_email')).toBe('jane.doevpn');
    expect(usernameFromClaims({ preferred_username: 'jane@corp.example' }, 'prune_email')).toBe('jane');
  });

  it('gives nothing when nothing valid is left, and cuts to 64 characters', () => {
    expect(usernameFromClaims({ preferred_username: '1234 ☃' }, 'remove')).toBeUndefined();
    expect(usernameFromClaims({}, 'replace')).toBeUndefined();
    expect(usernameFromClaims({ preferred_username: 'x'.repeat(80) }, 'remove')).toHaveLength(64);
  });
});
