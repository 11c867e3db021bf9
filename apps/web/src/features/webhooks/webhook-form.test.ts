import { WEBHOOK_TRIGGERS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { isMessageKey } from '@/i18n/translate';
import { EMPTY_WEBHOOK, generateWebhookToken, triggerLabelKey, validateWebhookForm, type WebhookFormValues } from './webhook-form';

const valid: WebhookFormValues = {
  url: 'https://hooks.example.com/palisade',
  description: 'CRM sync',
  token: 'whsec_abc',
  triggers: ['user.created'],
  enabled: true,
};

const codes = (values: WebhookFormValues, isNew: boolean) =>
  Object.fromEntries(Object.entries(validateWebhookForm(values, isNew).errors ?? {}).map(([path, issue]) => [path, issue.code]));

describe('webhook form validation (spec §5)', () => {
  it('asks for a URL, a trigger and a token on an empty new webhook', () => {
    expect(codes(EMPTY_WEBHOOK, true)).toEqual({ url: 'required', triggers: 'webhook.trigger_required', token: 'required' });
  });

  it('refuses URLs that are not http(s) or carry credentials', () => {
    for (const url of ['javascript:alert(1)', 'ftp://example.com/x', 'file:///etc/passwd', 'hooks.example.com', 'https://'])
      expect(codes({ ...valid, url }, true), url).toEqual({ url: 'url.invalid' });
    expect(codes({ ...valid, url: 'https://user:secret@hooks.example.com/' }, true)).toEqual({ url: 'url.credentials' });
  });

  it('accepts a complete webhook and sends the triggers in catalogue order', () => {
    const result = validateWebhookForm({ ...valid, triggers: ['user.deleted', 'user.created'] }, true);
    expect(result.errors).toBeUndefined();
    expect(result.body).toMatchObject({ url: valid.url, token: 'whsec_abc', triggers: ['user.created', 'user.deleted'], enabled: true });
  });

  it('on edit, an empty token keeps the stored one (left out of the body) and a new one replaces it', () => {
    const kept = validateWebhookForm({ ...valid, token: '' }, false);
    expect(kept.errors).toBeUndefined();
    expect(kept.body).not.toHaveProperty('token');
    expect(validateWebhookForm({ ...valid, token: 'whsec_new' }, false).body).toHaveProperty('token', 'whsec_new');
  });

  it('still requires a trigger on edit', () => {
    expect(codes({ ...valid, token: '', triggers: [] }, false)).toEqual({ triggers: 'webhook.trigger_required' });
  });

  it('labels every trigger of the event catalogue', () => {
    for (const trigger of WEBHOOK_TRIGGERS) expect(isMessageKey(triggerLabelKey(trigger)), trigger).toBe(true);
  });
});

describe('webhook token generator', () => {
  it('makes a Standard Webhooks secret: whsec_ and 32 random bytes in base64', () => {
    const token = generateWebhookToken();
    expect(token).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const bytes = Uint8Array.from(atob(token.slice('whsec_'.length)), (c) => c.charCodeAt(0));
    expect(bytes).toHaveLength(32);
  });

  it('draws from the random source, so two tokens differ', () => {
    expect(generateWebhookToken((b) => b.fill(0xff))).toBe(`whsec_${'/'.repeat(42)}8=`);
    expect(generateWebhookToken()).not.toBe(generateWebhookToken());
  });
});
