import { generateKeyPairSync } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { sqlRows } from './crash-checks';

/**
 * A burst of concurrent writes through the API for the crash test (crash-safety.spec.ts). Each
 * worker owns its own users, devices and network devices and sends one request at a time, so
 * what it was told (2xx answers) is a well-defined state: the database must hold exactly that
 * state, or that state plus the one request that was in flight when the API died.
 */

/** A fresh WireGuard public key (X25519, base64). */
export function publicKey(): string {
  const der = generateKeyPairSync('x25519').publicKey.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('base64');
}

interface UserModel {
  inGroup: boolean;
  /** Device name → id (undefined for a device whose creation was not answered). */
  devices: Map<string, number | undefined>;
}

/** What one worker's objects look like: its users (group membership, devices) and network devices. */
export class WorkerModel {
  users = new Map<string, UserModel>();
  networkDevices = new Map<string, number | undefined>();

  clone(): WorkerModel {
    const copy = new WorkerModel();
    for (const [name, u] of this.users) copy.users.set(name, { inGroup: u.inGroup, devices: new Map(u.devices) });
    copy.networkDevices = new Map(this.networkDevices);
    return copy;
  }

  /** Ids do not matter (an unanswered creation has none): names, membership, devices. */
  canonical(): string {
    const users = [...this.users.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, u]) => `${name}:${u.inGroup ? 'g' : '-'}:${[...u.devices.keys()].sort().join(',')}`);
    return `${users.join(';')}|${[...this.networkDevices.keys()].sort().join(',')}`;
  }
}

interface Op {
  label: string;
  send: () => Promise<{ status: () => number; json: () => Promise<unknown> }>;
  status: number;
  apply: (model: WorkerModel, body: unknown) => void;
}

export interface BurstOptions {
  http: APIRequestContext;
  workers: number;
  /** Requests each worker sends at most (the kill normally ends the burst long before). */
  perWorker: number;
  group: string;
  locationId: number;
  /** Called once, synchronously, when `killAfter` requests have been answered. */
  killAfter: number;
  kill: () => void;
}

