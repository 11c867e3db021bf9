import { describe, expect, it } from 'vitest';
import { LogRing, scrubSecrets, teeToRing } from './log-ring.js';

describe('log ring', () => {
  it('keeps the last lines in order and drops the oldest', () => {
    const ring = new LogRing(3);
    ring.write('a\nb\n');
    ring.write('c\n');
    ring.write('d\n');
    expect(ring.lines()).toEqual(['b', 'c', 'd']);
  });

  it('tees every line to the destination unchanged', () => {
    const out: string[] = [];
    const ring = new LogRing();
    teeToRing({ write: (m: string) => out.push(m) }, ring).write('{"msg":"x","password":"hunter2-Secret"}\n');
    expect(out).toEqual(['{"msg":"x","password":"hunter2-Secret"}\n']);
    expect(ring.lines()).toEqual(['{"msg":"x","password":"[redacted]"}']);
  });

  it.each([
    ['{"req":{"headers":{"cookie":"palisade_session=abcdefghijk"}}}', 'abcdefghijk'],
    ['set-cookie: palisade_session=Zm9vYmFyYmF6cXV4; Path=/', 'Zm9vYmFyYmF6cXV4'],
    ['Authorization: Bearer pal_12345678_abcdefghijklmnop', 'abcdefghijklmnop'],
    ['token pal_AbCdEf12_zzzzzzzzzzzzzzzzzzzzz in a message', 'zzzzzzzzzzzzzzzzzzzzz'],
    ['{"url":"/api/v1/enrollment/start?token=Sup3rSecretTok&x=1"}', 'Sup3rSecretTok'],
    ['{"client_secret":"cs-\\"quoted\\"-value"}', 'quoted'],
    ['sealed v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAA stored', 'AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['ldap://binder:Pa55word@ldap.example.com', 'Pa55word'],
  ])('scrubs %s', (line, secret) => {
    expect(scrubSecrets(line)).not.toContain(secret);
    expect(scrubSecrets(line)).toContain('[redacted]');
  });
});
