import { generateKeyPair } from '@palisade/wireguard';
import type { HttpMethod, RequestOptions } from '#test/helpers.js';

/** The parts of the events walk's world these fixtures use (test/events-walk.int.test.ts). */
interface WalkWorld {
  n: number;
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
};
