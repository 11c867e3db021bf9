import { eq } from 'drizzle-orm';
import { groups, sessions, users } from '#src/db/schema/index.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { hashPassword } from '#src/lib/password.js';
import { createTestApp, type TestApp, USER_PASSWORD } from './helpers.js';

/**
 * What the route-walking tests (authorization, events) share: an app that lists its routes as they
 * register, and cheap ways to make users and sessions (logins are tested elsewhere; Argon2 is slow).
 */
export interface RouteWalk {
  t: TestApp;
  registered: { method: string; url: string }[];
  /** `METHOD /api/v1/...` of every registered API route (HEAD twins left out). */
  apiRouteKeys(): string[];
  adminGroupId: number;
  /** A signed-in session for `userId`, made directly; the cookie header value. */
  sessionFor(userId: number): Promise<string>;
  /** A user with password USER_PASSWORD, inserted directly. */
  insertUser(username: string): Promise<typeof users.$inferSelect>;
}

export async function startRouteWalk(): Promise<RouteWalk> {
  const registered: { method: string; url: string }[] = [];
  const t = await createTestApp(
    // POST /mail/support needs an address to send to; GET /metrics exists only with its token.
    { SUPPORT_EMAIL: 'support@walk.example', METRICS_TOKEN: 'walk-metrics-token-0123456789' },
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) registered.push({ method, url: route.url });
      },
    },
  );
  const passwordHash = await hashPassword(USER_PASSWORD);
  const [adminGroup] = await t.database.db.select().from(groups).where(eq(groups.name, 'admin'));
  if (!adminGroup) throw new Error('bootstrap made no admin group');
  return {
    t,
    registered,
    apiRouteKeys: () => registered.filter((r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`),
    adminGroupId: adminGroup.id,
    async sessionFor(userId) {
      const token = randomToken();
      await t.database.db
        .insert(sessions)
        .values({ id: sha256(token), userId, state: 'active', expiresAt: new Date(Date.now() + 3600_000) });
      return `palisade_session=${token}`;
    },
    async insertUser(username) {
      const [row] = await t.database.db
        .insert(users)
        .values({ username, firstName: 'Walk', lastName: username, email: `${username}@walk.example`, passwordHash })
        .returning();
      if (!row) throw new Error('insert failed');
      return row;
    },
  };
}
