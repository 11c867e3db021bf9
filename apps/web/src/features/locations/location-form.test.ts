import { NetworkBodySchema } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { translate } from '@/i18n/translate';
import { fieldMessage, issuesFromZod } from '@/lib/field-errors';
import { EMPTY_LOCATION, listError, valuesToBody } from './location-form';

describe('location form', () => {
  it('turns the form into a NetworkBody the API schema accepts', () => {
    const body = valuesToBody({
      ...EMPTY_LOCATION,
      name: 'Office',
      address: ['10.1.0.1/24'],
      endpoint: 'vpn.example.com',
      dns: ['1.1.1.1'],
    });
    const parsed = NetworkBodySchema.parse(body);
    expect(parsed).toMatchObject({ port: 51820, keepalive_interval: 25, peer_disconnect_threshold: 300, address: ['10.1.0.1/24'] });
  });

  it('flags empty numbers, bad list entries and a missing address', () => {
    const body = valuesToBody({ ...EMPTY_LOCATION, name: 'X', endpoint: 'bad host!', port: '', dns: ['ok.example', 'not valid'] });
    const result = NetworkBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    const issues = result.success ? {} : issuesFromZod(result.error);
    expect(issues.port?.code).toBe('number');
    expect(issues.endpoint?.code).toBe('network.endpoint');
    expect(listError(issues, 'address')?.code).toBe('required');
    expect(listError(issues, 'dns')?.code).toBe('network.dns');
  });

  it('numbers out of range name their bound (spec §5 minimum and maximum value)', () => {
    const body = valuesToBody({ ...EMPTY_LOCATION, keepalive_interval: '-1', peer_disconnect_threshold: '30' });
    const result = NetworkBodySchema.safeParse(body);
    const issues = result.success ? {} : issuesFromZod(result.error);
    const en = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate('en', key, params);
    expect(fieldMessage(en, issues.keepalive_interval ?? { code: '' })).toBe('Minimum value is 0');
    expect(fieldMessage(en, issues.peer_disconnect_threshold ?? { code: '' })).toBe('Minimum value is 60');
    const high = NetworkBodySchema.safeParse(valuesToBody({ ...EMPTY_LOCATION, keepalive_interval: '70000' }));
    const highIssues = high.success ? {} : issuesFromZod(high.error);
    expect(fieldMessage(en, highIssues.keepalive_interval ?? { code: '' })).toBe('Maximum value is 65535');
    const pl = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate('pl', key, params);
    expect(fieldMessage(pl, issues.peer_disconnect_threshold ?? { code: '' })).toContain('60');
  });
});
