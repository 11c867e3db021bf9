import { type DirectoryClient, DirectoryError } from './directory-client.js';
import { googleDirectory } from './google.js';
import { jumpcloudDirectory } from './jumpcloud.js';
import { microsoftDirectory } from './microsoft.js';
import { oktaDirectory } from './okta.js';

/** What the clients need of the provider's settings, secrets already unsealed. */
export interface DirectoryConfig {
  kind: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  adminEmail: string;
  googleServiceAccountKey: string | undefined;
  oktaClientId: string;
  oktaPrivateJwk: string | undefined;
  jumpcloudApiKey: string | undefined;
}

/**
 * Where the directory APIs live, for tests only: the fake directories of
 * `test/support/fake-directories` listen on 127.0.0.1. Production uses the public APIs (Okta's and
 * Microsoft's token endpoints always follow the provider's base URL; Google's the key file's
 * `token_uri`). Nothing in the environment or the API can set these.
 */
export interface DirectoryEndpoints {
  googleApiUrl?: string;
  graphApiUrl?: string;
  jumpcloudApiUrl?: string;
}

export const DIRECTORY_KINDS = ['Google', 'Microsoft', 'Okta', 'JumpCloud'] as const;
export const supportsDirectorySync = (kind: string) => (DIRECTORY_KINDS as readonly string[]).includes(kind);

export function createDirectoryClient(config: DirectoryConfig, endpoints: DirectoryEndpoints = {}): DirectoryClient {
  switch (config.kind) {
    case 'Google':
      if (!config.googleServiceAccountKey) throw new DirectoryError('No Google service account key file has been uploaded');
      return googleDirectory({
        serviceAccountKey: config.googleServiceAccountKey,
        adminEmail: config.adminEmail,
        apiUrl: endpoints.googleApiUrl,
      });
    case 'Microsoft':
      return microsoftDirectory({
        baseUrl: config.baseUrl,
        clientId: config.clientId,
        clientSecret: config.clientSecret ?? '',
        graphUrl: endpoints.graphApiUrl,
      });
    case 'Okta':
      if (!config.oktaPrivateJwk) throw new DirectoryError('No Okta private key (JWK) has been saved');
      return oktaDirectory({ baseUrl: config.baseUrl, clientId: config.oktaClientId, privateJwk: config.oktaPrivateJwk });
    case 'JumpCloud':
      return jumpcloudDirectory({ apiKey: config.jumpcloudApiKey ?? '', apiUrl: endpoints.jumpcloudApiUrl });
    default:
      throw new DirectoryError(`Directory sync is not available for ${config.kind} providers`);
  }
}
