import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSH_ED25519, SSH_RSA_2048 } from '#src/modules/auth-keys/auth-key-fixtures.test-support.js';
import { createTestApp, type HttpMethod, snapshot, type TestApp, userBody } from '#test/helpers.js';

/**
 * Property-based bad input: for each route with a body, query or params (identity, locations,
 * devices, network devices, enterprise settings), generated malformed or invalid requests (sent
 * as admin) must always get a 4xx problem+json with a `code`, never a 5xx, and must write nothing
 * (every table that holds their data is compared before and after).
 * Every generator produces input that is invalid by construction.
 */

type FieldKind = 'string' | 'boolean' | 'array' | 'number';
interface Field {
  kind: FieldKind;
  /** Maximum length of the string (or of each element of an array of strings). */
  max: number;
  /** Restricted to ASCII by a pattern: any non-ASCII character makes it invalid. */
  ascii?: boolean;
  required?: boolean;
  /** Smallest valid value of a number field. */
  min?: number;
  /** Array elements are free text the route answers about (not refuses), e.g. IPs to check. */
  freeElements?: boolean;
}
/** Ids of objects made in beforeAll; routes name them as `{loc}`, `{dev}`, `{ndev}`. */
interface Fixtures {
  loc: number;
  dev: number;
  ndev: number;
  devKey: string;
  ndevIp: string;
  /** An activity-log stream destination. */
  stream: number;
  webhook: number;
  /** An OpenID app's client ID. */
  oauth: string;
  /** An authentication key of FUZZEE. */
  authKey: number;
}
interface BodyRoute {
  method: HttpMethod;
  url: string;
  base: Record<string, unknown> | ((f: Fixtures) => Record<string, unknown>);
  fields: Record<string, Field>;
}
type ResolvedRoute = BodyRoute & { base: Record<string, unknown> };

const fillTokens = (url: string, f: Fixtures) =>
  url
    .replace('{loc}', String(f.loc))
    .replace('{dev}', String(f.dev))
    .replace('{ndev}', String(f.ndev))
    .replace('{stream}', String(f.stream))
    .replace('{webhook}', String(f.webhook))
    .replace('{oauth}', f.oauth)
    .replace('{authKey}', String(f.authKey));
const resolveRoute = (route: BodyRoute, f: Fixtures): ResolvedRoute => ({
  ...route,
  url: fillTokens(route.url, f),
  base: typeof route.base === 'function' ? route.base(f) : route.base,
});

const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const FUZZEE = 'fuzzee';
const FUZZ_GROUP = 'fuzzgroup';

const str = (max: number, extra: Partial<Field> = {}): Field => ({ kind: 'string', max, required: true, ...extra });
const bool = (required = true): Field => ({ kind: 'boolean', max: 0, required });
const list = (max: number, required = false): Field => ({ kind: 'array', max, required });
const num = (min: number, max: number, required = true): Field => ({ kind: 'number', min, max, required });

const FUZZ_KEY_1 = 'FuzzKeyOneFuzzKeyOneFuzzKeyOneFuzzKeyOne0AA=';
const FUZZ_KEY_2 = 'FuzzKeyTwoFuzzKeyTwoFuzzKeyTwoFuzzKeyTwo0AA=';
const FUZZ_SERVER_CONFIG = `[Interface]\nPrivateKey = ${FUZZ_KEY_1}\nAddress = 10.78.0.1/24\nListenPort = 51820\n`;
const NETWORK_FIELDS = {
  name: str(64),
  address: list(64, true),
  endpoint: str(253, { ascii: true }),
  port: num(1, 65535),
  dns: list(253),
  allowed_ips: list(253),
  allowed_groups: list(64),
  mfa_enabled: bool(false),
  keepalive_interval: num(0, 65535, false),
  peer_disconnect_threshold: num(60, 604800, false),
  acl_enabled: bool(false),
  acl_default_allow: bool(false),
};
const networkBase = (name: string) => ({
  name,
  address: ['10.77.0.1/24'],
  endpoint: 'vpn.fuzz.example',
  port: 51820,
  dns: ['10.77.0.1'],
  allowed_ips: ['10.77.0.0/24'],
  allowed_groups: [FUZZ_GROUP],
});

const SETTINGS_BASE = {
  instance_name: 'Fuzz',
  main_logo_url: '',
  nav_logo_url: '',
  wireguard_enabled: true,
  webhooks_enabled: true,
  worker_enabled: true,
  openid_enabled: true,
};
const SETTINGS_FIELDS = {
  instance_name: str(64),
  main_logo_url: str(2048),
  nav_logo_url: str(2048),
  wireguard_enabled: bool(),
  webhooks_enabled: bool(),
  worker_enabled: bool(),
  openid_enabled: bool(),
};
const PERSON_FIELDS = {
  username: str(64, { ascii: true }),
  first_name: str(128),
  last_name: str(128),
  email: str(254, { ascii: true }),
  phone: str(32, { ascii: true, required: false }),
};

const STREAM_BASE = { kind: 'vector_http', name: 'fuzzstream', url: 'http://127.0.0.1:9/ingest', username: 'u', password: 'p' };
const STREAM_FIELDS = {
  kind: str(32),
  name: str(128),
  url: str(2048),
  username: str(128, { required: false }),
  password: str(1024, { required: false }),
  certificate: str(65_536, { required: false }),
};

