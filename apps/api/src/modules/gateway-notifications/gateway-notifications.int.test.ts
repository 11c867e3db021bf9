import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { createTestApp, problemOf, resetDatabase, snapshot, type TestApp } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';
import { GatewayNotifier } from './gateway-notifications.service.js';

const SMTP = { smtp_server: '127.0.0.1', smtp_port: 2525, smtp_encryption: 'none', smtp_sender: 'vpn@example.com' };
const ON = { gateway_disconnect_notifications_enabled: true, gateway_reconnect_notifications_enabled: true };

describe('gateway notifications', () => {
  let t: TestApp;
  let admin: string;
  let db: Db;
  let locationId: number;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://vpn.example.com' });
    db = t.database.db;
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    locationId = (await createLocation(t.app, admin, { name: 'Berlin' })).id;
  });
  afterAll(() => t.close());

  const patch = (payload: Record<string, unknown>) => t.request('PATCH', '/api/v1/settings', { cookie: admin, payload });
  const notifier = () => new GatewayNotifier(db, t.app.services.mail, 'https://vpn.example.com/');
  const outbox = () =>
    queryRows<{ to: string; template: string; locale: string }>(db, sql`select "to", template, locale from mail_outbox order by id`);
  /** A gateway row as the control plane leaves it; `down` minutes since it disconnected (null: connected). */
  const gateway = async (down: number | null) => {
    const [row] = await queryRows<{ id: number }>(
      db,
      sql`insert into gateways (location_id, gateway_id, name, hostname, version, stream_id, connected_at, disconnected_at, last_seen_at)
          values (${locationId}, ${`gw-${Math.random()}`}, 'edge-1', 'edge-1.example.com', '1.0.0',
                  ${down === null ? 'stream-1' : null}, now() - interval '1 hour',
                  ${down === null ? null : sql`now() - make_interval(mins => ${down})`}, now() - make_interval(mins => ${down ?? 0}))
          returning id`,
    );
    return row?.id ?? 0;
  };
  const reconnect = (id: number) =>
    db.execute(
      sql`update gateways set stream_id = 'stream-2', connected_at = now(), disconnected_at = null, last_seen_at = now() where id = ${id}`,
    );

  describe('settings', () => {
    it('start off with a 5 minute threshold and need SMTP before they are turned on', async () => {
      const initial = (await t.request('GET', '/api/v1/settings', { cookie: admin })).json();
      expect(initial).toMatchObject({
        gateway_disconnect_notifications_enabled: false,
        gateway_inactivity_threshold: 5,
        gateway_reconnect_notifications_enabled: false,
      });
      const before = await snapshot(t.database);
      for (const body of [{ gateway_disconnect_notifications_enabled: true }, { gateway_reconnect_notifications_enabled: true }]) {
        expect(problemOf(await patch(body))).toMatchObject({ status: 400, code: 'mail.not_configured' });
      }
      expect(await snapshot(t.database)).toBe(before);
      // Turning them off, or the threshold alone, never needs SMTP.
      expect((await patch({ gateway_disconnect_notifications_enabled: false, gateway_inactivity_threshold: 30 })).statusCode).toBe(200);

      expect((await patch(SMTP)).statusCode).toBe(200);
      const saved = await patch({ ...ON, gateway_inactivity_threshold: 10 });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ ...ON, gateway_inactivity_threshold: 10 });
      // Clearing SMTP stays possible; the notifications then wait for it.
      expect((await patch({ smtp_server: '' })).statusCode).toBe(200);
    });

    it('reject a threshold that is not a whole number of minutes from 1 to 1440', async () => {
      for (const [value, code] of [
        [0, 'min_value'],
        [1441, 'max_value'],
        [1.5, 'number'],
        ['5', 'number'],
      ] as const) {
        const res = await patch({ gateway_inactivity_threshold: value });
        expect(problemOf(res), String(value)).toMatchObject({ status: 400, code: 'validation.failed' });
        expect(res.json().errors[0]).toMatchObject({ path: 'gateway_inactivity_threshold', code });
      }
      const flag = await patch({ gateway_reconnect_notifications_enabled: 'yes' });
      expect(flag.json().errors[0]).toMatchObject({ path: 'gateway_reconnect_notifications_enabled', code: 'invalid_type' });
      expect((await patch({ gateway_inactivity_threshold: 1440 })).statusCode).toBe(200);
    });
  });

  describe('the check', () => {
    beforeEach(async () => {
      await patch(SMTP);
      await patch({ ...ON, gateway_inactivity_threshold: 5 });
      // Recipients: active administrators with an address, each in their language.
      await db.execute(sql`update users set email = 'admin@example.com', language = 'ko' where username = 'admin'`);
      await t.newUser(admin, 'alice');
      await t.newUser(admin, 'bob');
      await db.execute(sql`update users set email = 'bob@example.com', language = null where username = 'bob'`);
      await db.execute(sql`update users set is_active = false where username = 'alice'`);
      await db.execute(sql`insert into group_members (user_id, group_id)
                           select u.id, g.id from users u, groups g where u.username in ('alice', 'bob') and g.is_admin`);
    });

    it('mails every administrator once per disconnection longer than the threshold, and once when it is back', async () => {
      const down = await gateway(10);
      await gateway(2); // within the threshold
      await gateway(null); // connected
      expect(await notifier().check()).toEqual({ disconnected: 1, reconnected: 0 });
      expect(await outbox()).toEqual([
        { to: 'admin@example.com', template: 'gateway_disconnected', locale: 'ko' },
        { to: 'bob@example.com', template: 'gateway_disconnected', locale: 'en' },
      ]);
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 0 });

      await reconnect(down);
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 1 });
      expect((await outbox()).slice(2)).toEqual([
        { to: 'admin@example.com', template: 'gateway_reconnected', locale: 'ko' },
        { to: 'bob@example.com', template: 'gateway_reconnected', locale: 'en' },
      ]);
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 0 });
      expect(await outbox()).toHaveLength(4);
    });

    it('claims each disconnection once when several instances check at the same time', async () => {
      await gateway(10);
      const results = await Promise.all([notifier().check(), notifier().check(), notifier().check()]);
      expect(results.reduce((n, r) => n + r.disconnected, 0)).toBe(1);
      expect(await outbox()).toHaveLength(2);
    });

    it('mails a return that came and went between two checks, then the new disconnection', async () => {
      const id = await gateway(10);
      await db.execute(sql`update gateways set disconnected_at = now() - interval '40 minutes' where id = ${id}`);
      await notifier().check();
      // Mailed 30 minutes ago, back 20 minutes ago, gone again 10 minutes ago (all between two checks).
      await db.execute(
        sql`update gateways set disconnect_notified_at = now() - interval '30 minutes', connected_at = now() - interval '20 minutes',
                                disconnected_at = now() - interval '10 minutes' where id = ${id}`,
      );
      expect(await notifier().check()).toEqual({ disconnected: 1, reconnected: 1 });
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 0 });
      expect((await outbox()).map((m) => m.template)).toEqual([
        'gateway_disconnected',
        'gateway_disconnected',
        'gateway_reconnected',
        'gateway_reconnected',
        'gateway_disconnected',
        'gateway_disconnected',
      ]);
    });

    it('sends nothing while a notification is off or SMTP is missing; a return still clears the mark', async () => {
      const id = await gateway(10);
      await patch({ gateway_disconnect_notifications_enabled: false });
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 0 });
      await patch({ gateway_disconnect_notifications_enabled: true, gateway_reconnect_notifications_enabled: false });
      expect(await notifier().check()).toEqual({ disconnected: 1, reconnected: 0 });
      await reconnect(id);
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 1 });
      expect((await outbox()).map((m) => m.template)).toEqual(['gateway_disconnected', 'gateway_disconnected']);

      await patch({ smtp_server: '' });
      await gateway(20);
      expect(await notifier().check()).toEqual({ disconnected: 0, reconnected: 0 });
      expect(await outbox()).toHaveLength(2);
    });
  });
});
