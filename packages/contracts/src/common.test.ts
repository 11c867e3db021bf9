import { describe, expect, it } from 'vitest';
import { PageQuerySchema } from './common.js';
import { UpdateSettingsBodySchema } from './settings.js';

describe('PageQuerySchema', () => {
  it('reads decimal page numbers and applies defaults', () => {
    expect(PageQuerySchema.parse({})).toEqual({ page: 1, per_page: 50 });
    expect(PageQuerySchema.parse({ page: '3', per_page: '20' })).toMatchObject({ page: 3, per_page: 20 });
    expect(PageQuerySchema.parse({ page: 2 })).toMatchObject({ page: 2 });
  });
  it.each(['0x10', '1e3', ' 7', '-1', '1.5', 'ten', ''])('refuses page %j', (page) => {
    expect(PageQuerySchema.safeParse({ page }).success).toBe(false);
  });
  it('refuses out-of-range values', () => {
    expect(PageQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(PageQuerySchema.safeParse({ per_page: '201' }).success).toBe(false);
  });
});

describe('logo URLs', () => {
  const body = (main_logo_url: string) => ({
    instance_name: 'P',
    main_logo_url,
    nav_logo_url: '',
    wireguard_enabled: true,
    webhooks_enabled: true,
    worker_enabled: true,
    openid_enabled: true,
  });
  it.each(['', '/logo.svg', 'https://cdn.example.com/l.png'])('accepts %j', (url) => {
    expect(UpdateSettingsBodySchema.safeParse(body(url)).success).toBe(true);
  });
  it.each(['//evil.example/l.png', 'javascript:alert(1)', 'https:///x', 'ftp://x/y'])('refuses %j', (url) => {
    expect(UpdateSettingsBodySchema.safeParse(body(url)).success).toBe(false);
  });
});