const WEBHOOK_BASE = { url: 'http://127.0.0.1:9/hook', token: 'fuzz-token', triggers: ['user.created'] };
const WEBHOOK_FIELDS = {
  url: str(2048),
  description: str(256, { required: false }),
  token: str(256),
  triggers: list(64, true),
  enabled: bool(false),
};
/** SMTP settings (PATCH /settings; each optional). */
const SMTP_FIELDS = {
  smtp_server: str(253, { required: false }),
  smtp_port: num(1, 65535, false),
  smtp_encryption: str(16, { required: false }),
  smtp_user: str(255, { required: false }),
  smtp_password: str(255, { required: false }),
  smtp_sender: str(254, { ascii: true, required: false }),
};

const OAUTH_BASE = { name: 'fuzzapp', redirect_uris: ['https://fuzz.example.com/cb'], scopes: ['openid'] };
const OAUTH_UPDATE_FIELDS = { name: str(128), redirect_uris: list(2048, true), scopes: list(16, true), public: bool(false) };
const OAUTH_FIELDS = { ...OAUTH_UPDATE_FIELDS, enabled: bool(false) };

const ACL_RULE_FIELDS = {
  name: str(128),
  priority: num(0, 65535, false),
  enabled: bool(false),
  all_locations: bool(false),
  allow_all_users: bool(false),
  allowed_users: list(64),
  allowed_groups: list(64),
  allow_all_network_devices: bool(false),
  deny_all_users: bool(false),
  denied_users: list(64),
  denied_groups: list(64),
  deny_all_network_devices: bool(false),
  destinations: list(100),
  ports: list(20),
  protocols: list(8),
};
const aclRuleBase = (f: Fixtures) => ({
  name: 'fuzzrule',
  locations: [f.loc],
  allowed_users: [FUZZEE],
  allowed_groups: [FUZZ_GROUP],
  destinations: ['10.77.0.0/24', 'fd00::1-fd00::9'],
  ports: ['443', '8000-8100'],
  protocols: ['tcp'],
});
const ACL_ALIAS_BASE = { name: 'fuzzalias', kind: 'destination', destinations: ['10.77.0.5'], ports: ['53'], protocols: ['udp'] };
const ACL_ALIAS_FIELDS = { name: str(128), kind: str(16), destinations: list(100), ports: list(20), protocols: list(8) };

/** An update keeps the token when it is left out. */
const WEBHOOK_UPDATE_FIELDS = { ...WEBHOOK_FIELDS, token: str(256, { required: false }) };

