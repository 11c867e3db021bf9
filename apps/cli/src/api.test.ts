import { afterEach, describe, expect, it } from 'vitest';
import { redeemToken, redeemUrl } from './api.js';
import { type FakeServer, fakeServer, freePort, TUNNEL } from './fakes.test-support.js';

describe('redeemToken', () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('posts the token and public key under the base path and returns the answer', async () => {
    server = await fakeServer(() => ({ status: 201, body: JSON.stringify({ device: { id: 7, name: 'edge' }, tunnel: TUNNEL }) }));
    const answer = await redeemToken(new URL(`${server.url}/palisade`), 'tok', 'PUB');
    expect(answer.device).toEqual({ id: 7, name: 'edge' });
    expect(server.requests).toEqual([
      {
        method: 'POST',
        url: '/palisade/api/v1/enrollment/client/network_device',
        body: JSON.stringify({ token: 'tok', wireguard_pubkey: 'PUB' }),
      },
    ]);
    expect(redeemUrl(new URL('https://vpn.example.com')).href).toBe('https://vpn.example.com/api/v1/enrollment/client/network_device');
  });

  it('explains a spent, expired or unknown token', async () => {
    server = await fakeServer(() => ({ status: 400, body: JSON.stringify({ code: 'client_token.invalid', detail: 'x' }) }));
    await expect(redeemToken(new URL(server.url), 'tok', 'PUB')).rejects.toThrow(/unknown, already used or expired.*new one/);
  });

  it('passes on other problems with their detail and code', async () => {
    server = await fakeServer(() => ({ status: 400, body: JSON.stringify({ code: 'validation.failed', detail: 'Bad key' }) }));
    await expect(redeemToken(new URL(server.url), 'tok', 'PUB')).rejects.toThrow(
      'Palisade refused the enrollment: Bad key (validation.failed).',
    );
  });

  it('says when the URL is not a Palisade server', async () => {
    server = await fakeServer(() => ({ status: 404, body: '<html>Not found</html>' }));
    await expect(redeemToken(new URL(server.url), 'tok', 'PUB')).rejects.toThrow(/HTTP 404 without a Palisade answer: is --url/);
  });

  it('says when nothing answers at the URL', async () => {
    const port = await freePort();
    await expect(redeemToken(new URL(`http://127.0.0.1:${port}`), 'tok', 'PUB')).rejects.toThrow(
      `Cannot reach Palisade at http://127.0.0.1:${port} (ECONNREFUSED). Check --url.`,
    );
  });
});
