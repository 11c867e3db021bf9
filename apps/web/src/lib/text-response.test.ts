import { ApiError } from '@palisade/api-client';
import { describe, expect, it } from 'vitest';
import { unwrapText } from './text-response';

const res = (status: number) => new Response(null, { status });

describe('unwrapText', () => {
  it('returns the text of a 2xx answer', async () => {
    await expect(unwrapText(Promise.resolve({ data: '[Interface]', response: res(200) }))).resolves.toBe('[Interface]');
  });
  it('turns a problem+json text back into an ApiError with its code', async () => {
    const error = JSON.stringify({ code: 'device.config_disabled', title: 'Forbidden' });
    await expect(unwrapText(Promise.resolve({ error, response: res(403) }))).rejects.toMatchObject({
      status: 403,
      code: 'device.config_disabled',
    });
  });
  it('falls back to a status-based problem for other bodies', async () => {
    const failure = unwrapText(Promise.resolve({ error: 'oops', response: res(500) }));
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'internal' });
  });
});