const BODY_ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    url: '/api/v1/auth',
    base: { username: 'admin', password: 'not-the-password' },
    fields: { username: str(254), password: str(1024) },
  },
  { method: 'PUT', url: '/api/v1/settings', base: SETTINGS_BASE, fields: SETTINGS_FIELDS },
  {
    method: 'PATCH',
    url: '/api/v1/settings',
    base: SETTINGS_BASE,
    fields: Object.fromEntries(Object.entries(SETTINGS_FIELDS).map(([k, f]) => [k, { ...f, required: false }])),
  },
  { method: 'PATCH', url: '/api/v1/settings', base: { smtp_server: 'smtp.fuzz.example', smtp_port: 587 }, fields: SMTP_FIELDS },
  {
    // A logo upload: base64 only (any other character is invalid); bytes that are no PNG, WebP or
    // SVG are a 415. The schema allows ~700,000 characters, more than the longest generated string.
    method: 'PUT',
    url: '/api/v1/settings/logo/nav',
    base: { data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' },
    fields: { data: str(299_000, { ascii: true }) },
  },
  {
    method: 'POST',
    url: '/api/v1/mail/test',
    base: { to: 'fuzz@example.com' },
    fields: { to: str(254, { ascii: true }), locale: str(8, { required: false }) },
  },
  {
    method: 'POST',
    url: '/api/v1/user',
    base: userBody('fuzzcreated', { phone: '+1 555 0100' }),
    fields: { ...PERSON_FIELDS, password: str(128, { required: false }) },
  },
  { method: 'POST', url: '/api/v1/user/available', base: { username: 'freename' }, fields: { username: str(64, { ascii: true }) } },
  {
    method: 'PUT',
    url: '/api/v1/user/change_password',
    base: { old_password: 'Wrong-old-1!', new_password: 'Fuzz-new-1!' },
    fields: { old_password: str(1024), new_password: str(128) },
  },
  {
    method: 'PUT',
    url: `/api/v1/user/${FUZZEE}`,
    base: { username: FUZZEE, first_name: 'Fuzz', last_name: 'Ee', email: `${FUZZEE}@example.com`, is_active: true, groups: [FUZZ_GROUP] },
    fields: { ...PERSON_FIELDS, is_active: bool(false), groups: list(64) },
  },
  { method: 'PUT', url: `/api/v1/user/${FUZZEE}/password`, base: { new_password: 'Fuzz-new-1!' }, fields: { new_password: str(128) } },
  {
    method: 'POST',
    url: '/api/v1/group',
    base: { name: 'fuzznew', members: [FUZZEE], is_admin: false },
    fields: { name: str(64, { ascii: true }), members: list(64), is_admin: bool(false) },
  },
  {
    method: 'PUT',
    url: `/api/v1/group/${FUZZ_GROUP}`,
    base: { name: FUZZ_GROUP, members: [FUZZEE], is_admin: false },
    fields: { name: str(64, { ascii: true }), members: list(64), is_admin: bool(false) },
  },
  {
    method: 'POST',
    url: '/api/v1/groups-assign',
    base: { groups: [FUZZ_GROUP], users: [FUZZEE] },
    fields: { groups: list(64, true), users: list(64, true) },
  },
  { method: 'POST', url: `/api/v1/group/${FUZZ_GROUP}`, base: { username: FUZZEE }, fields: { username: str(64) } },
  { method: 'POST', url: '/api/v1/network', base: networkBase('fuzzloc-new'), fields: NETWORK_FIELDS },
  { method: 'PUT', url: '/api/v1/network/{loc}', base: networkBase('fuzzloc'), fields: NETWORK_FIELDS },
  {
    method: 'POST',
    url: '/api/v1/network/import',
    base: { name: 'fuzzimport', endpoint: 'vpn.fuzz.example', config: FUZZ_SERVER_CONFIG, allowed_groups: [] },
    // config accepts 4 MiB; any long run of one character is an unreadable config all the same.
    fields: { name: str(64), endpoint: str(253, { ascii: true }), config: str(100), allowed_groups: list(64) },
  },
  { method: 'POST', url: '/api/v1/network/{loc}/devices', base: { devices: [] }, fields: { devices: list(64, true) } },
  {
    method: 'POST',
    url: `/api/v1/device/${FUZZEE}`,
    base: { name: 'fuzzdev-new', wireguard_pubkey: FUZZ_KEY_2 },
    fields: { name: str(64), wireguard_pubkey: str(44, { ascii: true }) },
  },
  {
    method: 'PUT',
    url: '/api/v1/device/{dev}',
    base: (f) => ({ name: 'fuzzdev', wireguard_pubkey: f.devKey }),
    fields: { name: str(64), wireguard_pubkey: str(44, { ascii: true }) },
  },
  {
    method: 'POST',
    url: '/api/v1/device/network',
    base: (f) => ({ name: 'fuzznd-new', location_id: f.loc, wireguard_pubkey: FUZZ_KEY_2, description: 'fuzz' }),
    fields: {
      name: str(64),
      location_id: num(1, 2_147_483_647),
      wireguard_pubkey: str(44, { ascii: true }),
      assigned_ips: list(64),
      description: str(1024, { required: false }),
    },
  },
  {
    method: 'PUT',
    url: '/api/v1/device/network/{ndev}',
    base: (f) => ({ name: 'fuzznd', assigned_ips: [f.ndevIp], description: 'fuzz' }),
    fields: { name: str(64), assigned_ips: list(64, true), description: str(1024, { required: false }) },
  },
  {
    method: 'POST',
    url: '/api/v1/device/network/ip/{loc}',
    base: { ips: ['10.77.0.9'] },
    // Answers per address (valid or why not), so only what the schema refuses is generated.
    fields: { ips: { ...list(64, true), freeElements: true } },
  },
  {
    method: 'POST',
    url: '/api/v1/device/network/start_cli',
    base: (f) => ({ name: 'fuzzcli', location_id: f.loc }),
    fields: { name: str(64), location_id: num(1, 2_147_483_647), assigned_ips: list(64), description: str(1024, { required: false }) },
  },
  {
    method: 'PATCH',
    url: '/api/v1/settings_enterprise',
    base: { admin_device_management: false },
    fields: { admin_device_management: bool(false), disable_all_traffic: bool(false), disable_manual_config: bool(false) },
  },
  { method: 'POST', url: '/api/v1/activity_log_stream', base: STREAM_BASE, fields: STREAM_FIELDS },
  { method: 'PUT', url: '/api/v1/activity_log_stream/{stream}', base: STREAM_BASE, fields: STREAM_FIELDS },
  { method: 'POST', url: '/api/v1/webhook', base: WEBHOOK_BASE, fields: WEBHOOK_FIELDS },
  { method: 'PUT', url: '/api/v1/webhook/{webhook}', base: WEBHOOK_BASE, fields: WEBHOOK_UPDATE_FIELDS },
  { method: 'POST', url: '/api/v1/webhook/{webhook}', base: { enabled: true }, fields: { enabled: bool() } },
  { method: 'POST', url: '/api/v1/oauth', base: OAUTH_BASE, fields: OAUTH_FIELDS },
  { method: 'POST', url: '/api/v1/acl/rule', base: aclRuleBase, fields: ACL_RULE_FIELDS },
  { method: 'POST', url: '/api/v1/acl/alias', base: ACL_ALIAS_BASE, fields: ACL_ALIAS_FIELDS },
  // No rule or alias exists: a well-formed list of ids is a 404, anything else a 400.
  { method: 'PUT', url: '/api/v1/acl/rule/apply', base: { rules: [1] }, fields: { rules: list(16, true) } },
  { method: 'PUT', url: '/api/v1/acl/rule/discard', base: { rules: [1] }, fields: { rules: list(16, true) } },
  { method: 'PUT', url: '/api/v1/acl/alias/apply', base: { aliases: [1] }, fields: { aliases: list(16, true) } },
  { method: 'PUT', url: '/api/v1/acl/alias/discard', base: { aliases: [1] }, fields: { aliases: list(16, true) } },
  { method: 'PUT', url: '/api/v1/oauth/{oauth}', base: OAUTH_BASE, fields: OAUTH_UPDATE_FIELDS },
  { method: 'POST', url: '/api/v1/oauth/{oauth}', base: { enabled: true }, fields: { enabled: bool() } },
  // Authentication keys: the base key is valid and not yet added (an unknown field stores nothing).
  {
    method: 'POST',
    url: `/api/v1/user/${FUZZEE}/auth_key`,
    base: { name: 'fuzzkey', key_type: 'ssh', key: SSH_RSA_2048 },
    fields: { name: str(100), key_type: str(3, { ascii: true }), key: str(65_536) },
  },
  { method: 'POST', url: `/api/v1/user/${FUZZEE}/auth_key/{authKey}/rename`, base: { name: 'renamed' }, fields: { name: str(100) } },
  // MFA (the sign-in steps answer 401 before validation to anyone without a pending session: their
  // bad input is covered in modules/mfa/totp.int.test.ts).
  { method: 'POST', url: '/api/v1/auth/totp', base: { code: '123456' }, fields: { code: str(6, { ascii: true }) } },
  { method: 'PUT', url: '/api/v1/auth/mfa', base: { default_method: 'totp' }, fields: { default_method: str(8, { ascii: true }) } },
  {
    method: 'DELETE',
    url: '/api/v1/auth/mfa',
    base: { password: 'not-the-password' },
    fields: { password: str(1024), code: str(6, { ascii: true, required: false }) },
  },
];

