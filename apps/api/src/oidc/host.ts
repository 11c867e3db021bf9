import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { SESSION_COOKIE } from '#src/plugins/session.js';
import { subOfUser } from './accounts.repo.js';
import { alreadyGranted, type ConsoleSession, finishInteraction, type Interaction, promptForced } from './interactions.js';
import { consentUrl, createProvider, OIDC_PREFIX } from './provider.js';
import { ensureSigningKeys, jwksFingerprint, loadProviderJwks } from './signing-keys.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenID provider (oidc/host.ts). */
    oidc: OidcHost;
  }
}

/** How often every replica re-reads the signing keys (a rotation reaches all within this). */
export const KEY_RELOAD_MS = 60_000;

export interface OidcHostOptions {
  db: Db;
  secrets: SecretBox;
  publicUrl: string | undefined;
  trustProxy: boolean;
  /** The console session of a session cookie token, when the session is active. */
  consoleUser(token: string): Promise<ConsoleSession | undefined>;
}

interface Instance {
  provider: Provider;
  callback: ReturnType<Provider['callback']>;
  fingerprint: string;
}

/** Paths the provider answers itself (Fastify's hooks and routes never see these requests). */
export function isProviderPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === '/.well-known/openid-configuration' || path.startsWith(`${OIDC_PREFIX}/`);
}

/**
 * Owns the oidc-provider instance: built on first use (issuer = PUBLIC_URL, or the
 * listening address, `http://localhost:<port>` on a wildcard address, without it), rebuilt when the signing keys
 * change (checked every KEY_RELOAD_MS). The instance keeps no state of its own: everything is in
 * the database, so replicas are interchangeable.
 */
export class OidcHost {
  readonly #options: OidcHostOptions;
  /** The instance, its request handler (Koa composes the middleware once per callback()) and key set. */
  #current: Instance | undefined;
  #building: Promise<Instance> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #app: FastifyInstance | undefined;

  constructor(options: OidcHostOptions) {
    this.#options = options;
  }

  attach(app: FastifyInstance): void {
    this.#app = app;
  }

  issuer(): string {
    if (this.#options.publicUrl) return this.#options.publicUrl.replace(/\/+$/, '');
    const address = this.#app?.server.address() as AddressInfo | null | undefined;
    if (!address) return 'http://localhost:8000';
    const wildcard = address.address === '0.0.0.0' || address.address === '::';
    const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  async provider(): Promise<Provider> {
    return (await this.#instance()).provider;
  }

  #instance(): Promise<Instance> {
    if (this.#current) return Promise.resolve(this.#current);
    this.#building ??= this.#build().finally(() => {
      this.#building = undefined;
    });
    return this.#building;
  }

  async #build(): Promise<Instance> {
    const { db, secrets } = this.#options;
    await ensureSigningKeys(db, secrets);
    const jwks = await loadProviderJwks(db, secrets);
    const provider = createProvider({
      issuer: this.issuer(),
      db,
      secrets,
      jwks,
      hooks: { consoleAccount: (ctx) => this.#consoleAccount(ctx), interactionUrl: (ctx, i) => this.#interactionUrl(ctx, i) },
    });
    this.#current = { provider, callback: provider.callback(), fingerprint: jwksFingerprint(jwks) };
    return this.#current;
  }

  /** Re-reads the keys; a new key set (rotation, or a key's turn to sign) builds a new instance. */
  async reloadKeys(): Promise<void> {
    if (!this.#current) return;
    const jwks = await loadProviderJwks(this.#options.db, this.#options.secrets);
    if (jwksFingerprint(jwks) !== this.#current.fingerprint) this.#current = undefined;
  }

  start(log: FastifyInstance['log']): void {
    this.#timer = setInterval(() => {
      this.reloadKeys().catch((err: unknown) => log.error({ err }, 'OpenID signing keys reload failed'));
    }, KEY_RELOAD_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /**
   * Hands a request to the provider (raw Node request and response). The provider builds its
   * endpoint URLs from the request's host and scheme; they are set to the issuer's here, so the
   * discovery document names the public address whatever Host a proxy forwards, and cookies are
   * Secure exactly when the issuer is https. Client addresses from X-Forwarded-For count only
   * with TRUST_PROXY.
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { callback } = await this.#instance();
    const issuer = new URL(this.issuer());
    req.headers['x-forwarded-host'] = issuer.host;
    req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
    if (!this.#options.trustProxy) delete req.headers['x-forwarded-for'];
    await callback(req, res);
  }

  async #consoleSession(ctx: KoaContextWithOIDC): Promise<ConsoleSession | undefined> {
    const token = ctx.cookies.get(SESSION_COOKIE);
    return token && token.length <= 128 ? this.#options.consoleUser(token) : undefined;
  }

  async #consoleAccount(ctx: KoaContextWithOIDC): Promise<string | undefined> {
    const session = await this.#consoleSession(ctx);
    return session === undefined ? undefined : subOfUser(this.#options.db, session.userId);
  }

  /**
   * interactions.url: when the browser is signed in to the console and the user already granted
   * this app every scope it asks for, the interaction finishes at once (no consent page);
   * otherwise the console's consent page (which signs in first when needed).
   */
  async #interactionUrl(ctx: KoaContextWithOIDC, interaction: Interaction): Promise<string> {
    const session = await this.#consoleSession(ctx);
    if (session !== undefined) {
      const finished = await this.finishIfGranted(interaction, session);
      if (finished) return finished;
    }
    return consentUrl(interaction.uid);
  }

  /**
   * After a completed console sign-in: where the browser goes next when it has an OpenID
   * authorization waiting (the provider's interaction cookie): the resume URL when the user's
   * earlier grant covers it, else the consent page. Undefined when nothing waits.
   */
  async continueAfterLogin(req: IncomingMessage, res: ServerResponse, sessionToken: string): Promise<string | undefined> {
    const session = await this.#options.consoleUser(sessionToken);
    if (!session) return undefined;
    const provider = await this.provider();
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch {
      return undefined;
    }
    return (await this.finishIfGranted(interaction, session)) ?? consentUrl(interaction.uid);
  }

  /** Finishes the interaction when the user's earlier grant covers it; the resume URL, or undefined. */
  async finishIfGranted(interaction: Interaction, session: ConsoleSession): Promise<string | undefined> {
    if (interaction.prompt.name !== 'login' && interaction.prompt.name !== 'consent') return undefined;
    if (promptForced(interaction).any) return undefined;
    const sub = await subOfUser(this.#options.db, session.userId);
    if (!sub) return undefined;
    const provider = await this.provider();
    if (!(await alreadyGranted(provider, this.#options.db, sub, interaction))) return undefined;
    return (await finishInteraction(provider, this.#options.db, interaction, session))?.url;
  }
}
