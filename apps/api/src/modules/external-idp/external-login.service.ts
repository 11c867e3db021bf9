import { type ExternalAuthInfo, type ExternalCallbackBody, isReservedUsername, type MfaRequired } from '@palisade/contracts';
import * as client from 'openid-client';
import type { Db } from '#src/db/client.js';
import { type SecretBox, randomToken, sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SessionsRepo } from '#src/modules/auth/sessions.repo.js';
import { anonymousActor, type RequestOrigin, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent, withEvents } from '#src/modules/events/record-event.js';
import { mfaRequiredOf, PENDING_MFA_TTL_MS } from '#src/modules/mfa/mfa.core.js';
import { userIdentity, userObject } from '#src/modules/users/users.events.js';
import { type UserRow, UsersRepo } from '#src/modules/users/users.repo.js';
import { ExternalIdpRepo, type ExternalProviderRow } from './external-idp.repo.js';
import { usernameFromClaims } from './username.js';

/** The signed-in browser's pending authorization, sealed into a short-lived cookie. */
interface PendingAuthorization {
  /** state, nonce, PKCE verifier, provider name, expiry (ms since epoch). */
  s: string;
  n: string;
  v: string;
  p: string;
  e: number;
}

export const PENDING_TTL_MS = 10 * 60 * 1000;
const DISCOVERY_TTL_MS = 5 * 60 * 1000;

export interface ExternalLoginContext extends RequestOrigin {
  ip: string;
  previousToken: string | undefined;
  /** The console's callback URL, registered at the provider. */
  redirectUri: string;
  /** The sealed pending authorization from the cookie `auth_info` set. */
  pending: string | undefined;
}

export type ExternalLoginResult = { kind: 'success'; token: string; userId: number } | { kind: 'mfa'; token: string; body: MfaRequired };

const failed = (detail: string) => new HttpProblem(400, 'external_login.failed', detail);

interface Claims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  preferred_username?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  name?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * Sign-in with the company's identity provider (spec §2, §7; docs/external-openid.md): the
 * authorization code flow with PKCE, state and nonce through `openid-client`, then the account
 * rule: the linked identity, else the account with the same verified email (linked now), else a
 * new account when auto-create is on. A user with Palisade MFA gets the pending second step.
 */