/** Routes with path params; `{}` marks where a generated segment goes. A valid body is sent along. */
const PARAM_ROUTES: { method: HttpMethod; url: string; body?: Record<string, unknown> }[] = [
  { method: 'GET', url: '/api/v1/user/{}' },
  { method: 'PUT', url: '/api/v1/user/{}', body: { username: 'someone', first_name: 'A', last_name: 'B', email: 'someone@example.com' } },
  { method: 'DELETE', url: '/api/v1/user/{}' },
  { method: 'PUT', url: '/api/v1/user/{}/password', body: { new_password: 'Fuzz-new-1!' } },
  { method: 'GET', url: '/api/v1/group/{}' },
  { method: 'PUT', url: '/api/v1/group/{}', body: { name: 'renamed' } },
  { method: 'DELETE', url: '/api/v1/group/{}' },
  { method: 'POST', url: '/api/v1/group/{}', body: { username: FUZZEE } },
  { method: 'DELETE', url: `/api/v1/group/{}/user/${FUZZEE}` },
  { method: 'DELETE', url: `/api/v1/group/${FUZZ_GROUP}/user/{}` },
  { method: 'GET', url: '/api/v1/network/{}' },
  { method: 'PUT', url: '/api/v1/network/{}', body: networkBase('renamed') },
  { method: 'DELETE', url: '/api/v1/network/{}' },
  { method: 'POST', url: '/api/v1/network/{}/devices', body: { devices: [] } },
  { method: 'GET', url: '/api/v1/network/{}/device/1/config' },
  { method: 'GET', url: '/api/v1/device/{}' },
  { method: 'PUT', url: '/api/v1/device/{}', body: { name: 'x', wireguard_pubkey: FUZZ_KEY_2 } },
  { method: 'DELETE', url: '/api/v1/device/{}' },
  { method: 'GET', url: '/api/v1/device/user/{}' },
  { method: 'POST', url: '/api/v1/device/{}', body: { name: 'x', wireguard_pubkey: FUZZ_KEY_2 } },
  { method: 'GET', url: '/api/v1/device/network/{}' },
  { method: 'DELETE', url: '/api/v1/device/network/{}' },
  { method: 'GET', url: '/api/v1/device/network/{}/config' },
  { method: 'GET', url: '/api/v1/device/network/ip/{}' },
  { method: 'POST', url: '/api/v1/device/network/ip/{}', body: { ips: ['10.77.0.9'] } },
  { method: 'POST', url: '/api/v1/device/network/start_cli/{}' },
  { method: 'GET', url: '/api/v1/network/{}/token' },
  { method: 'POST', url: '/api/v1/network/{}/token' },
  { method: 'GET', url: '/api/v1/network/{}/gateways' },
  { method: 'DELETE', url: '/api/v1/network/{}/gateways/1' },
  { method: 'DELETE', url: '/api/v1/network/1/gateways/{}' },
  { method: 'GET', url: '/api/v1/network/{}/stats' },
  { method: 'GET', url: '/api/v1/network/{}/stats/users' },
  { method: 'PUT', url: '/api/v1/activity_log_stream/{}', body: STREAM_BASE },
  { method: 'DELETE', url: '/api/v1/activity_log_stream/{}' },
  { method: 'GET', url: '/api/v1/webhook/{}' },
  { method: 'PUT', url: '/api/v1/webhook/{}', body: WEBHOOK_BASE },
  { method: 'POST', url: '/api/v1/webhook/{}', body: { enabled: false } },
  { method: 'DELETE', url: '/api/v1/webhook/{}' },
  { method: 'GET', url: '/api/v1/webhook/{}/deliveries' },
  { method: 'POST', url: '/api/v1/webhook/{}/test' },
  { method: 'POST', url: '/api/v1/webhook/{}/deliveries/1/redeliver' },
  { method: 'POST', url: '/api/v1/webhook/1/deliveries/{}/redeliver' },
  { method: 'GET', url: '/api/v1/oauth/{}' },
  { method: 'GET', url: '/api/v1/user/{}/auth_key' },
  { method: 'POST', url: '/api/v1/user/{}/auth_key', body: { name: 'k', key_type: 'ssh', key: SSH_RSA_2048 } },
  { method: 'DELETE', url: `/api/v1/user/${FUZZEE}/auth_key/{}` },
  { method: 'POST', url: `/api/v1/user/${FUZZEE}/auth_key/{}/rename`, body: { name: 'renamed' } },
  { method: 'PUT', url: '/api/v1/oauth/{}', body: OAUTH_BASE },
  { method: 'POST', url: '/api/v1/oauth/{}', body: { enabled: false } },
  { method: 'DELETE', url: '/api/v1/oauth/{}' },
  { method: 'GET', url: '/api/v1/oauth/{}/secret' },
  { method: 'POST', url: '/api/v1/oauth/{}/secret' },
  { method: 'DELETE', url: '/api/v1/user/{}/mfa' },
  { method: 'GET', url: '/api/v1/acl/rule/{}' },
  { method: 'PUT', url: '/api/v1/acl/rule/{}', body: { name: 'x', all_locations: true, allow_all_users: true } },
  { method: 'DELETE', url: '/api/v1/acl/rule/{}' },
  { method: 'GET', url: '/api/v1/acl/alias/{}' },
  { method: 'PUT', url: '/api/v1/acl/alias/{}', body: ACL_ALIAS_BASE },
  { method: 'DELETE', url: '/api/v1/acl/alias/{}' },
];

