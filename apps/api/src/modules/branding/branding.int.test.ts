import { LOGO_MAX_BYTES } from '@palisade/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';

/** A real image made here: `width`×`height` of one colour. */
const raster = (format: 'png' | 'webp', width: number, height: number, red = 200) =>
  sharp({ create: { width, height, channels: 4, background: { r: red, g: 40, b: 90, alpha: 1 } } })
    [format]()
    .toBuffer();

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64');

describe('branding: logo uploads and default branding', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await t.newUser(admin, 'alice');
    user = await t.login('alice', USER_PASSWORD);
  });
  afterAll(() => t.close());

  const upload = (kind: string, data: Buffer | string, cookie = admin) =>
    t.request('PUT', `/api/v1/settings/logo/${kind}`, { cookie, payload: { data: b64(data) } });

  it('stores a decoded PNG, points the setting at it and serves it with a strict CSP', async () => {
    const png = await raster('png', 250, 100);
    const res = await upload('main', png);
    expect(res.statusCode).toBe(200);
    const url: string = res.json().main_logo_url;
    expect(url).toMatch(/^\/api\/v1\/branding\/logo\/main\/[0-9a-f]{16}\.png$/);
    // Public: the login page shows it before anyone signs in.
    expect((await t.request('GET', '/api/v1/settings_essentials')).json().main_logo_url).toBe(url);
    const served = await t.request('GET', url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(png)).toBe(true);
    // A new upload is a new URL; the old one is gone.
    const next = await upload('main', await raster('png', 10, 10, 10));
    expect(next.json().main_logo_url).not.toBe(url);
    expect((await t.request('GET', url)).statusCode).toBe(404);
    expect(problemOf(await t.request('GET', url)).code).toBe('logo.not_found');
  });

  it('takes a WebP nav logo up to 100×100 and refuses one pixel more, naming the limit', async () => {
    const ok = await upload('nav', await raster('webp', 100, 100));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().nav_logo_url).toMatch(/\.webp$/);
    expect((await t.request('GET', ok.json().nav_logo_url)).headers['content-type']).toBe('image/webp');

    const wide = await upload('nav', await raster('webp', 101, 100));
    expect(wide.statusCode).toBe(400);
    expect(problemOf(wide).code).toBe('logo.too_many_pixels');
    expect(problemOf(wide).body.detail).toContain('100×100');
    // The login logo may be wider: 250×100, not 251.
    expect((await upload('main', await raster('png', 250, 100))).statusCode).toBe(200);
    const main = await upload('main', await raster('png', 251, 100));
    expect(problemOf(main).code).toBe('logo.too_many_pixels');
    expect(problemOf(main).body.detail).toContain('250×100');
    // Nothing changed by the refusals.
    expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json().nav_logo_url).toBe(ok.json().nav_logo_url);
  });

  it('refuses a file over the byte limit, a wrong type and an undecodable image', async () => {
    const big = Buffer.concat([await raster('png', 10, 10), Buffer.alloc(LOGO_MAX_BYTES)]);
    const tooBig = await upload('main', big);
    expect(tooBig.statusCode).toBe(413);
    expect(problemOf(tooBig).code).toBe('logo.too_large');
    expect(problemOf(tooBig).body.detail).toContain(String(LOGO_MAX_BYTES));

    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const wrongType = await upload('main', gif);
    expect(wrongType.statusCode).toBe(415);
    expect(problemOf(wrongType).code).toBe('logo.unsupported_type');
    const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    expect(problemOf(await upload('main', jpeg)).code).toBe('logo.unsupported_type');

    // A PNG signature with a cut-off body, and a header claiming a size the data does not hold.
    const png = await raster('png', 50, 50);
    const truncated = await upload('main', png.subarray(0, 40));
    expect(truncated.statusCode).toBe(400);
    expect(problemOf(truncated).code).toBe('logo.undecodable');
    const corrupt = Buffer.from(png);
    corrupt.fill(0x41, 60, png.length - 20);
    expect(problemOf(await upload('main', corrupt)).code).toBe('logo.undecodable');
    // An SVG without any size.
    expect(problemOf(await upload('nav', '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')).code).toBe('logo.undecodable');
    // Not base64 at all: a field error, not a 500.
    const garbage = await t.request('PUT', '/api/v1/settings/logo/main', { cookie: admin, payload: { data: '%%%' } });
    expect(garbage.statusCode).toBe(400);
    expect(problemOf(garbage).code).toBe('validation.failed');
    expect((await t.request('PUT', '/api/v1/settings/logo/side', { cookie: admin, payload: { data: 'AA==' } })).statusCode).toBe(400);
  });

  it('sanitises an SVG: no script, event handler, javascript: link or external reference comes back', async () => {
    const svg = [
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="80" onload="alert(1)">',
      '<script>alert(2)</script>',
      '<a href="javascript:alert(3)" xlink:href="javascript:alert(4)"><rect width="10" height="10" onclick="alert(5)"/></a>',
      '<image href="https://evil.example/track.png" width="5" height="5"/>',
      '<image xlink:href="//evil.example/x.png"/>',
      '<rect style="fill:url(https://evil.example/f)" width="3" height="3"/>',
      '<linearGradient id="g"/><rect fill="url(#g)" width="4" height="4"/>',
      '<foreignObject><iframe src="https://evil.example/"></iframe></foreignObject>',
      '</svg>',
    ].join('');
    const res = await upload('main', svg);
    expect(res.statusCode).toBe(200);
    const url: string = res.json().main_logo_url;
    expect(url).toMatch(/\.svg$/);
    const served = await t.request('GET', url);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const body = served.body;
    for (const bad of ['<script', 'alert', 'onload', 'onclick', 'javascript:', 'evil.example', 'foreignObject', 'iframe'])
      expect(body, bad).not.toContain(bad);
    // What is harmless stays: the shapes and a reference inside the file.
    expect(body).toContain('<rect');
    expect(body).toContain('fill="url(#g)"');
    expect(body).toMatch(/^<svg[^>]*width="200"/);
  });

  it('sizes an SVG from its viewBox and refuses one over the limit', async () => {
    const svg = (box: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box}"><circle r="5"/></svg>`;
    expect((await upload('nav', svg('0 0 100 100'))).statusCode).toBe(200);
    const over = await upload('nav', svg('0 0 100 120'));
    expect(over.statusCode).toBe(400);
    expect(problemOf(over).code).toBe('logo.too_many_pixels');
  });

  it('PUT /settings/{id} restores the default branding and deletes the uploaded logos', async () => {
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { instance_name: 'Acme', webhooks_enabled: false } });
    const main = (await upload('main', await raster('png', 20, 20))).json().main_logo_url;
    await upload('nav', await raster('webp', 20, 20));
    const res = await t.request('PUT', '/api/v1/settings/1', { cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ instance_name: 'Palisade', main_logo_url: '', nav_logo_url: '', webhooks_enabled: false });
    expect((await t.request('GET', '/api/v1/settings_essentials')).json()).toMatchObject({ instance_name: 'Palisade', main_logo_url: '' });
    expect((await t.request('GET', main)).statusCode).toBe(404);
    // The settings are one row, id 1: any other id is not found.
    const other = await t.request('PUT', '/api/v1/settings/2', { cookie: admin });
    expect(other.statusCode).toBe(404);
    expect(problemOf(other).code).toBe('settings.not_found');
  });

  it('leaves uploads and the restore to admins', async () => {
    expect((await upload('main', await raster('png', 5, 5), user)).statusCode).toBe(403);
    expect((await t.request('PUT', '/api/v1/settings/1', { cookie: user })).statusCode).toBe(403);
    expect((await t.request('PUT', '/api/v1/settings/1')).statusCode).toBe(401);
  });

  it('records who changed the branding in the activity log', async () => {
    await upload('nav', await raster('png', 30, 30));
    await t.request('PUT', '/api/v1/settings/1', { cookie: admin });
    const log = await t.request('GET', '/api/v1/activity_log?event=settings.modified', { cookie: admin });
    const keys = log.json().items.map((e: { details: { keys: string[] } }) => e.details.keys);
    // The upload and the restore, each naming the one setting it changed.
    expect(keys).toEqual([['nav_logo_url'], ['nav_logo_url']]);
  });
});
