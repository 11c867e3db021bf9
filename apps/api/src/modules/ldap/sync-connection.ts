import type { ConnectionOptions } from 'node:tls';
import { Client } from 'ldapts';
import type { LdapConfig } from './ldap-config.js';

/** How the sync reaches the directory (tests and the bench may pass their own). */
export type LdapConnector = (config: LdapConfig) => Promise<Client>;

const TIMEOUT_MS = 10_000;

function tlsOptions(config: LdapConfig): ConnectionOptions {
  return {
    rejectUnauthorized: config.tlsVerifyCert,
    ...(config.tlsCaCert ? { ca: config.tlsCaCert } : {}),
  };
}

/** A client bound as the configured service account (StartTLS first when set). */
export const connectLdap: LdapConnector = async (config) => {
  const secure = config.url.toLowerCase().startsWith('ldaps:');
  const client = new Client({
    url: config.url,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    ...(secure ? { tlsOptions: tlsOptions(config) } : {}),
  });
  try {
    if (config.useStartTls && !secure) await client.startTLS(tlsOptions(config));
    if (config.bindUsername) await client.bind(config.bindUsername, config.bindPassword);
    return client;
  } catch (error) {
    await client.unbind().catch(() => undefined);
    throw error;
  }
};