// ---- generators ---------------------------------------------------------------------------------

/** Characters that break naive handling: NUL, lone surrogates, RTL/bidi marks, emoji, combining marks. */
const EDGE_CHARS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u200f',
  '\u202e',
  '\u2066',
  '\ufeff',
  '😀',
  '👩‍👩‍👧',
  'e\u0301',
  '\u0338',
  'Ω',
  'ß',
  '\u00a0x',
  '\u2028',
];
/** Non-ASCII, non-whitespace pieces: any of them inside an ASCII-only field makes it invalid. */
const edgeString = fc
  .array(fc.constantFrom(...EDGE_CHARS.filter((c) => c !== '\u0000')), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''));

const invalidJson = fc
  .oneof(
    fc.string(),
    fc.constantFrom(
      '{',
      '[',
      '{"a":',
      '{"a" 1}',
      "{'a':1}",
      '{"a":1,}',
      'undefined',
      'NaN',
      '{"a":01}',
      '"\\x00"',
      '{"a":"\\ud800',
      '\u0000',
    ),
    fc.jsonValue().map((v) => `${JSON.stringify(v)}}`),
    fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1) || '{'),
  )
  .filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  });

/**
 * Deeply nested arrays or objects. Too deep for JSON.stringify, so a token stands in for them
 * and `toJson` splices in the nested text.
 */
const deep = fc.tuple(fc.integer({ min: 2, max: 5000 }), fc.boolean()).map(([depth, arrays]) => `__deep_${depth}_${arrays ? 'a' : 'o'}__`);
const DEEP_TOKEN = /"__deep_(\d+)_([ao])__"/g;

function toJson(value: unknown): string {
  return JSON.stringify(value).replace(DEEP_TOKEN, (_m, depth: string, kind: string) => {
    const n = Number(depth);
    return kind === 'a' ? `${'['.repeat(n)}"leaf"${']'.repeat(n)}` : `${'{"k":'.repeat(n)}"leaf"${'}'.repeat(n)}`;
  });
}

const hugeLength = (min: number) => fc.integer({ min: min + 1, max: 300_000 });

