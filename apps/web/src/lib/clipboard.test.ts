import { describe, expect, it, vi } from 'vitest';
import { en } from '@/i18n/en';
import { COPY_MESSAGES, copyText } from './clipboard';

describe('copyText', () => {
  it('refuses in an insecure context without touching the clipboard', async () => {
    const writeText = vi.fn();
    expect(await copyText('x', { isSecureContext: false, clipboard: { writeText } })).toBe('insecure');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('reports a missing or refusing clipboard as unavailable', async () => {
    expect(await copyText('x', { isSecureContext: true, clipboard: undefined })).toBe('unavailable');
    const writeText = vi.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    expect(await copyText('x', { isSecureContext: true, clipboard: { writeText } })).toBe('unavailable');
  });

  it('copies in a secure context', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    expect(await copyText('secret', { isSecureContext: true, clipboard: { writeText } })).toBe('copied');
    expect(writeText).toHaveBeenCalledWith('secret');
  });

  it('maps the failures to the spec §8 wording', () => {
    expect(en[COPY_MESSAGES.insecure]).toBe('Context is not secure.');
    expect(en[COPY_MESSAGES.unavailable]).toBe('Clipboard is not accessible.');
    expect(en['error.token.generation_failed']).toBe('Token generation failed.');
    expect(en['error.deviceConfig']).toBe('Failed to get device config.');
  });
});
