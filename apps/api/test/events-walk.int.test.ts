import { ROUTE_ACCESS, type RouteRule } from '@palisade/contracts';
import { generateKeyPair } from '@palisade/wireguard';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTokens, gateways, groupMembers, groups, oauthClients, sessions, settings, userTokens, yubikeys } from '#src/db/schema/index.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { freshSshPublicKey } from '#src/modules/auth-keys/auth-key-fixtures.test-support.js';
import { SoftAuthenticator } from '#src/modules/mfa/webauthn/soft-authenticator.js';
import { type HttpMethod, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { totpCode } from '#test/mfa-fixtures.js';
import { mintLicence } from '#test/support/licence.js';
import { locationBody, newKey } from '#test/network-fixtures.js';
import { type RouteWalk, startRouteWalk } from '#test/route-walk.js';
import { bodyOf, startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { LDAP_SYNC_FIXTURES, stopLdapSyncWalk } from '#src/modules/ldap/sync-walk.test-support.js';
import { closeWalkIdp, EXTERNAL_IDP_FIXTURES } from '#test/support/external-idp-walk.js';
import { ENROLLMENT_FIXTURES, resetToken, stopEnrollmentWalk } from '#src/modules/enrollment/enrollment-walk.test-support.js';

/**
 * ADR-005 / issue "Domain events" §5: walk every registered `/api/v1` route that changes state
 * (every method but GET, plus the GET routes that record an event: config downloads, the activity
 * log export), call it successfully with a fixture of its own, and check that the request recorded
 * at least one event with the caller as actor (user id and username), the request's client IP and
 * user agent, and the object it acted on. A route without a fixture fails: a new state-changing
 * route cannot slip through without its event. Routes that change nothing are listed with a reason.
 */

/** Routes that change nothing, so record nothing (each with its reason). */
const NON_MUTATING: Record<string, string> = {
  'POST /api/v1/user/available': 'asks whether a username is free; a POST only because the name travels in the body',
  'POST /api/v1/device/network/ip/:location': 'validates addresses for a network device form; stores nothing',
  'POST /api/v1/auth/email/init':
    'emails a code that does nothing until POST /auth/email enables the method (which records mfa.method_enabled)',
  'POST /api/v1/auth/webauthn/init':
    'hands out a registration challenge; nothing changes until POST /auth/webauthn/finish (which records mfa.security_key_added)',
  'POST /api/v1/auth/webauthn/start': 'hands out a sign-in challenge; the step POST /auth/webauthn records auth.login_succeeded',
  'POST /api/v1/auth/totp/init':
    'prepares an authenticator secret that does nothing until POST /auth/totp enables it (which records mfa.method_enabled)',
  'POST /api/v1/openid/verify':
    'tells the consent page what the waiting OpenID authorization asks for; POST /oauth/authorize records the decision (oauth_app.authorized)',
  'POST /api/v1/vpn_session/start':
    'hands out a challenge for the MFA of a VPN session; nothing changes until POST /vpn_session/finish (which records vpn_session.started)',
  'POST /api/v1/password_reset/start':
    'checks a password reset link without spending it; POST /password_reset/finish records password_reset.completed',
};

/**
 * Routes a provisioning station calls with its own token (access `worker`): no user is the caller.
 * workers.int.test.ts checks what they record (worker.registered as the station's origin; job
 * results as the admin who queued the job).
 */
const STATION_ROUTES: Record<string, string> = {
  'POST /api/v1/worker/register': 'records worker.registered with the station as anonymous actor (its IP and user agent)',
  'POST /api/v1/worker/poll': 'a heartbeat that takes a job; the job was recorded when queued (worker.job_created)',
  'POST /api/v1/worker/job/:id/heartbeat': 'a heartbeat that acknowledges a job; the job was recorded when queued (worker.job_created)',
  'POST /api/v1/worker/job/:id/result': 'records yubikey.provisioned or yubikey.provisioning_failed as the admin who queued the job',
};

/** GET routes that record an event (the rest of the GET routes only read). */
const RECORDING_GETS = new Set([
  'GET /api/v1/network/:network_id/device/:device_id/config',
  'GET /api/v1/device/network/:id/config',
  'GET /api/v1/activity_log/export',
  'GET /api/v1/oauth/:id/secret',
]);

interface Caller {
  id: number;
  username: string;
  cookie: string;
  isAdmin: boolean;
}

/** One call of a route and what its event must name. */
interface Call {
  url: string;
  payload?: unknown;
  /** Anonymous routes (login): no cookie; the actor is still `caller`, who signs in. */
  anonymous?: boolean;
  /** Another cookie than the caller's (the MFA sign-in steps take a pending-MFA session). */
  cookie?: string;
  object: { type: string; id?: string | number };
}

interface World {
  n: number;
  admin: Caller;
  db: TestApp['database']['db'];
  /** A fresh user (not an admin) with password USER_PASSWORD. */
  newUser(): Promise<Caller>;
  newGroup(members?: number[]): Promise<{ id: number; name: string }>;
  newLocation(): Promise<{ id: number; name: string }>;
  addDevice(owner: Caller, locationId?: number): Promise<{ id: number; locationId: number }>;
  newNetworkDevice(): Promise<{ id: number; locationId: number }>;
  api(method: HttpMethod, url: string, as: Caller, payload?: unknown): Promise<Record<string, unknown>>;
  request: TestApp['request'];
}

type Fixture = (w: World, caller: Caller) => Promise<Call>;

const person = (username: string) => ({ username, first_name: 'Walk', last_name: 'Er', email: `${username}@walk.example` });
const NEW_PASSWORD = 'Walk3r-new!pass';

/** A WireGuard server config with one peer, for the import routes. */
function serverConfig(n: number) {
  const server = generateKeyPair();
  return `[Interface]\nPrivateKey = ${server.privateKey}\nAddress = 10.${60 + (n % 100)}.0.1/24\nListenPort = 51820\n\n[Peer]\nPublicKey = ${newKey()}\nAllowedIPs = 10.${60 + (n % 100)}.0.10/32\n`;
}

/** Adds an SSH key for the caller and returns its id. */
async function newAuthKey(w: World, caller: Caller): Promise<number> {
  const key = { name: 'walk key', key_type: 'ssh', key: freshSshPublicKey() };
  return (await w.api('POST', `/api/v1/user/${caller.username}/auth_key`, caller, key)).id as number;
}

/** Creates an API token for the caller and returns its id. */
async function newApiToken(w: World, caller: Caller): Promise<number> {
  return (await w.api('POST', `/api/v1/user/${caller.username}/api_token`, caller, { name: `walk token ${w.n}` })).id as number;
}

/** A registered provisioning station (it polled just now, so it is available); returns its id and name. */
async function newWorker(w: World): Promise<{ id: number; name: string }> {
  const { token } = (await w.api('GET', '/api/v1/worker/token', w.admin)) as { token: string };
  const res = await w.request('POST', '/api/v1/worker/register', {
    headers: { authorization: `Worker ${token}` },
    payload: { name: `station${w.n}` },
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return { id: res.json().id as number, name: res.json().name as string };
}

/** A YubiKey record of the caller (as a station's success would leave it). */
async function newYubikey(w: World, caller: Caller): Promise<number> {
  const [row] = await w.db
    .insert(yubikeys)
    .values({ userId: caller.id, name: `card${w.n}`, serial: `${w.n}${caller.id}` })
    .returning();
  if (!row) throw new Error('insert failed');
  return row.id;
}

/** SMTP servers the mail fixture started, closed after the walk. */
const smtpServers: TestSmtpServer[] = [];

const FIXTURES: Record<string, Fixture> = {
  ...LDAP_SYNC_FIXTURES,
  ...EXTERNAL_IDP_FIXTURES,
  ...ENROLLMENT_FIXTURES,
  // auth
  'POST /api/v1/auth': async (_w, caller) => ({
    url: '/api/v1/auth',
    anonymous: true,
    payload: { username: caller.username, password: USER_PASSWORD },
    object: { type: 'user', id: caller.id },
  }),
  'POST /api/v1/auth/logout': async (_w, caller) => ({ url: '/api/v1/auth/logout', object: { type: 'user', id: caller.id } }),

  // settings
  'PUT /api/v1/settings': async (w) => ({
    url: '/api/v1/settings',
    payload: {
      instance_name: `Walk ${w.n}`,
      main_logo_url: '',
      nav_logo_url: '',
      wireguard_enabled: true,
      webhooks_enabled: true,
      worker_enabled: true,
      openid_enabled: true,
    },
    object: { type: 'settings' },
  }),
  'PATCH /api/v1/settings': async (w) => ({
    url: '/api/v1/settings',
    payload: { instance_name: `Patch ${w.n}` },
    object: { type: 'settings' },
  }),
  'PUT /api/v1/settings/:id': async (w) => {
    // Branding that differs from the default, so restoring it changes something.
    await w.api('PATCH', '/api/v1/settings', w.admin, { instance_name: `Brand ${w.n}` });
    return { url: '/api/v1/settings/1', object: { type: 'settings' } };
  },
  'PUT /api/v1/settings/logo/:kind': async (w) => {
    // A colour of its own: a new file, so a new URL and a change to record.
    const background = { r: w.n % 256, g: Math.floor(w.n / 256) % 256, b: 7 };
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background } })
      .png()
      .toBuffer();
    return { url: '/api/v1/settings/logo/nav', payload: { data: png.toString('base64') }, object: { type: 'settings' } };
  },
  'PATCH /api/v1/settings_enterprise': async (w) => {
    const current = await w.api('GET', '/api/v1/settings_enterprise', w.admin);
    return {
      url: '/api/v1/settings_enterprise',
      payload: { disable_manual_config: !current.disable_manual_config },
      object: { type: 'settings' },
    };
  },
  'PUT /api/v1/licence': async () => ({
    url: '/api/v1/licence',
    payload: { licence_key: mintLicence({ id: 'lic-walk' }) },
    object: { type: 'licence', id: 'lic-walk' },
  }),
  'DELETE /api/v1/licence': async (w) => {
    await w.api('PUT', '/api/v1/licence', w.admin, { licence_key: mintLicence({ id: 'lic-walk-removed' }) });
    return { url: '/api/v1/licence', object: { type: 'licence', id: 'lic-walk-removed' } };
  },

  // users
  'POST /api/v1/user': async (w) => ({
    url: '/api/v1/user',
    payload: { ...person(`created${w.n}`), password: NEW_PASSWORD },
    object: { type: 'user' },
  }),
  'PUT /api/v1/user/change_password': async (_w, caller) => ({
    url: '/api/v1/user/change_password',
    payload: { old_password: USER_PASSWORD, new_password: NEW_PASSWORD },
    object: { type: 'user', id: caller.id },
  }),
  'PUT /api/v1/me/language': async (w, caller) => {
    // A change records user.modified; the same language again changes nothing.
    const me = await w.api('GET', '/api/v1/me', caller);
    return {
      url: '/api/v1/me/language',
      payload: { language: me.language === 'pl' ? 'ko' : 'pl' },
      object: { type: 'user', id: caller.id },
    };
  },
  'PUT /api/v1/user/:username': async (w, caller) => {
    const target = caller.isAdmin ? await w.newUser() : caller;
    return {
      url: `/api/v1/user/${target.username}`,
      payload: { ...person(target.username), first_name: `Renamed${w.n}` },
      object: { type: 'user', id: target.id },
    };
  },
  'DELETE /api/v1/user/:username': async (w) => {
    const target = await w.newUser();
    return { url: `/api/v1/user/${target.username}`, object: { type: 'user', id: target.id } };
  },
  'PUT /api/v1/user/:username/password': async (w) => {
    const target = await w.newUser();
    return {
      url: `/api/v1/user/${target.username}/password`,
      payload: { new_password: NEW_PASSWORD },
      object: { type: 'user', id: target.id },
    };
  },

  // groups
  'POST /api/v1/group': async (w) => ({ url: '/api/v1/group', payload: { name: `newgroup${w.n}` }, object: { type: 'group' } }),
  'PUT /api/v1/group/:name': async (w) => {
    const group = await w.newGroup();
    return { url: `/api/v1/group/${group.name}`, payload: { name: `${group.name}-renamed` }, object: { type: 'group', id: group.id } };
  },
  'DELETE /api/v1/group/:name': async (w) => {
    const group = await w.newGroup();
    return { url: `/api/v1/group/${group.name}`, object: { type: 'group', id: group.id } };
  },
  'POST /api/v1/groups-assign': async (w) => {
    const [group, user] = [await w.newGroup(), await w.newUser()];
    return {
      url: '/api/v1/groups-assign',
      payload: { groups: [group.name], users: [user.username] },
      object: { type: 'group', id: group.id },
    };
  },
  'POST /api/v1/group/:group': async (w) => {
    const [group, user] = [await w.newGroup(), await w.newUser()];
    return { url: `/api/v1/group/${group.name}`, payload: { username: user.username }, object: { type: 'group', id: group.id } };
  },
  'DELETE /api/v1/group/:group/user/:username': async (w) => {
    const user = await w.newUser();
    const group = await w.newGroup([user.id]);
    return { url: `/api/v1/group/${group.name}/user/${user.username}`, object: { type: 'group', id: group.id } };
  },

  // locations and gateways
  'POST /api/v1/network': async () => ({ url: '/api/v1/network', payload: locationBody(), object: { type: 'location' } }),
  'POST /api/v1/network/import': async (w) => ({
    url: '/api/v1/network/import',
    payload: { name: `imported${w.n}`, endpoint: 'import.example.com', config: serverConfig(w.n), allowed_groups: [] },
    object: { type: 'location' },
  }),
  'POST /api/v1/network/:id/devices': async (w) => {
    const imported = await w.api('POST', '/api/v1/network/import', w.admin, {
      name: `tomap${w.n}`,
      endpoint: 'map.example.com',
      config: serverConfig(w.n),
      allowed_groups: [],
    });
    const network = imported.network as { id: number };
    const peers = imported.devices as { wireguard_pubkey: string; wireguard_ips: string[] }[];
    const owner = await w.newUser();
    return {
      url: `/api/v1/network/${network.id}/devices`,
      payload: { devices: peers.map((p, i) => ({ name: `mapped${i}`, ...p, user_id: owner.id })) },
      object: { type: 'location', id: network.id },
    };
  },
  'PUT /api/v1/network/:id': async (w) => {
    const location = await w.newLocation();
    return {
      url: `/api/v1/network/${location.id}`,
      payload: locationBody({ name: `${location.name}-edited` }),
      object: { type: 'location', id: location.id },
    };
  },
  'DELETE /api/v1/network/:id': async (w) => {
    const location = await w.newLocation();
    return { url: `/api/v1/network/${location.id}`, object: { type: 'location', id: location.id } };
  },
  'POST /api/v1/network/:id/token': async (w) => {
    const location = await w.newLocation();
    return { url: `/api/v1/network/${location.id}/token`, object: { type: 'location', id: location.id } };
  },
  'DELETE /api/v1/network/:id/gateways/:gatewayId': async (w) => {
    const location = await w.newLocation();
    const [gateway] = await w.db
      .insert(gateways)
      .values({ locationId: location.id, gatewayId: `gw${w.n}`, name: `gateway${w.n}`, hostname: 'gw.example', version: '0.1.0' })
      .returning();
    if (!gateway) throw new Error('insert failed');
    return { url: `/api/v1/network/${location.id}/gateways/${gateway.id}`, object: { type: 'gateway', id: gateway.id } };
  },

  // devices
  'POST /api/v1/device/:username': async (w, caller) => {
    await w.newLocation();
    const owner = caller.isAdmin ? await w.newUser() : caller;
    return {
      url: `/api/v1/device/${owner.username}`,
      payload: { name: `dev${w.n}`, wireguard_pubkey: newKey() },
      object: { type: 'device' },
    };
  },
  'PUT /api/v1/device/:id': async (w, caller) => {
    const device = await w.addDevice(caller.isAdmin ? await w.newUser() : caller);
    return {
      url: `/api/v1/device/${device.id}`,
      payload: { name: `edited${w.n}`, wireguard_pubkey: newKey() },
      object: { type: 'device', id: device.id },
    };
  },
  'DELETE /api/v1/device/:id': async (w, caller) => {
    const device = await w.addDevice(caller.isAdmin ? await w.newUser() : caller);
    return { url: `/api/v1/device/${device.id}`, object: { type: 'device', id: device.id } };
  },
  'GET /api/v1/network/:network_id/device/:device_id/config': async (w, caller) => {
    const device = await w.addDevice(caller.isAdmin ? await w.newUser() : caller);
    return { url: `/api/v1/network/${device.locationId}/device/${device.id}/config`, object: { type: 'device', id: device.id } };
  },

  // network devices
  'POST /api/v1/device/network': async (w) => {
    const location = await w.newLocation();
    return {
      url: '/api/v1/device/network',
      payload: { name: `nd${w.n}`, location_id: location.id, wireguard_pubkey: newKey() },
      object: { type: 'network_device' },
    };
  },
  'PUT /api/v1/device/network/:id': async (w) => {
    const device = await w.newNetworkDevice();
    return {
      url: `/api/v1/device/network/${device.id}`,
      payload: { name: `nd-edited${w.n}`, assigned_ips: ['10.20.0.77'] },
      object: { type: 'network_device', id: device.id },
    };
  },
  'DELETE /api/v1/device/network/:id': async (w) => {
    const device = await w.newNetworkDevice();
    return { url: `/api/v1/device/network/${device.id}`, object: { type: 'network_device', id: device.id } };
  },
  'GET /api/v1/device/network/:id/config': async (w) => {
    const device = await w.newNetworkDevice();
    return { url: `/api/v1/device/network/${device.id}/config`, object: { type: 'network_device', id: device.id } };
  },
  'POST /api/v1/device/network/start_cli': async (w) => {
    const location = await w.newLocation();
    return {
      url: '/api/v1/device/network/start_cli',
      payload: { name: `cli${w.n}`, location_id: location.id },
      object: { type: 'pending_network_device' },
    };
  },
  'POST /api/v1/device/network/start_cli/:id': async (w) => {
    const device = await w.newNetworkDevice();
    return { url: `/api/v1/device/network/start_cli/${device.id}`, object: { type: 'network_device', id: device.id } };
  },
  // The token carries the authority of who issued it: the event names them (a user here, inserted directly).
  'POST /api/v1/enrollment/client/network_device': async (w, caller) => {
    const location = await w.newLocation();
    const token = randomToken(24);
    await w.db.insert(cliTokens).values({
      tokenHash: sha256(token),
      spec: { name: `cli-redeem${w.n}`, location_id: location.id },
      createdBy: caller.username,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    return {
      url: '/api/v1/enrollment/client/network_device',
      anonymous: true,
      payload: { token, wireguard_pubkey: newKey() },
      object: { type: 'network_device' },
    };
  },
  // Desktop activation: the client acts for the token's user (here the caller).
  'POST /api/v1/enrollment/client/desktop': async (w, caller) => {
    await w.newLocation();
    // The settings_enterprise fixture toggles this; a non-admin's activation is refused while it is on.
    await w.api('PATCH', '/api/v1/settings_enterprise', w.admin, { disable_manual_config: false });
    const token = randomToken(32);
    await w.db.insert(userTokens).values({
      userId: caller.id,
      purpose: 'desktop',
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    return {
      url: '/api/v1/enrollment/client/desktop',
      anonymous: true,
      payload: { token, name: `desk${w.n}`, wireguard_pubkey: newKey() },
      object: { type: 'device' },
    };
  },
  'DELETE /api/v1/device/network/pending/:id': async (w) => {
    const location = await w.newLocation();
    await w.api('POST', '/api/v1/device/network/start_cli', w.admin, { name: `pending${w.n}`, location_id: location.id });
    const pending = (await w.api('GET', '/api/v1/device/network/pending', w.admin)) as unknown as { id: number; name: string }[];
    const row = pending.find((p) => p.name === `pending${w.n}`);
    if (!row) throw new Error('no pending device');
    return { url: `/api/v1/device/network/pending/${row.id}`, object: { type: 'pending_network_device', id: row.id } };
  },

  // activity log
  'GET /api/v1/activity_log/export': async () => ({ url: '/api/v1/activity_log/export?format=jsonl', object: { type: 'activity_log' } }),

  // mail (a real SMTP server on loopback takes the test mail)
  'POST /api/v1/mail/test': async (w) => {
    const smtp = await startSmtpServer();
    smtpServers.push(smtp);
    await w.api('PATCH', '/api/v1/settings', w.admin, {
      smtp_server: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_encryption: 'none',
      smtp_sender: 'walk@example.com',
    });
    return { url: '/api/v1/mail/test', payload: { to: `walk${w.n}@example.com` }, object: { type: 'settings' } };
  },
  'POST /api/v1/mail/support': async (w) => {
    const smtp = await startSmtpServer();
    smtpServers.push(smtp);
    await w.api('PATCH', '/api/v1/settings', w.admin, {
      smtp_server: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_encryption: 'none',
      smtp_sender: 'walk@example.com',
    });
    return { url: '/api/v1/mail/support', object: { type: 'settings' } };
  },

  // webhooks (deliveries go to a loopback address the allow-list admits; no job runs in this app)
  'POST /api/v1/webhook': async (w) => ({ url: '/api/v1/webhook', payload: webhookBody(w.n), object: { type: 'webhook' } }),
  'PUT /api/v1/webhook/:id': async (w) => {
    const id = await newWebhook(w);
    return { url: `/api/v1/webhook/${id}`, payload: { ...webhookBody(w.n), description: 'edited' }, object: { type: 'webhook', id } };
  },
  'POST /api/v1/webhook/:id': async (w) => {
    const id = await newWebhook(w);
    return { url: `/api/v1/webhook/${id}`, payload: { enabled: false }, object: { type: 'webhook', id } };
  },
  'DELETE /api/v1/webhook/:id': async (w) => {
    const id = await newWebhook(w);
    return { url: `/api/v1/webhook/${id}`, object: { type: 'webhook', id } };
  },
  'POST /api/v1/webhook/:id/test': async (w) => {
    const id = await newWebhook(w);
    return { url: `/api/v1/webhook/${id}/test`, object: { type: 'webhook', id } };
  },
  'POST /api/v1/webhook/:id/deliveries/:deliveryId/redeliver': async (w) => {
    const id = await newWebhook(w);
    const queued = await w.api('POST', `/api/v1/webhook/${id}/test`, w.admin);
    return { url: `/api/v1/webhook/${id}/deliveries/${queued.delivery_id}/redeliver`, object: { type: 'webhook', id } };
  },

  // ACL rules and aliases
  'POST /api/v1/acl/rule': async (w) => ({ url: '/api/v1/acl/rule', payload: aclRuleBody(w.n), object: { type: 'acl_rule' } }),
  'PUT /api/v1/acl/rule/:id': async (w) => {
    const id = await newAclRule(w, true);
    return { url: `/api/v1/acl/rule/${id}`, payload: { ...aclRuleBody(w.n), name: `edited${w.n}` }, object: { type: 'acl_rule', id } };
  },
  'DELETE /api/v1/acl/rule/:id': async (w) => {
    const id = await newAclRule(w, true);
    return { url: `/api/v1/acl/rule/${id}`, object: { type: 'acl_rule', id } };
  },
  'PUT /api/v1/acl/rule/apply': async (w) => {
    const id = await newAclRule(w, false);
    return { url: '/api/v1/acl/rule/apply', payload: { rules: [id] }, object: { type: 'acl_rule', id } };
  },
  'PUT /api/v1/acl/rule/discard': async (w) => {
    const id = await newAclRule(w, false);
    return { url: '/api/v1/acl/rule/discard', payload: { rules: [id] }, object: { type: 'acl_rule', id } };
  },
  'POST /api/v1/acl/alias': async (w) => ({ url: '/api/v1/acl/alias', payload: aclAliasBody(w.n), object: { type: 'acl_alias' } }),
  'PUT /api/v1/acl/alias/:id': async (w) => {
    const id = await newAclAlias(w);
    return { url: `/api/v1/acl/alias/${id}`, payload: { ...aclAliasBody(w.n), name: `edited${w.n}` }, object: { type: 'acl_alias', id } };
  },
  'DELETE /api/v1/acl/alias/:id': async (w) => {
    const id = await newAclAlias(w);
    return { url: `/api/v1/acl/alias/${id}`, object: { type: 'acl_alias', id } };
  },
  'PUT /api/v1/acl/alias/apply': async (w) => {
    const { id, pendingId } = await pendingAclAliasChange(w);
    return { url: '/api/v1/acl/alias/apply', payload: { aliases: [pendingId] }, object: { type: 'acl_alias', id } };
  },
  'PUT /api/v1/acl/alias/discard': async (w) => {
    const { id, pendingId } = await pendingAclAliasChange(w);
    return { url: '/api/v1/acl/alias/discard', payload: { aliases: [pendingId] }, object: { type: 'acl_alias', id } };
  },

  // OpenID apps
  'POST /api/v1/oauth': async (w) => ({ url: '/api/v1/oauth', payload: oauthAppBody(w.n), object: { type: 'oauth_app' } }),
  'PUT /api/v1/oauth/:id': async (w) => {
    const id = await newOAuthApp(w);
    return { url: `/api/v1/oauth/${id}`, payload: { ...oauthAppBody(w.n), name: `edited${w.n}` }, object: { type: 'oauth_app', id } };
  },
  'POST /api/v1/oauth/:id': async (w) => {
    const id = await newOAuthApp(w);
    return { url: `/api/v1/oauth/${id}`, payload: { enabled: false }, object: { type: 'oauth_app', id } };
  },
  'DELETE /api/v1/oauth/:id': async (w) => {
    const id = await newOAuthApp(w);
    return { url: `/api/v1/oauth/${id}`, object: { type: 'oauth_app', id } };
  },
  'GET /api/v1/oauth/:id/secret': async (w) => {
    const id = await newOAuthApp(w);
    return { url: `/api/v1/oauth/${id}/secret`, object: { type: 'oauth_app', id } };
  },
  'POST /api/v1/oauth/:id/secret': async (w) => {
    const id = await newOAuthApp(w);
    return { url: `/api/v1/oauth/${id}/secret`, object: { type: 'oauth_app', id } };
  },

  // OpenID provider: signing keys, the consent decision
  'POST /api/v1/openid/keys/rotate': async () => ({
    url: '/api/v1/openid/keys/rotate',
    payload: { publish_ahead_hours: 24 },
    object: { type: 'settings' },
  }),
  'POST /api/v1/oauth/authorize': async (w, caller) => {
    const { uid, cookie, clientId } = await openidInteraction(w, caller);
    return { url: `/api/v1/oauth/authorize?interaction=${uid}&allow=true`, cookie, object: { type: 'oauth_app', id: clientId } };
  },
  'DELETE /api/v1/user/:username/oauth_app/:client_id': async (w, caller) => {
    const { uid, cookie, clientId } = await openidInteraction(w, caller);
    const decided = await w.request('POST', `/api/v1/oauth/authorize?interaction=${uid}&allow=true`, { cookie });
    if (decided.statusCode !== 200) throw new Error(`consent: ${decided.statusCode} ${decided.body}`);
    return { url: `/api/v1/user/${caller.username}/oauth_app/${clientId}`, object: { type: 'oauth_app', id: clientId } };
  },

  // MFA
  'POST /api/v1/auth/totp': async (w, caller) => {
    const { secret } = (await w.api('POST', '/api/v1/auth/totp/init', caller)) as { secret: string };
    return { url: '/api/v1/auth/totp', payload: { code: totpCode(secret) }, object: { type: 'user', id: caller.id } };
  },
  'POST /api/v1/auth/totp/verify': async (w, caller) => {
    const { secret } = await withTotp(w, caller);
    return {
      url: '/api/v1/auth/totp/verify',
      cookie: await pendingCookie(w, caller),
      payload: { code: totpCode(secret, 1) },
      object: { type: 'user', id: caller.id },
    };
  },
  'DELETE /api/v1/auth/totp': async (w, caller) => {
    await withTotp(w, caller);
    return { url: '/api/v1/auth/totp', object: { type: 'user', id: caller.id } };
  },
  'POST /api/v1/auth/recovery': async (w, caller) => {
    const { recoveryCodes } = await withTotp(w, caller);
    return {
      url: '/api/v1/auth/recovery',
      cookie: await pendingCookie(w, caller),
      payload: { code: recoveryCodes[0] },
      object: { type: 'user', id: caller.id },
    };
  },
  'POST /api/v1/auth/recovery/codes': async (w, caller) => {
    await withTotp(w, caller);
    return { url: '/api/v1/auth/recovery/codes', object: { type: 'user', id: caller.id } };
  },
  'PUT /api/v1/auth/mfa': async (w, caller) => {
    await withTotp(w, caller);
    return { url: '/api/v1/auth/mfa', payload: { default_method: 'totp' }, object: { type: 'user', id: caller.id } };
  },
  'DELETE /api/v1/auth/mfa': async (w, caller) => {
    await withTotp(w, caller);
    return { url: '/api/v1/auth/mfa', payload: { password: USER_PASSWORD }, object: { type: 'user', id: caller.id } };
  },
  'DELETE /api/v1/user/:username/mfa': async (w) => {
    const target = await w.newUser();
    await withTotp(w, target);
    return { url: `/api/v1/user/${target.username}/mfa`, object: { type: 'user', id: target.id } };
  },

  'POST /api/v1/auth/email': async (w, caller) => {
    const smtp = await walkSmtp(w);
    await w.api('POST', '/api/v1/auth/email/init', caller);
    return { url: '/api/v1/auth/email', payload: { code: await mailedCode(smtp, 1) }, object: { type: 'user', id: caller.id } };
  },
  'POST /api/v1/auth/email/verify': async (w, caller) => {
    const smtp = await withEmailCodes(w, caller);
    const cookie = await pendingCookie(w, caller);
    await w.api('GET', '/api/v1/auth/email', { ...caller, cookie });
    const code = await mailedCode(smtp, 2);
    return { url: '/api/v1/auth/email/verify', cookie, payload: { code }, object: { type: 'user', id: caller.id } };
  },
  'DELETE /api/v1/auth/email': async (w, caller) => {
    await withEmailCodes(w, caller);
    return { url: '/api/v1/auth/email', object: { type: 'user', id: caller.id } };
  },
  'POST /api/v1/auth/webauthn/finish': async (w, caller) => {
    const options = await w.api('POST', '/api/v1/auth/webauthn/init', caller);
    const response = new SoftAuthenticator(WALK_ORIGIN).register(options as { challenge: string; rp: { id?: string } });
    return { url: '/api/v1/auth/webauthn/finish', payload: { name: `key${w.n}`, response }, object: { type: 'user', id: caller.id } };
  },
  'POST /api/v1/auth/webauthn': async (w, caller) => {
    const key = await withSecurityKey(w, caller);
    const cookie = await pendingCookie(w, caller);
    const options = await w.api('POST', '/api/v1/auth/webauthn/start', { ...caller, cookie });
    const response = key.authenticate(options as { challenge: string; rpId?: string });
    return { url: '/api/v1/auth/webauthn', cookie, payload: { response }, object: { type: 'user', id: caller.id } };
  },
  'DELETE /api/v1/user/:username/security_key/:keyId': async (w, caller) => {
    await withSecurityKey(w, caller);
    const [key] = (await w.api('GET', `/api/v1/user/${caller.username}/security_key`, caller)) as unknown as { id: number }[];
    return { url: `/api/v1/user/${caller.username}/security_key/${key?.id}`, object: { type: 'user', id: caller.id } };
  },

  // authentication keys
  'POST /api/v1/user/:username/auth_key': async (_w, caller) => ({
    url: `/api/v1/user/${caller.username}/auth_key`,
    payload: { name: 'walk key', key_type: 'ssh', key: freshSshPublicKey() },
    object: { type: 'auth_key' },
  }),
  'POST /api/v1/user/:username/auth_key/:id/rename': async (w, caller) => {
    const id = await newAuthKey(w, caller);
    return { url: `/api/v1/user/${caller.username}/auth_key/${id}/rename`, payload: { name: 'renamed' }, object: { type: 'auth_key', id } };
  },
  'DELETE /api/v1/user/:username/auth_key/:id': async (w, caller) => {
    const id = await newAuthKey(w, caller);
    return { url: `/api/v1/user/${caller.username}/auth_key/${id}`, object: { type: 'auth_key', id } };
  },

  // API tokens
  'POST /api/v1/user/:username/api_token': async (_w, caller) => ({
    url: `/api/v1/user/${caller.username}/api_token`,
    payload: { name: 'walk token' },
    object: { type: 'api_token' },
  }),
  'POST /api/v1/user/:username/api_token/:id/rename': async (w, caller) => {
    const id = await newApiToken(w, caller);
    return {
      url: `/api/v1/user/${caller.username}/api_token/${id}/rename`,
      payload: { name: 'renamed' },
      object: { type: 'api_token', id },
    };
  },
  'DELETE /api/v1/user/:username/api_token/:id': async (w, caller) => {
    const id = await newApiToken(w, caller);
    return { url: `/api/v1/user/${caller.username}/api_token/${id}`, object: { type: 'api_token', id } };
  },

  // YubiKey provisioning
  'POST /api/v1/worker/job': async (w) => {
    const worker = await newWorker(w);
    const user = await w.newUser();
    return {
      url: '/api/v1/worker/job',
      payload: { worker: worker.name, username: user.username },
      object: { type: 'worker', id: worker.id },
    };
  },
  'DELETE /api/v1/worker/:id': async (w) => {
    const worker = await newWorker(w);
    return { url: `/api/v1/worker/${worker.id}`, object: { type: 'worker', id: worker.id } };
  },
  'POST /api/v1/user/:username/yubikey/:id/rename': async (w, caller) => {
    const id = await newYubikey(w, caller);
    return { url: `/api/v1/user/${caller.username}/yubikey/${id}/rename`, payload: { name: 'renamed' }, object: { type: 'yubikey', id } };
  },
  'DELETE /api/v1/user/:username/yubikey/:id': async (w, caller) => {
    const id = await newYubikey(w, caller);
    return { url: `/api/v1/user/${caller.username}/yubikey/${id}`, object: { type: 'yubikey', id } };
  },

  // activity-log streams
  'POST /api/v1/activity_log_stream': async (w) => ({
    url: '/api/v1/activity_log_stream',
    payload: streamBody(w.n),
    object: { type: 'activity_log_stream' },
  }),
  'PUT /api/v1/activity_log_stream/:id': async (w) => {
    const id = await newStream(w);
    return {
      url: `/api/v1/activity_log_stream/${id}`,
      payload: { ...streamBody(w.n), name: `edited${w.n}` },
      object: { type: 'activity_log_stream', id },
    };
  },
  'DELETE /api/v1/activity_log_stream/:id': async (w) => {
    const id = await newStream(w);
    return { url: `/api/v1/activity_log_stream/${id}`, object: { type: 'activity_log_stream', id } };
  },

  // VPN sessions of MFA-protected locations
  'POST /api/v1/vpn_session/finish': async (w, caller) => {
    const { secret, locationId, challenge } = await vpnChallenge(w, caller);
    return {
      url: '/api/v1/vpn_session/finish',
      payload: { challenge, code: totpCode(secret, 1) },
      object: { type: 'location', id: locationId },
    };
  },
  'DELETE /api/v1/vpn_session/:id': async (w, caller) => {
    const { secret, locationId, challenge } = await vpnChallenge(w, caller);
    const started = await w.api('POST', '/api/v1/vpn_session/finish', caller, { challenge, code: totpCode(secret, 1) });
    const id = (started.session as { id: number }).id;
    return { url: `/api/v1/vpn_session/${id}`, object: { type: 'location', id: locationId } };
  },
};

/** An MFA-protected location, a device of `caller` in it, TOTP enabled, and a started session's challenge. */
async function vpnChallenge(w: World, caller: Caller): Promise<{ secret: string; locationId: number; challenge: string }> {
  const location = await w.api('POST', '/api/v1/network', w.admin, locationBody({ name: `mfa${w.n}`, mfa_enabled: true }));
  const key = newKey();
  await w.api('POST', `/api/v1/device/${caller.username}`, caller, { name: `vpn${w.n}`, wireguard_pubkey: key });
  const { secret } = await withTotp(w, caller);
  const started = await w.api('POST', '/api/v1/vpn_session/start', caller, { location_id: location.id, device_pubkey: key });
  return { secret, locationId: location.id as number, challenge: started.challenge as string };
}

/** TOTP enabled for `caller` through the API; returns the secret and the recovery codes. */
async function withTotp(w: World, caller: Caller): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = (await w.api('POST', '/api/v1/auth/totp/init', caller)) as { secret: string };
  const enabled = await w.api('POST', '/api/v1/auth/totp', caller, { code: totpCode(secret) });
  return { secret, recoveryCodes: (enabled.recovery_codes as string[] | undefined) ?? [] };
}
/** A pending-MFA session of `caller` (as after the password step). */
async function pendingCookie(w: World, caller: Caller): Promise<string> {
  const token = randomToken();
  await w.db
    .insert(sessions)
    .values({ id: sha256(token), userId: caller.id, state: 'mfa_pending', expiresAt: new Date(Date.now() + 300_000) });
  return `palisade_session=${token}`;
}
/** SMTP configured to a fresh loopback server (closed after the walk). */
async function walkSmtp(w: World): Promise<TestSmtpServer> {
  const smtp = await startSmtpServer();
  smtpServers.push(smtp);
  await w.api('PATCH', '/api/v1/settings', w.admin, {
    smtp_server: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_encryption: 'none',
    smtp_sender: 'walk@example.com',
  });
  return smtp;
}
/** The code in the `n`th mail `smtp` received. */
async function mailedCode(smtp: TestSmtpServer, n: number): Promise<string> {
  const mail = (await smtp.waitFor(n))[n - 1];
  const code = /\b(\d{6})\b/.exec(bodyOf(mail?.raw ?? ''))?.[1];
  if (!code) throw new Error('no code in the mail');
  return code;
}
/** Email codes enabled for `caller` through the API; returns the SMTP server that got the mail. */
async function withEmailCodes(w: World, caller: Caller): Promise<TestSmtpServer> {
  const smtp = await walkSmtp(w);
  await w.api('POST', '/api/v1/auth/email/init', caller);
  await w.api('POST', '/api/v1/auth/email', caller, { code: await mailedCode(smtp, 1) });
  return smtp;
}
/** The origin injected requests come from (no PUBLIC_URL in this app): WebAuthn's expected origin. */
const WALK_ORIGIN = 'http://localhost';
/** A security key registered for `caller` through the API. */
async function withSecurityKey(w: World, caller: Caller): Promise<SoftAuthenticator> {
  const key = new SoftAuthenticator(WALK_ORIGIN);
  const options = await w.api('POST', '/api/v1/auth/webauthn/init', caller);
  const response = key.register(options as { challenge: string; rp: { id?: string } });
  await w.api('POST', '/api/v1/auth/webauthn/finish', caller, { name: `key${w.n}`, response });
  return key;
}
const webhookBody = (n: number) => ({ url: `http://127.0.0.1:9/hook${n}`, token: `walk-secret-${n}`, triggers: ['user.created'] });
const streamBody = (n: number) => ({ kind: 'vector_http', name: `stream${n}`, url: `http://127.0.0.1:9/stream${n}` });

const oauthAppBody = (n: number) => ({ name: `app${n}`, redirect_uris: [`https://app${n}.example.com/callback`], scopes: ['openid'] });
async function newOAuthApp(w: World): Promise<string> {
  return (await w.api('POST', '/api/v1/oauth', w.admin, oauthAppBody(w.n))).client_id as string;
}

/** An OpenID authorization of a new public app, waiting for consent in `caller`'s browser (its cookies). */
async function openidInteraction(w: World, caller: Caller): Promise<{ uid: string; cookie: string; clientId: string }> {
  const clientId = `walkapp${w.n}`;
  const redirect = 'http://localhost:9999/cb';
  await w.db.insert(oauthClients).values({ clientId, name: `Walk app ${w.n}`, redirectUris: [redirect], scopes: ['openid'], public: true });
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: redirect,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  const res = await w.request('GET', `/api/v1/oidc/auth?${query}`);
  const uid = new URL(String(res.headers.location), 'http://walk').searchParams.get('interaction');
  if (res.statusCode !== 303 || !uid) throw new Error(`authorization request: ${res.statusCode} ${res.body}`);
  const provider = [res.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);
  return { uid, clientId, cookie: [caller.cookie, ...provider].join('; ') };
}

const aclRuleBody = (n: number, aliases: number[] = []) => ({ name: `rule${n}`, all_locations: true, allow_all_users: true, aliases });
const aclAliasBody = (n: number) => ({ name: `alias${n}`, kind: 'destination', destinations: [`10.${n % 250}.0.0/24`] });
/** A new ACL rule, deployed when `deploy`. */
async function newAclRule(w: World, deploy: boolean, aliases: number[] = []): Promise<number> {
  const id = (await w.api('POST', '/api/v1/acl/rule', w.admin, aclRuleBody(w.n, aliases))).id as number;
  if (deploy) await w.api('PUT', '/api/v1/acl/rule/apply', w.admin, { rules: [id] });
  return id;
}
async function newAclAlias(w: World): Promise<number> {
  return (await w.api('POST', '/api/v1/acl/alias', w.admin, aclAliasBody(w.n))).id as number;
}
/** An alias a deployed rule uses, with a pending change. */
async function pendingAclAliasChange(w: World): Promise<{ id: number; pendingId: number }> {
  const id = await newAclAlias(w);
  await newAclRule(w, true, [id]);
  const pending = await w.api('PUT', `/api/v1/acl/alias/${id}`, w.admin, { ...aclAliasBody(w.n), name: `changed${w.n}` });
  return { id, pendingId: pending.id as number };
}

async function newWebhook(w: World): Promise<number> {
  return (await w.api('POST', '/api/v1/webhook', w.admin, webhookBody(w.n))).id as number;
}
async function newStream(w: World): Promise<number> {
  return (await w.api('POST', '/api/v1/activity_log_stream', w.admin, streamBody(w.n))).id as number;
}

/** Routes a plain user may call on their own account or objects: walked as that user too. */
const SELF_ACCESS: RouteRule['access'][] = ['user', 'self_or_admin', 'owner_or_admin'];

interface EventRow {
  actor_type: string;
  user_id: number | null;
  username: string | null;
  ip: string | null;
  user_agent: string | null;
  type: string;
  object_type: string | null;
  object_id: string | null;
}

describe('route-walking events: every state-changing route records who did what, from where', () => {
  let t: TestApp;
  let walk: RouteWalk;
  let counter = 0;

  beforeAll(async () => {
    walk = await startRouteWalk();
    t = walk.t;
    // Webhook and stream targets on loopback pass the egress guard (nothing is sent: no jobs run).
    await t.database.db.update(settings).set({ egressAllowCidrs: ['127.0.0.0/8'] });
  });
  afterAll(async () => {
    await Promise.all(smtpServers.map((s) => s.close()));
    await stopLdapSyncWalk();
    await closeWalkIdp();
    await stopEnrollmentWalk();
    await t.close();
  });

  /** The routes this walk must cover, from the app's own route table. */
  const walked = () => [...new Set(walk.apiRouteKeys().filter((key) => !key.startsWith('GET ') || RECORDING_GETS.has(key)))].sort();

  const sessionFor = (userId: number) => walk.sessionFor(userId);

  async function world(): Promise<World> {
    const n = ++counter;
    const db = t.database.db;
    let made = 0;
    const insertUser = async (prefix: string, admin = false): Promise<Caller> => {
      const username = `${prefix}${n}x${++made}`;
      const row = await walk.insertUser(username);
      if (admin) await db.insert(groupMembers).values({ groupId: walk.adminGroupId, userId: row.id });
      return { id: row.id, username, cookie: await sessionFor(row.id), isAdmin: admin };
    };
    const admin = await insertUser('boss', true);
    const api = async (method: HttpMethod, url: string, as: Caller, payload?: unknown) => {
      const res = await t.request(method, url, { cookie: as.cookie, ...(payload === undefined ? {} : { payload }) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.body ? (res.json() as Record<string, unknown>) : {};
    };
    const newLocation = async () => {
      const created = await api('POST', '/api/v1/network', admin, locationBody({ name: `loc${n}x${++made}` }));
      return { id: created.id as number, name: created.name as string };
    };
    return {
      n,
      admin,
      db,
      request: t.request,
      newUser: () => insertUser('walker'),
      async newGroup(members = []) {
        const [group] = await db
          .insert(groups)
          .values({ name: `walkgroup${n}x${++made}` })
          .returning();
        if (!group) throw new Error('insert failed');
        if (members.length > 0) await db.insert(groupMembers).values(members.map((userId) => ({ groupId: group.id, userId })));
        return { id: group.id, name: group.name };
      },
      newLocation,
      async addDevice(owner, locationId) {
        const location = locationId ?? (await newLocation()).id;
        const created = await api('POST', `/api/v1/device/${owner.username}`, admin, {
          name: `dev${n}x${++made}`,
          wireguard_pubkey: newKey(),
        });
        return { id: (created.device as { id: number }).id, locationId: location };
      },
      async newNetworkDevice() {
        const location = await newLocation();
        const created = await api('POST', '/api/v1/device/network', admin, {
          name: `nd${n}x${++made}`,
          location_id: location.id,
          wireguard_pubkey: newKey(),
        });
        return { id: (created.device as { id: number }).id, locationId: location.id };
      },
      api,
    } as World;
  }

  async function eventsFrom(ip: string, userAgent: string): Promise<EventRow[]> {
    const result = await t.database.db.execute(
      sql`select actor_type, user_id, username, ip, user_agent, type, object_type, object_id from events
          where ip = ${ip} and user_agent = ${userAgent} order by id`,
    );
    return (result as unknown as { rows: EventRow[] }).rows;
  }

  it('walks every state-changing route (the list comes from the registered routes)', () => {
    const routes = walked();
    expect(routes.length).toBeGreaterThan(30);
    const unknown = routes
      .filter((key) => !(key in FIXTURES) && !(key in NON_MUTATING) && !(key in STATION_ROUTES))
      .map((key) => `add a fixture for ${key}`);
    expect(unknown).toEqual([]);
    // And no fixture names a route that does not exist (a renamed route must be renamed here).
    expect(Object.keys(FIXTURES).filter((key) => !routes.includes(key))).toEqual([]);
    expect(Object.keys(STATION_ROUTES).filter((key) => !routes.includes(key))).toEqual([]);
  });

  const variants = (key: string): ('admin' | 'user')[] => {
    const rule = (ROUTE_ACCESS as Record<string, RouteRule>)[key];
    if (rule?.access === 'public') return ['user'];
    return rule && SELF_ACCESS.includes(rule.access) ? ['admin', 'user'] : ['admin'];
  };

  // One test per route and caller, so a failure names the route.
  const keys = Object.keys(FIXTURES).sort();
  const cases = keys.flatMap((key) => variants(key).map((as) => [key, as] as const));
  it.each(cases)('%s as %s records its event', async (key, as) => {
    if (!walked().includes(key)) return; // The route has not landed (the first test lists it).
    const fixture = FIXTURES[key];
    if (!fixture) throw new Error(`add a fixture for ${key}`);
    const w = await world();
    const caller = as === 'admin' ? w.admin : await w.newUser();
    const call = await fixture(w, caller);
    const [method] = key.split(' ') as [HttpMethod];
    const ip = `198.51.${Math.floor(w.n / 250)}.${(w.n % 250) + 1}`;
    const userAgent = `events-walk/${w.n} (${key})`;
    const res = await t.request(method, call.url, {
      ...(call.anonymous ? {} : { cookie: call.cookie ?? caller.cookie }),
      ...(call.payload === undefined ? {} : { payload: call.payload }),
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(300);
    const recorded = await eventsFrom(ip, userAgent);
    expect(recorded.length, `${key} recorded no event`).toBeGreaterThan(0);
    const match = recorded.find(
      (e) =>
        e.actor_type === 'user' &&
        e.user_id === caller.id &&
        e.username === caller.username &&
        e.object_type === call.object.type &&
        (call.object.id === undefined || e.object_id === String(call.object.id)),
    );
    expect(match, `${key}: no event by ${caller.username} on ${JSON.stringify(call.object)} in ${JSON.stringify(recorded)}`).toBeDefined();
  });

  it('the routes listed as non-mutating record nothing', async () => {
    const w = await world();
    const location = await w.newLocation();
    const calls: Record<string, Call> = {
      'POST /api/v1/user/available': { url: '/api/v1/user/available', payload: { username: 'nobody-here' }, object: { type: 'user' } },
      'POST /api/v1/device/network/ip/:location': {
        url: `/api/v1/device/network/ip/${location.id}`,
        payload: { ips: ['10.20.0.99'] },
        object: { type: 'location' },
      },
      'POST /api/v1/auth/totp/init': { url: '/api/v1/auth/totp/init', object: { type: 'user' } },
      'POST /api/v1/openid/verify': await (async () => {
        const { uid, cookie } = await openidInteraction(w, w.admin);
        return { url: '/api/v1/openid/verify', payload: { interaction: uid }, cookie, object: { type: 'oauth_app' } };
      })(),
      'POST /api/v1/vpn_session/start': await (async () => {
        const mfa = await w.api('POST', '/api/v1/network', w.admin, locationBody({ name: `mfa-nm${w.n}`, mfa_enabled: true }));
        const owner = await w.newUser();
        const key = newKey();
        await w.api('POST', `/api/v1/device/${owner.username}`, owner, { name: `vpn-nm${w.n}`, wireguard_pubkey: key });
        await withTotp(w, owner);
        const payload = { location_id: mfa.id, device_pubkey: key };
        return { url: '/api/v1/vpn_session/start', payload, cookie: owner.cookie, object: { type: 'location' } };
      })(),
      'POST /api/v1/auth/email/init': await (async () => {
        await walkSmtp(w);
        return { url: '/api/v1/auth/email/init', object: { type: 'user' } };
      })(),
      'POST /api/v1/auth/webauthn/init': { url: '/api/v1/auth/webauthn/init', object: { type: 'user' } },
      'POST /api/v1/password_reset/start': {
        url: '/api/v1/password_reset/start',
        payload: { token: await resetToken(w, w.admin.id) },
        object: { type: 'user' },
      },
      'POST /api/v1/auth/webauthn/start': {
        url: '/api/v1/auth/webauthn/start',
        cookie: await pendingCookie(w, w.admin),
        object: { type: 'user' },
      },
    };
    expect(Object.keys(calls).sort()).toEqual(Object.keys(NON_MUTATING).sort());
    for (const [key, call] of Object.entries(calls)) {
      const userAgent = `events-walk/non-mutating/${key}`;
      const res = await t.request(key.split(' ')[0] as HttpMethod, call.url, {
        cookie: call.cookie ?? w.admin.cookie,
        payload: call.payload,
        remoteAddress: '192.0.2.200',
        headers: { 'user-agent': userAgent },
      });
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(300);
      expect(await eventsFrom('192.0.2.200', userAgent)).toEqual([]);
    }
  });
});