export class ExternalLoginService {
  readonly #repo: ExternalIdpRepo;
  readonly #discovered = new Map<string, { config: client.Configuration; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly sessionTtlMs: number,
  ) {
    this.#repo = new ExternalIdpRepo(db);
  }

  async #provider(): Promise<ExternalProviderRow> {
    const row = await this.#repo.current();
    if (!row) throw new HttpProblem(404, 'external_provider.not_found', 'No external OpenID provider is configured.');
    return row;
  }

  async #configuration(row: ExternalProviderRow): Promise<client.Configuration> {
    // Discovery is cached for a few minutes per provider setting (a changed row is a new key).
    const key = `${row.id}|${row.updatedAt.getTime()}`;
    const cached = this.#discovered.get(key);
    if (cached && cached.until > Date.now()) return cached.config;
    const config = await this.#discover(row);
    this.#discovered.clear();
    this.#discovered.set(key, { config, until: Date.now() + DISCOVERY_TTL_MS });
    return config;
  }

  async #discover(row: ExternalProviderRow): Promise<client.Configuration> {
    let secret: string | undefined;
    try {
      secret = row.clientSecret === null ? undefined : this.secrets.decrypt(row.clientSecret);
    } catch {
      // Sealed under another instance key (SECRET_KEY changed): the admin enters it again.
      throw failed('The stored client secret cannot be read with this instance key: enter it again in Settings › OpenID.');
    }
    const url = new URL(row.baseUrl);
    try {
      return await client.discovery(
        url,
        row.clientId,
        secret === undefined ? {} : { client_secret: secret },
        secret === undefined ? client.None() : client.ClientSecretPost(secret),
        // An issuer on plain HTTP is the administrator's choice (a test or an internal IdP).
        url.protocol === 'http:' ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
      );
    } catch (err) {
      throw failed(`The identity provider's configuration could not be read from ${row.baseUrl}: ${messageOf(err)}`);
    }
  }

  /** `GET /openid/auth_info`: the authorization URL and the sealed state for the cookie. */
  async authInfo(redirectUri: string): Promise<{ info: ExternalAuthInfo; pending: string }> {
    const row = await this.#provider();
    const config = await this.#configuration(row);
    const pending: PendingAuthorization = {
      s: client.randomState(),
      n: client.randomNonce(),
      v: client.randomPKCECodeVerifier(),
      p: row.name,
      e: Date.now() + PENDING_TTL_MS,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(pending.v),
      code_challenge_method: 'S256',
      state: pending.s,
      nonce: pending.n,
    });
    return {
      info: { url: url.href, button_display_name: row.displayName },
      pending: this.secrets.encrypt(JSON.stringify(pending)),
    };
  }

  /** `POST /openid/callback`: completes the sign-in; every failure is a 4xx problem. */
  async callback(body: ExternalCallbackBody, ctx: ExternalLoginContext): Promise<ExternalLoginResult> {
    const origin: RequestOrigin = { ip: ctx.ip, userAgent: ctx.userAgent };
    const refuse = async (problem: HttpProblem, reason: string, user?: Pick<UserRow, 'id' | 'username'>): Promise<never> => {
      await recordEvent(this.db, {
        type: 'auth.login_failed',
        actor: anonymousActor(origin),
        object: user ? userObject(user) : undefined,
        subjectUserId: user?.id,
        details: { method: 'openid', reason },
      });
      throw problem;
    };

    const pending = this.#openPending(ctx.pending);
    if (!pending || pending.e < Date.now() || pending.s !== body.state) {
      return refuse(failed('The sign-in is unknown or expired: start it again from the login page.'), 'invalid_state');
    }
    const row = await this.#provider();
    if (row.name !== pending.p) return refuse(failed('The identity provider changed during the sign-in: start it again.'), 'invalid_state');
    const config = await this.#configuration(row);

    const callbackUrl = new URL(ctx.redirectUri);
    callbackUrl.searchParams.set('code', body.code);
    callbackUrl.searchParams.set('state', body.state);
    if (body.iss !== undefined) callbackUrl.searchParams.set('iss', body.iss);
    let claims: Claims;
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.v,
        expectedState: pending.s,
        expectedNonce: pending.n,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      claims = { ...idClaims } as Claims;
      if (text(claims.email) === '' && tokens.access_token) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
      }
    } catch (err) {
      return refuse(failed(`The identity provider did not confirm the sign-in: ${messageOf(err)}`), 'provider_error');
    }

    const user = await this.#resolveAccount(row, claims, origin, refuse);
    if (!user.isActive) return refuse(new HttpProblem(401, 'auth.user_disabled', 'This account is disabled.'), 'disabled', user);
    return this.#startSession(row, user, ctx, origin);
  }

  #openPending(sealed: string | undefined): PendingAuthorization | undefined {
    if (!sealed) return undefined;
    try {
      const value = JSON.parse(this.secrets.decrypt(sealed)) as PendingAuthorization;
      return typeof value.s === 'string' && typeof value.v === 'string' && typeof value.n === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async #resolveAccount(
    row: ExternalProviderRow,
    claims: Claims,
    origin: RequestOrigin,
    refuse: (problem: HttpProblem, reason: string, user?: Pick<UserRow, 'id' | 'username'>) => Promise<never>,
  ): Promise<UserRow> {
    const users = new UsersRepo(this.db);
    const linked = await this.#repo.findIdentity(row.name, claims.sub);
    if (linked) {
      const user = await users.findById(linked.userId);
      if (user) return user;
    }
    const email = text(claims.email);
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    const sameEmail = email === '' ? undefined : await users.findByEmail(email);
    if (sameEmail && verified) {
      await withEvents(this.db, async (tx) => {
        await new ExternalIdpRepo(tx).link(sameEmail.id, row.name, claims.sub, email);
        const event: DomainEvent = {
          type: 'user.modified',
          actor: anonymousActor(origin),
          object: userObject(sameEmail),
          subjectUserId: sameEmail.id,
          details: { changed: ['external_identity'], provider: row.name, source: 'openid' },
        };
        return { result: undefined, events: [event] };
      });
      return sameEmail;
    }
    if (sameEmail) {
      return refuse(
        new HttpProblem(
          403,
          'external_login.no_account',
          'An account with this email exists, but the identity provider did not confirm the address is verified, so it is not linked.',
        ),
        'email_not_verified',
      );
    }
    if (!row.autoCreateAccount) {
      return refuse(
        new HttpProblem(
          403,
          'external_login.no_account',
          'There is no Palisade account for this identity, and accounts are not created automatically: ask an administrator.',
        ),
        'no_account',
      );
    }
    if (email === '') {
      return refuse(
        new HttpProblem(
          403,
          'external_login.no_account',
          'The identity provider did not share an email address, so no account can be created.',
        ),
        'no_email',
      );
    }
    const username = usernameFromClaims(claims, row.usernameHandling);
    if (!username || isReservedUsername(username) || (await users.findByUsername(username))) {
      return refuse(
        new HttpProblem(
          403,
          'external_login.no_account',
          `No account can be created: the username "${username ?? ''}" is not available. Ask an administrator.`,
        ),
        'username_unavailable',
      );
    }
    const firstName = (text(claims.given_name) || text(claims.name) || username).slice(0, 128);
    const lastName = text(claims.family_name).slice(0, 128);
    return withEvents(this.db, async (tx) => {
      const created = await new UsersRepo(tx).insert({ username, firstName, lastName, email, passwordHash: null });
      await new ExternalIdpRepo(tx).link(created.id, row.name, claims.sub, email);
      const event: DomainEvent = {
        type: 'user.created',
        actor: anonymousActor(origin),
        object: userObject(created),
        subjectUserId: created.id,
        details: { ...userIdentity(created), source: 'openid', provider: row.name },
      };
      return { result: created, events: [event] };
    }).catch(async (err: unknown) => {
      if ((err as { code?: string }).code === '23505')
        return refuse(
          new HttpProblem(403, 'external_login.no_account', 'No account can be created: the username or email is taken.'),
          'username_unavailable',
        );
      throw err;
    });
  }

  async #startSession(
    row: ExternalProviderRow,
    user: UserRow,
    ctx: ExternalLoginContext,
    origin: RequestOrigin,
  ): Promise<ExternalLoginResult> {
    const token = randomToken();
    const state = user.mfaEnabled ? 'mfa_pending' : 'active';
    await withEvents(this.db, async (tx) => {
      const sessions = new SessionsRepo(tx);
      if (ctx.previousToken) await sessions.delete(sha256(ctx.previousToken));
      await sessions.insert({
        id: sha256(token),
        userId: user.id,
        state,
        ip: ctx.ip,
        userAgent: ctx.userAgent ?? null,
        // A pending-MFA session only lets the second step through, for 5 minutes.
        expiresAt: new Date(Date.now() + (state === 'mfa_pending' ? PENDING_MFA_TTL_MS : this.sessionTtlMs)),
      });
      const event: DomainEvent = {
        type: 'auth.login_succeeded',
        actor: userActor({ userId: user.id, username: user.username, ...origin }),
        object: userObject(user),
        details: { method: 'openid', provider: row.name, ...(state === 'mfa_pending' ? { mfa_pending: true } : {}) },
      };
      return { result: undefined, events: [event] };
    });
    if (state === 'mfa_pending') return { kind: 'mfa', token, body: { mfa: await mfaRequiredOf(this.db, user) } };
    return { kind: 'success', token, userId: user.id };
  }
}

function messageOf(err: unknown): string {
  const e = err as { message?: unknown; error?: unknown; error_description?: unknown };
  const parts = [e.error, e.error_description].filter((p) => typeof p === 'string');
  return (parts.length > 0 ? parts.join(': ') : typeof e.message === 'string' ? e.message : 'unknown error').slice(0, 300);
}
