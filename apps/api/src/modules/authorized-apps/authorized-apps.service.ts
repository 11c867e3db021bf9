import type { AuthorizedApp } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { AuthorizedAppsRepo, type GrantRow } from './authorized-apps.repo.js';

const userNotFound = () => new HttpProblem(404, 'user.not_found', 'User not found');

function scopesOf(payload: Record<string, unknown>): string[] {
  const openid = payload.openid as { scope?: unknown } | undefined;
  const scope = typeof openid?.scope === 'string' ? openid.scope : '';
  return scope.split(' ').filter((s) => s && s !== 'offline_access');
}

function authorizedAt(payload: Record<string, unknown>): string {
  const iat = typeof payload.iat === 'number' ? payload.iat : 0;
  return new Date(iat * 1000).toISOString();
}

/** One app per client: a user has one grant per app, but merge any duplicates (scopes, first date). */
function toApps(rows: GrantRow[]): AuthorizedApp[] {
  const byClient = new Map<string, AuthorizedApp>();
  for (const row of rows) {
    const app = byClient.get(row.clientId);
    const scopes = scopesOf(row.payload);
    const at = authorizedAt(row.payload);
    if (!app) {
      byClient.set(row.clientId, { client_id: row.clientId, name: row.name, scopes, authorized_at: at });
      continue;
    }
    app.scopes = [...new Set([...app.scopes, ...scopes])];
    if (at < app.authorized_at) app.authorized_at = at;
  }
  return [...byClient.values()];
}

/** A user's authorized OpenID apps: list, and revoke (the grant with all its codes and tokens). */
export class AuthorizedAppsService {
  constructor(private readonly db: Db) {}

  async list(username: string): Promise<AuthorizedApp[]> {
    const repo = new AuthorizedAppsRepo(this.db);
    const user = await repo.userByName(username);
    if (!user) throw userNotFound();
    return toApps(await repo.grantsOf(user.sub));
  }

  async revoke(actor: SignedInActor, username: string, clientId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = new AuthorizedAppsRepo(tx);
      const user = await repo.userByName(username);
      if (!user) throw userNotFound();
      const grants = await repo.grantsOf(user.sub, clientId);
      const first = grants[0];
      if (!first) throw new HttpProblem(404, 'authorized_app.not_found', 'This app is not authorized for the user');
      await repo.deleteGrants(grants.map((g) => g.grantId));
      await recordEvent(tx, {
        type: 'oauth_app.authorization_revoked',
        actor: userActor(actor),
        object: { type: 'oauth_app', id: clientId, name: first.name },
        subjectUserId: user.id,
        details: { username: user.username },
      });
    });
  }
}
