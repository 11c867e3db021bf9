import { rootCertificates } from 'node:tls';
import { LDAP_CONNECTION_REJECTED_DETAIL } from '@palisade/contracts';
import { Client, InvalidCredentialsError, ResultCodeError } from 'ldapts';
import { HttpProblem } from '#src/lib/problem.js';
import type { LdapConfig } from './ldap-config.js';

/** How long a TCP (and TLS) connection may take before the server counts as unreachable. */
export const LDAP_CONNECT_TIMEOUT_MS = 5_000;
/** How long one LDAP operation (bind, search, modify) may take. */
export const LDAP_OPERATION_TIMEOUT_MS = 10_000;

export type LdapConnectionSettings = Pick<LdapConfig, 'url' | 'useStartTls' | 'tlsVerifyCert' | 'tlsCaCert'>;

export interface LdapTimeouts {
  connectMs?: number;
  operationMs?: number;
}

/** The LDAP server refused or could not be reached; `reason` is fit to show an administrator. */
export class LdapConnectionError extends Error {
  readonly reason: string;
  /** The server answered but refused the credentials (as opposed to being down or misconfigured). */
  readonly invalidCredentials: boolean;

  constructor(reason: string, invalidCredentials = false, options?: { cause?: unknown }) {
    super(`${LDAP_CONNECTION_REJECTED_DETAIL}: ${reason}`, options);
    this.name = 'LdapConnectionError';
    this.reason = reason;
    this.invalidCredentials = invalidCredentials;
  }
}

/** GET /ldap/test's 400: "LDAP connection rejected: <reason>" (spec §8). */
export const connectionRejected = (reason: string) =>
  new HttpProblem(400, 'ldap.connection_rejected', `${LDAP_CONNECTION_REJECTED_DETAIL}: ${reason}`);

/** A readable reason for what went wrong talking to the server (never includes a password). */
export function ldapFailureReason(error: unknown): string {
  if (error instanceof LdapConnectionError) return error.reason;
  if (error instanceof InvalidCredentialsError) return 'invalid credentials (wrong bind username or password)';
  if (error instanceof ResultCodeError) return `${error.message} (LDAP result code ${error.code})`;
  const e = error as NodeJS.ErrnoException & { message?: string };
  const message = e?.message ?? String(error);
  if (/certificate|self[- ]signed|SSL|TLS|altname/i.test(message)) return `TLS failure: ${message}`;
  switch (e?.code) {
    case 'ECONNREFUSED':
      return 'the server refused the connection (nothing listens on that host and port)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the server could not be reached';
    case 'ECONNRESET':
      return 'the server closed the connection';
    default:
      break;
  }
  if (/timeout|timed out/i.test(message)) return `the server did not answer in time (${message})`;
  return message;
}

function tlsOptions(settings: LdapConnectionSettings, host: string) {
  const ca = settings.tlsCaCert.trim();
  return {
    rejectUnauthorized: settings.tlsVerifyCert,
    // A configured CA is trusted besides the system store, not instead of it.
    ...(ca !== '' && { ca: [...rootCertificates, ca] }),
    // SNI needs a name; an IP literal is checked against the certificate's IP SANs without it.
    ...(!/^[0-9.]+$|:/.test(host) && { servername: host }),
  };
}

/**
 * An open LDAP connection (StartTLS done when configured), not yet bound. Close it with
 * `unbind()`; every operation is bounded by the timeouts, so an unreachable server answers within
 * `connectMs` instead of hanging.
 */
export async function openLdapClient(settings: LdapConnectionSettings, timeouts: LdapTimeouts = {}): Promise<Client> {
  if (settings.url === '') throw new LdapConnectionError('no LDAP server URL is set');
  const host = new URL(settings.url.replace(/^ldaps?:/i, 'http:')).hostname.replace(/^\[|\]$/g, '');
  const tls = tlsOptions(settings, host);
  const client = new Client({
    url: settings.url,
    connectTimeout: timeouts.connectMs ?? LDAP_CONNECT_TIMEOUT_MS,
    timeout: timeouts.operationMs ?? LDAP_OPERATION_TIMEOUT_MS,
    // ldapts speaks TLS from the first byte whenever it has TLS options: only for ldaps://.
    ...(/^ldaps:/i.test(settings.url) && { tlsOptions: tls }),
    // Bind names may be AD's `user@domain` or `DOMAIN\user`, not only DNs.
    strictDN: false,
  });
  if (settings.useStartTls && !/^ldaps:/i.test(settings.url)) {
    try {
      await client.startTLS(tls);
    } catch (error) {
      await client.unbind().catch(() => undefined);
      throw new LdapConnectionError(`StartTLS failed: ${ldapFailureReason(error)}`, false, { cause: error });
    }
  }
  return client;
}

/**
 * Opens a connection and binds as `dn` with `password` (anonymous when `dn` is ''). Throws
 * `LdapConnectionError` with the reason; `invalidCredentials` tells a refused password apart.
 */
export async function bindLdap(settings: LdapConnectionSettings, dn: string, password: string, timeouts?: LdapTimeouts): Promise<Client> {
  let client: Client | undefined;
  try {
    client = await openLdapClient(settings, timeouts);
    if (dn !== '') {
      // An empty password would be an unauthenticated bind, which servers accept as success.
      if (password === '') throw new LdapConnectionError('invalid credentials (empty password)', true);
      await client.bind(dn, password);
    }
    return client;
  } catch (error) {
    await client?.unbind().catch(() => undefined);
    if (error instanceof LdapConnectionError) throw error;
    throw new LdapConnectionError(ldapFailureReason(error), error instanceof InvalidCredentialsError, { cause: error });
  }
}

/** Binds as the configured service user: the connection every sync and lookup uses. */
export const bindServiceUser = (config: LdapConfig, timeouts?: LdapTimeouts): Promise<Client> =>
  bindLdap(config, config.bindUsername, config.bindPassword, timeouts);

/**
 * GET /ldap/test: connects, binds as the service user and reads the user search base (when set),
 * so a wrong URL, TLS setup, password or base shows up here rather than at the first sign-in.
 */
export async function testLdapConnection(config: LdapConfig, timeouts?: LdapTimeouts): Promise<void> {
  let client: Client;
  try {
    client = await bindServiceUser(config, timeouts);
  } catch (error) {
    throw connectionRejected(ldapFailureReason(error));
  }
  try {
    if (config.userSearchBase !== '') {
      await client.search(config.userSearchBase, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] });
    }
  } catch (error) {
    throw connectionRejected(`user search base ${config.userSearchBase}: ${ldapFailureReason(error)}`);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
