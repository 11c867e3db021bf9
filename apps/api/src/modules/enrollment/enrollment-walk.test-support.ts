import { generateKeyPair } from '@palisade/wireguard';
import type { Db } from '#src/db/client.js';
import type { HttpMethod, RequestOptions } from '#test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { UserTokensRepo } from './user-tokens.repo.js';
import { newUserToken } from './user-tokens.js';

/** The parts of the events walk's world these fixtures use (test/events-walk.int.test.ts). */
interface WalkWorld {
  n: number;
  db: unknown;
  admin: { cookie: string };
  newUser(): Promise<{ id: number; username: string; cookie: string }>;
  api(method: HttpMethod, url: string, as: { cookie: string }, payload?: unknown): Promise<Record<string, unknown>>;
  request(
    method: HttpMethod,
    url: string,
    options?: RequestOptions,
  ): Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>;
}
type WalkCaller = { id: number; username: string };

const smtpServers: TestSmtpServer[] = [];

/** Points the instance's mail at a private SMTP server (closed by stopEnrollmentWalk). */
async function walkSmtp(w: WalkWorld): Promise<void> {
  const smtp = await startSmtpServer();
  smtpServers.push(smtp);
  await w.api('PATCH', '/api/v1/settings', w.admin, {
    smtp_server: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_encryption: 'none',
    smtp_sender: 'walk@example.com',
  });
}

export async function stopEnrollmentWalk(): Promise<void> {
  await Promise.all(smtpServers.splice(0).map((s) => s.close()));
}

/** A live password reset token of the user (as the emailed link carries it). */
export async function resetToken(w: { db: unknown }, userId: number): Promise<string> {
  const { token, hash } = newUserToken();
  await new UserTokensRepo(w.db as Db).issue({
    userId,
    purpose: 'password_reset',
    tokenHash: hash,
    expiresAt: new Date(Date.now() + 3_600_000),
    createdByUserId: null,
  });
  return token;
}

/** An enrollment token for `username`, started by the walk's admin (the walk's users have passwords). */
async function enrollmentToken(w: WalkWorld, username: string): Promise<string> {
  const started = await w.api('POST', `/api/v1/user/${username}/start_enrollment`, w.admin, { send_email: false, re_enroll: true });
  return started.token as string;
}

/** The flow cookie of an opened enrollment of `caller`. */
async function flowCookie(w: WalkWorld, caller: WalkCaller): Promise<string> {
  const token = await enrollmentToken(w, caller.username);
  const res = await w.request('POST', '/api/v1/enrollment/start', { payload: { token } });
  if (res.statusCode !== 200) throw new Error(`enrollment start: ${res.statusCode} ${res.body}`);
  const set = res.headers['set-cookie'];
  const list = Array.isArray(set) ? (set as string[]) : [String(set)];
  return (list.find((c) => c.startsWith('palisade_enrollment=')) ?? '').split(';')[0] ?? '';
}

/** Events-walk fixtures of the enrollment routes: the enrolling person is the caller (their token). */
export const ENROLLMENT_FIXTURES = {
  'POST /api/v1/user/:username/start_enrollment': async (w: WalkWorld) => {
    const target = await w.newUser();
    return {
      url: `/api/v1/user/${target.username}/start_enrollment`,
      payload: { send_email: false, re_enroll: true },
      object: { type: 'user', id: target.id },
    };
  },
  'POST /api/v1/user/:username/start_desktop': async (w: WalkWorld) => {
    const target = await w.newUser();
    return { url: `/api/v1/user/${target.username}/start_desktop`, payload: {}, object: { type: 'user', id: target.id } };
  },
  'POST /api/v1/enrollment/start': async (w: WalkWorld, caller: WalkCaller) => ({
    url: '/api/v1/enrollment/start',
    payload: { token: await enrollmentToken(w, caller.username) },
    anonymous: true,
    object: { type: 'user', id: caller.id },
  }),
  'POST /api/v1/enrollment/password': async (w: WalkWorld, caller: WalkCaller) => ({
    url: '/api/v1/enrollment/password',
    payload: { password: 'Walk3r-enrolled!' },
    cookie: await flowCookie(w, caller),
    object: { type: 'user', id: caller.id },
  }),
  'POST /api/v1/enrollment/device': async (w: WalkWorld, caller: WalkCaller) => ({
    url: '/api/v1/enrollment/device',
    payload: { name: `enrolled${w.n}`, wireguard_pubkey: generateKeyPair().publicKey },
    cookie: await flowCookie(w, caller),
    object: { type: 'device' },
  }),
  'POST /api/v1/enrollment/finish': async (w: WalkWorld, caller: WalkCaller) => ({
    url: '/api/v1/enrollment/finish',
    payload: {},
    cookie: await flowCookie(w, caller),
    object: { type: 'user', id: caller.id },
  }),
  'POST /api/v1/user/:username/reset_password': async (w: WalkWorld) => {
    await walkSmtp(w);
    const target = await w.newUser();
    return { url: `/api/v1/user/${target.username}/reset_password`, payload: { locale: 'pl' }, object: { type: 'user', id: target.id } };
  },
  'POST /api/v1/password_reset/request': async (w: WalkWorld, caller: WalkCaller) => {
    await walkSmtp(w);
    const user = await w.api('GET', `/api/v1/user/${caller.username}`, w.admin);
    return {
      url: '/api/v1/password_reset/request',
      payload: { email: user.email },
      anonymous: true,
      object: { type: 'user', id: caller.id },
    };
  },
  'POST /api/v1/password_reset/finish': async (w: WalkWorld, caller: WalkCaller) => ({
    url: '/api/v1/password_reset/finish',
    payload: { token: await resetToken(w, caller.id), password: 'Walk3r-reset!pass' },
    anonymous: true,
    object: { type: 'user', id: caller.id },
  }),
};