export interface BurstResult {
  acked: WorkerModel[];
  /** Per worker: its state had the in-flight request (if any) committed. */
  withPending: (WorkerModel | undefined)[];
  answered: number;
  inFlightAtKill: number;
  unexpected: string[];
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

function nextOp(w: number, model: WorkerModel, counter: { n: number }, options: BurstOptions): Op {
  const { http, group, locationId } = options;
  const users = [...model.users.keys()];
  const r = Math.random();
  const n = counter.n++;
  if (users.length === 0 || (r < 0.08 && users.length < 4)) {
    const username = `cw${w}u${n}`;
    return {
      label: `create user ${username}`,
      send: () =>
        http.post('/api/v1/user', { data: { username, first_name: 'Crash', last_name: `W${w}`, email: `${username}@crash.example` } }),
      status: 201,
      apply: (m) => m.users.set(username, { inGroup: false, devices: new Map() }),
    };
  }
  const username = pick(users)!;
  const user = model.users.get(username)!;
  const ownDevices = [...user.devices.entries()].filter(([, id]) => id !== undefined);
  const networkDevices = [...model.networkDevices.entries()].filter(([, id]) => id !== undefined);
  if (r < 0.22 && ownDevices.length > 0) {
    const [name, id] = pick(ownDevices)!;
    return {
      label: `delete device ${name}`,
      send: () => http.delete(`/api/v1/device/${id}`),
      status: 204,
      apply: (m) => m.users.get(username)?.devices.delete(name),
    };
  }
  if (r < 0.3 && networkDevices.length > 0) {
    const [name, id] = pick(networkDevices)!;
    return {
      label: `delete network device ${name}`,
      send: () => http.delete(`/api/v1/device/network/${id}`),
      status: 204,
      apply: (m) => m.networkDevices.delete(name),
    };
  }
  if (r < 0.45) {
    const name = `cw${w}n${n}`;
    return {
      label: `create network device ${name}`,
      send: () => http.post('/api/v1/device/network', { data: { name, location_id: locationId, wireguard_pubkey: publicKey() } }),
      status: 201,
      apply: (m, body) => m.networkDevices.set(name, (body as { device?: { id: number } } | undefined)?.device?.id),
    };
  }
  if (r < 0.62) {
    const join = !user.inGroup;
    return {
      label: `${join ? 'add' : 'remove'} ${username} ${join ? 'to' : 'from'} ${group}`,
      send: () =>
        join ? http.post(`/api/v1/group/${group}`, { data: { username } }) : http.delete(`/api/v1/group/${group}/user/${username}`),
      status: join ? 200 : 204,
      apply: (m) => {
        const u = m.users.get(username);
        if (u) u.inGroup = join;
      },
    };
  }
  if (r < 0.67 && users.length >= 2) {
    return {
      label: `delete user ${username}`,
      send: () => http.delete(`/api/v1/user/${username}`),
      status: 204,
      apply: (m) => m.users.delete(username),
    };
  }
  const name = `cw${w}d${n}`;
  return {
    label: `create device ${name}`,
    send: () => http.post(`/api/v1/device/${username}`, { data: { name, wireguard_pubkey: publicKey() } }),
    status: 201,
    apply: (m, body) => m.users.get(username)?.devices.set(name, (body as { device?: { id: number } } | undefined)?.device?.id),
  };
}

/** Runs the burst until the kill (or `perWorker` requests each); resolves when every worker has stopped. */
export async function runBurst(options: BurstOptions): Promise<BurstResult> {
  const acked = Array.from({ length: options.workers }, () => new WorkerModel());
  const withPending: (WorkerModel | undefined)[] = acked.map(() => undefined);
  const unexpected: string[] = [];
  const state = { answered: 0, inFlight: 0, inFlightAtKill: 0, killed: false };
  const counter = { n: 0 };
  const worker = async (w: number) => {
    for (let i = 0; i < options.perWorker && !state.killed; i++) {
      const op = nextOp(w, acked[w]!, counter, options);
      const pending = acked[w]!.clone();
      op.apply(pending, undefined);
      withPending[w] = pending;
      state.inFlight++;
      let response: Awaited<ReturnType<Op['send']>>;
      let body: unknown;
      try {
        response = await op.send();
        body = response.status() === 204 ? undefined : await response.json();
      } catch {
        // The API died with this request in flight: it may or may not have committed.
        return;
      }
      state.inFlight--;
      withPending[w] = undefined;
      if (response.status() === op.status) op.apply(acked[w]!, body);
      else unexpected.push(`${op.label}: ${response.status()} ${JSON.stringify(body)}`);
      if (++state.answered === options.killAfter) {
        state.killed = true;
        state.inFlightAtKill = state.inFlight;
        options.kill();
      }
    }
  };
  await Promise.all(acked.map((_, w) => worker(w)));
  return { acked, withPending, answered: state.answered, inFlightAtKill: state.inFlightAtKill, unexpected };
}

/** The workers' objects as the database holds them. */
export async function modelsInDatabase(url: string, workers: number, group: string): Promise<WorkerModel[]> {
  const models = Array.from({ length: workers }, () => new WorkerModel());
  const worker = (name: string) => models[Number(/^cw(\d+)[udn]/.exec(name)?.[1] ?? -1)];
  for (const row of await sqlRows(
    url,
    `select u.username,
            exists (select 1 from group_members gm join groups g on g.id = gm.group_id where g.name = '${group}' and gm.user_id = u.id),
            coalesce((select string_agg(d.name, ',') from devices d where d.user_id = u.id), '')
       from users u where u.username like 'cw%'`,
  )) {
    const [username = '', inGroup, devices = ''] = row.split('|');
    worker(username)?.users.set(username, {
      inGroup: inGroup === 't',
      devices: new Map(
        devices
          .split(',')
          .filter(Boolean)
          .map((d) => [d, undefined]),
      ),
    });
  }
  for (const name of await sqlRows(url, `select name from devices where kind = 'network' and name like 'cw%'`)) {
    worker(name)?.networkDevices.set(name, undefined);
  }
  return models;
}