function wrongValue(kind: FieldKind): fc.Arbitrary<unknown> {
  const any = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.string(),
    fc.array(fc.jsonValue(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
    deep,
  );
  if (kind === 'string') return any.filter((v) => typeof v !== 'string');
  if (kind === 'boolean') return any.filter((v) => typeof v !== 'boolean');
  if (kind === 'number') return any.filter((v) => typeof v !== 'number');
  // Arrays of strings: anything but an array of strings.
  return any.filter((v) => !(Array.isArray(v) && v.every((e) => typeof e === 'string')));
}

interface Generated {
  label: string;
  body: string;
}

function bodyArbitrary(route: ResolvedRoute): fc.Arbitrary<Generated> {
  const names = Object.keys(route.fields);
  const json = (label: string, value: unknown): Generated => ({ label, body: toJson(value) });
  const withField = (name: string, value: unknown) => ({ ...route.base, [name]: value });
  const stringFields = names.filter((n) => route.fields[n]?.kind === 'string');
  const asciiFields = names.filter((n) => route.fields[n]?.ascii);
  const arrayFields = names.filter((n) => route.fields[n]?.kind === 'array');
  const strictArrayFields = arrayFields.filter((n) => !route.fields[n]?.freeElements);
  const requiredFields = names.filter((n) => route.fields[n]?.required);

  const arbs: fc.Arbitrary<Generated>[] = [
    invalidJson.map((body) => ({ label: 'malformed JSON', body })),
    fc
      .oneof(
        fc.array(fc.jsonValue(), { maxLength: 3 }),
        fc.constant([route.base]),
        fc.string(),
        fc.integer(),
        fc.constant(null),
        fc.boolean(),
      )
      .map((v) => json('not an object', v)),
    fc
      .constantFrom(...names)
      .chain((name) => wrongValue(route.fields[name]?.kind ?? 'string').map((v) => json(`wrong type in ${name}`, withField(name, v)))),
    fc
      .tuple(
        fc.string({ minLength: 1 }).filter((k) => !(k in route.fields) && k !== '__proto__'),
        fc.oneof(fc.jsonValue(), edgeString, deep),
      )
      .map(([key, v]) => json(`unknown field ${JSON.stringify(key)}`, { ...route.base, [key]: v })),
    fc.tuple(fc.constantFrom(...names), deep).map(([name, v]) => json(`deep nesting in ${name}`, withField(name, v))),
  ];
  if (stringFields.length > 0) {
    arbs.push(
      fc
        .tuple(fc.constantFrom(...stringFields), fc.constantFrom('x', 'é', '😀'))
        .chain(([name, ch]) =>
          hugeLength(route.fields[name]?.max ?? 0).map((n) => json(`${n} × ${ch} in ${name}`, withField(name, ch.repeat(n)))),
        ),
      // NUL cannot be stored in a PostgreSQL text column and a lone surrogate cannot be stored
      // faithfully: in any field, even free text, they must be a 400 (not a 500, not a mangled row).
      fc
        .tuple(fc.constantFrom(...stringFields), fc.nat(), fc.constantFrom('\u0000', '\ud800', '\udfff', 'x\udbff'))
        .map(([name, at, bad]) => {
          const value = String(route.base[name] ?? 'value');
          const i = at % (value.length + 1);
          return json(`${JSON.stringify(bad)} in ${name}`, withField(name, `${value.slice(0, i)}${bad}${value.slice(i)}`));
        }),
    );
  }
  if (asciiFields.length > 0) {
    arbs.push(
      fc.tuple(fc.constantFrom(...asciiFields), edgeString).map(([name, edge]) => {
        const value = String(route.base[name] ?? 'value');
        return json(`unicode ${JSON.stringify(edge)} in ${name}`, withField(name, `${value.slice(0, 2)}${edge}${value.slice(2)}`));
      }),
    );
  }
  if (strictArrayFields.length > 0) {
    arbs.push(
      fc
        .tuple(
          fc.constantFrom(...strictArrayFields),
          fc.oneof(
            edgeString.map((e) => `a${e}b`),
            fc.constant('na\u0000me'),
            fc.constant(''),
          ),
        )
        .map(([name, element]) => json(`element ${JSON.stringify(element)} in ${name}`, withField(name, [element]))),
    );
  }
  if (arrayFields.length > 0) {
    arbs.push(
      fc
        .constantFrom(...arrayFields)
        .map((name) => json(`long element in ${name}`, withField(name, [`${'x'.repeat(route.fields[name]?.max ?? 64)}x`]))),
      fc.constantFrom(...arrayFields).map((name) => json(`NUL element in ${name}`, withField(name, ['na\u0000me']))),
    );
  }
  const numberFields = names.filter((n) => route.fields[n]?.kind === 'number');
  if (numberFields.length > 0) {
    arbs.push(
      fc.constantFrom(...numberFields).chain((name) => {
        const field = route.fields[name];
        const min = field?.min ?? 0;
        const max = field?.max ?? 0;
        return fc
          .oneof(
            fc.integer({ min: 1, max: 1_000_000 }).map((d) => min - d),
            fc.integer({ min: 1, max: 1_000_000 }).map((d) => max + d),
            fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, 1e300),
            fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
          )
          .map((v) => json(`${v} in ${name}`, withField(name, v)));
      }),
    );
  }
  if (requiredFields.length > 0) {
    arbs.push(
      fc.constantFrom(...requiredFields).map((name) => {
        const { [name]: _dropped, ...rest } = route.base;
        return json(`missing ${name}`, rest);
      }),
    );
  }
  return fc.oneof(...arbs);
}

/** Path segments that name nothing or are not valid text at all. */
const badSegment = fc.oneof(
  edgeString.map((e) => encodeURIComponent(`a${e.replace(/[\ud800-\udfff]/g, '')}b`) || 'x%C3%A9'),
  fc.constantFrom('%00', 'a%00b', '%', '%zz', '%FF', '%ED%A0%80', '%C0%AE', '%E2%80%AE', '%2F', 'a%2Fb', '%20', '%0A'),
  fc.integer({ min: 65, max: 400 }).map((n) => 'x'.repeat(n)),
  fc.string({ minLength: 1, maxLength: 20 }).map((s) => `zz${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}`),
);

const badQuery = fc.oneof(
  fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 1_000_001 }), fc.double({ noInteger: true })).map((v) => ({ page: String(v) })),
  fc
    .oneof(fc.integer({ max: 0 }), fc.integer({ min: 201 }), fc.constantFrom(1.5, -1, Number.POSITIVE_INFINITY))
    .map((v) => ({ per_page: String(v) })),
  fc.constantFrom('', 'abc', '1e400', 'Infinity', '-0', '99999999999999999999999').map((v) => ({ page: v })),
  fc.constantFrom('', 'abc', 'NaN', '1e3', '200.5').map((v) => ({ per_page: v })),
  fc
    .string()
    .filter((s) => !['all', 'admins', 'users'].includes(s))
    .map((v) => ({ filter: v })),
  fc
    .string()
    .filter((s) => !/^-?(username|last_name|email|created_at)$/.test(s))
    .map((v) => ({ sort: v })),
  hugeLength(128).map((n) => ({ search: 'x'.repeat(Math.min(n, 20_000)) })),
  fc.tuple(fc.string(), fc.string()).map(([a, b]) => ({ page: [a, b] })),
  fc.tuple(fc.string(), fc.string()).map(([a, b]) => ({ search: [a, b] })),
  fc.constantFrom('a\u0000b', '\u0000').map((v) => ({ search: v })),
  fc
    .tuple(
      fc.string({ minLength: 1 }).filter((k) => !['page', 'per_page', 'search', 'filter', 'sort'].includes(k)),
      fc.string(),
    )
    .map(([k, v]) => ({ [k]: v })),
);

