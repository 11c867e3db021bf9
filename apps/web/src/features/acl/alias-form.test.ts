import { ApiError } from '@palisade/api-client';
import { type AclAlias, AclAliasBodySchema } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { issuesFromZod } from '@/lib/field-errors';
import { affectedRules, aliasBody, currentAliases, EMPTY_ALIAS, rulesBlockingDeletion } from './alias-form';

const alias = (over: Partial<AclAlias>): AclAlias => ({
  id: 1,
  name: 'a',
  kind: 'destination',
  state: 'applied',
  destinations: ['10.0.0.0/8'],
  ports: [],
  protocols: [],
  rules: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const ALIASES = [
  alias({
    id: 1,
    name: 'web',
    rules: [
      { id: 10, name: 'Dev web' },
      { id: 11, name: 'Admins' },
    ],
  }),
  alias({ id: 2, name: 'db', rules: [{ id: 11, name: 'Admins' }] }),
  alias({ id: 3, parent_id: 1, name: 'web servers', state: 'changed' }),
  alias({ id: 4, parent_id: 2, name: 'db', state: 'changed', ports: ['5432'] }),
];

describe('aliases list', () => {
  it('shows each alias once, its pending version when it has one', () => {
    expect(currentAliases(ALIASES).map((a) => a.id)).toEqual([4, 3]);
    expect(currentAliases([alias({ id: 9, name: 'solo' })]).map((a) => a.id)).toEqual([9]);
  });

  it('lists the deployed rules that deploying changes affects, each once', () => {
    expect(affectedRules(ALIASES, [ALIASES[2] as AclAlias, ALIASES[3] as AclAlias])).toEqual([
      { id: 11, name: 'Admins' },
      { id: 10, name: 'Dev web' },
    ]);
    expect(affectedRules(ALIASES, [ALIASES[3] as AclAlias])).toEqual([{ id: 11, name: 'Admins' }]);
  });

  it('reads the rules of a refused deletion, and nothing from other errors', () => {
    const refusal = new ApiError(409, { code: 'acl.alias_in_use', rules: [{ id: 11, name: 'Admins' }] } as ApiError['problem']);
    expect(rulesBlockingDeletion(refusal)).toEqual([{ id: 11, name: 'Admins' }]);
    expect(rulesBlockingDeletion(new ApiError(404, { code: 'acl.alias_not_found' }))).toBeUndefined();
    expect(rulesBlockingDeletion(new Error('x'))).toBeUndefined();
  });
});

describe('alias form validation (the API schema)', () => {
  const check = (values: typeof EMPTY_ALIAS) => {
    const result = AclAliasBodySchema.safeParse(aliasBody(values));
    return result.success ? {} : issuesFromZod(result.error);
  };
  it('needs a name and something to select; checks each destination and port', () => {
    expect(check(EMPTY_ALIAS).name?.code).toBe('required');
    expect(check({ ...EMPTY_ALIAS, name: 'x' }).destinations?.code).toBe('acl.alias_empty');
    const bad = check({ ...EMPTY_ALIAS, name: 'x', destinations: ['10.0.0.0/33'], ports: ['0'] });
    expect(bad['destinations.0']?.code).toBe('acl.destination');
    expect(bad['ports.0']?.code).toBe('acl.port');
    expect(check({ ...EMPTY_ALIAS, name: 'dns', kind: 'component', ports: ['53'], protocols: ['udp'] })).toEqual({});
  });
});