// ---- the properties -----------------------------------------------------------------------------

describe('bad input never causes a 5xx or a write', () => {
  let t: TestApp;
  let admin: string;
  let fixtures: Fixtures;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAdmin();
    await t.newUser(admin, FUZZEE);
    const group = await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: FUZZ_GROUP, members: [FUZZEE] } });
    expect(group.statusCode).toBe(201);
    const location = await t.request('POST', '/api/v1/network', { cookie: admin, payload: networkBase('fuzzloc') });
    expect(location.statusCode).toBe(201);
    const devKey = 'FuzzKeyDevFuzzKeyDevFuzzKeyDevFuzzKeyDev0AA=';
    const device = await t.request('POST', `/api/v1/device/${FUZZEE}`, {
      cookie: admin,
      payload: { name: 'fuzzdev', wireguard_pubkey: devKey },
    });
    expect(device.statusCode).toBe(201);
    const nd = await t.request('POST', '/api/v1/device/network', {
      cookie: admin,
      payload: { name: 'fuzznd', location_id: location.json().id, wireguard_pubkey: 'FuzzKeyNetFuzzKeyNetFuzzKeyNetFuzzKeyNet0AA=' },
    });
    expect(nd.statusCode).toBe(201);
    // Stream destinations on loopback need the egress allow-list.
    const allow = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.0/8'] } });
    expect(allow.statusCode).toBe(200);
    const stream = await t.request('POST', '/api/v1/activity_log_stream', { cookie: admin, payload: STREAM_BASE });
    expect(stream.statusCode).toBe(201);
    const webhook = await t.request('POST', '/api/v1/webhook', { cookie: admin, payload: WEBHOOK_BASE });
    expect(webhook.statusCode).toBe(201);
    const oauth = await t.request('POST', '/api/v1/oauth', { cookie: admin, payload: OAUTH_BASE });
    expect(oauth.statusCode).toBe(201);
    const authKey = await t.request('POST', `/api/v1/user/${FUZZEE}/auth_key`, {
      cookie: admin,
      payload: { name: 'fuzzkey', key_type: 'ssh', key: SSH_ED25519 },
    });
    expect(authKey.statusCode).toBe(201);
    fixtures = {
      loc: location.json().id,
      dev: device.json().device.id,
      ndev: nd.json().device.id,
      devKey,
      ndevIp: nd.json().device.assigned_ips[0],
      stream: stream.json().id,
      webhook: webhook.json().id,
      oauth: oauth.json().client_id,
      authKey: authKey.json().id,
    };
  });
  afterAll(() => t.close());

  async function expectRefused(send: () => Promise<import('fastify').LightMyRequestResponse>, label: string): Promise<void> {
    const before = await snapshot(t.database);
    const res = await send();
    const where = `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, where).toBeLessThan(500);
    expect(String(res.headers['content-type']), where).toMatch(/^application\/problem\+json/);
    expect(res.json().code, where).toEqual(expect.any(String));
    expect(await snapshot(t.database), `${where}: something was written`).toBe(before);
  }

  it.each([
    ['javascript:', 'javascript:alert(1)', 'url.invalid', 'URL is not valid'],
    ['file:', 'file:///etc/passwd', 'url.invalid', 'URL is not valid'],
    ['ftp:', 'ftp://127.0.0.1/pub', 'url.invalid', 'URL is not valid'],
    ['10 KiB long', `http://127.0.0.1/${'a'.repeat(10 * 1024)}`, 'max_length', 'Maximum length exceeded'],
    ['with credentials', 'http://user:secret@127.0.0.1/hook', 'url.credentials', 'Put credentials in the fields for them, not in the URL'],
  ])('a webhook URL %s is a 400 naming the URL field', async (_label, url, code, message) => {
    for (const [method, path] of [
      ['POST', '/api/v1/webhook'],
      ['PUT', `/api/v1/webhook/${fixtures.webhook}`],
    ] as const) {
      await expectRefused(
        () => t.request(method, path, { cookie: admin, payload: { ...WEBHOOK_BASE, url } }),
        `${method} ${path} ${url.slice(0, 40)}`,
      );
      const res = await t.request(method, path, { cookie: admin, payload: { ...WEBHOOK_BASE, url } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ path: 'url', code, message })]);
    }
  });

  it('the base bodies are valid, so what each generated change breaks is what gets refused', async () => {
    // Sent with one unknown field (so nothing is written): that must be the only error reported.
    for (const unresolved of BODY_ROUTES) {
      const route = resolveRoute(unresolved, fixtures);
      const res = await t.request(route.method, route.url, { cookie: admin, payload: { ...route.base, zz_probe: 1 } });
      // Exactly one error: the probe field. Any other error would mean the base itself is invalid.
      expect(res.json().errors, `${route.method} ${route.url}: ${res.body}`).toEqual([
        expect.objectContaining({ path: 'zz_probe', code: 'unknown_field' }),
      ]);
    }
  });

  for (const unresolved of BODY_ROUTES) {
    it(`${unresolved.method} ${unresolved.url} body`, async () => {
      const route = resolveRoute(unresolved, fixtures);
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(route), async (g) => {
          await expectRefused(
            () => t.request(route.method, route.url, { cookie: admin, headers: { 'content-type': 'application/json' }, payload: g.body }),
            `${route.method} ${route.url} [${g.label}]`,
          );
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }

  for (const url of ['/api/v1/user', '/api/v1/device', '/api/v1/device/network']) {
    it(`GET ${url} query`, async () => {
      await fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await expectRefused(() => t.request('GET', url, { cookie: admin, query }), `GET ${url}?${JSON.stringify(query)}`);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }

  /** `from` must be a UTC ISO timestamp (spec §7); anything else, or another key, is refused. */
  const badStatsQuery = fc.oneof(
    fc
      .string()
      .filter((v) => Number.isNaN(Date.parse(v)) || !/^\d{4}-\d{2}-\d{2}T/.test(v))
      .map((from) => ({ from })),
    fc.constantFrom('2026-13-01T00:00:00Z', '2026-01-01', '1', '-1', '1999-01-01T00:00:00Z', 'now').map((from) => ({ from })),
    fc.constantFrom('hours', 'page', 'to').map((key) => ({ [key]: '1' })),
  );
  for (const url of ['/api/v1/network/stats', '/api/v1/network/{loc}/stats', '/api/v1/network/{loc}/stats/users']) {
    it(`GET ${url} query`, async () => {
      const resolved = url.replace('{loc}', String(fixtures.loc));
      await fc.assert(
        fc.asyncProperty(badStatsQuery, async (query) => {
          await expectRefused(() => t.request('GET', resolved, { cookie: admin, query }), `GET ${resolved}?${JSON.stringify(query)}`);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }

  /** Activity log filters: bad dates (also outside years 1–9999, or a range that ends before it starts), unknown modules and events, huge pages. */
  const badActivityQuery = fc.oneof(
    fc.constantFrom('from', 'to').chain((key) =>
      fc
        .oneof(
          fc.string().filter((v) => !/^\d{4}-\d{2}-\d{2}T/.test(v)),
          fc.constantFrom(
            '2026-13-01T00:00:00Z',
            '2026-02-30T00:00:00Z',
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:59-23:59',
            '2026-01-01',
          ),
        )
        .map((v) => ({ [key]: v })),
    ),
    fc.constant({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }),
    fc
      .string()
      .filter((v) => !['auth', 'users', 'devices'].includes(v))
      .map((module) => ({ module: [module] })),
    fc
      .string()
      .filter((v) => !v.includes('.'))
      .map((event) => ({ event })),
    fc.constant({ module: Array.from({ length: 51 }, () => 'users') }),
    fc.constant({ user: 'u'.repeat(65) }),
    fc.constantFrom('0', '201', '100000', '1e3').map((per_page) => ({ per_page })),
    fc
      .string()
      .filter((v) => v !== 'timestamp' && v !== '-timestamp')
      .map((sort) => ({ sort })),
    fc
      .string({ minLength: 1 })
      .filter((k) => !['page', 'per_page', 'search', 'from', 'to', 'user', 'module', 'event', 'sort'].includes(k))
      .map((k) => ({ [k]: '1' })),
  );
  for (const url of ['/api/v1/activity_log', '/api/v1/activity_log/export']) {
    it(`GET ${url} query`, async () => {
      await fc.assert(
        fc.asyncProperty(badActivityQuery, async (query) => {
          await expectRefused(() => t.request('GET', url, { cookie: admin, query }), `GET ${url}?${JSON.stringify(query)}`);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }
  it('GET /api/v1/activity_log/feed query', async () => {
    const badFeedQuery = fc.oneof(
      fc
        .string()
        .filter((v) => !/^[0-9]{1,20}:[0-9]{1,16}$/.test(v))
        .map((cursor) => ({ cursor })),
      fc
        .constantFrom('99999999999999999999:1', '18446744073709551616:0', '1:9999999999999999', `1:${'9'.repeat(60)}`)
        .map((cursor) => ({ cursor })),
      fc.constantFrom('0', '501', '-1', 'x').map((limit) => ({ cursor: '1:1', limit })),
      fc
        .string()
        .filter((v) => v !== '0' && v !== '1')
        .map((wait) => ({ cursor: '1:1', wait })),
      fc
        .string({ minLength: 1 })
        .filter((k) => !['cursor', 'limit', 'wait'].includes(k))
        .map((k) => ({ [k]: '1' })),
    );
    await fc.assert(
      fc.asyncProperty(badFeedQuery, async (query) => {
        await expectRefused(
          () => t.request('GET', '/api/v1/activity_log/feed', { cookie: admin, query }),
          `GET feed?${JSON.stringify(query)}`,
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  for (const route of PARAM_ROUTES) {
    it(`${route.method} ${route.url} params`, async () => {
      await fc.assert(
        fc.asyncProperty(badSegment, async (segment) => {
          const url = route.url.replace('{}', segment);
          await expectRefused(() => t.request(route.method, url, { cookie: admin, payload: route.body }), `${route.method} ${url}`);
        }),
        { numRuns: Math.ceil(NUM_RUNS / 2) },
      );
    });
  }
});
