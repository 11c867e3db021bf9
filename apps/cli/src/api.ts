import { CliError } from './errors.js';

/** What the server answers for a redeemed token (contracts: RedeemedCliTokenSchema). */
export interface RedeemedToken {
  device: { id: number; name: string };
  tunnel: {
    location_id: number;
    location_name: string;
    addresses: string[];
    dns: string[];
    public_key: string;
    endpoint: string;
    allowed_ips: string[];
    persistent_keepalive: number;
    config: string;
  };
}

export const REDEEM_PATH = 'api/v1/enrollment/client/network_device';

/** The redemption URL under the server's base URL (a base path such as /palisade/ is kept). */
export function redeemUrl(base: URL): URL {
  const root = new URL(base.href);
  if (!root.pathname.endsWith('/')) root.pathname = `${root.pathname}/`;
  return new URL(REDEEM_PATH, root);
}

function isRedeemed(value: unknown): value is RedeemedToken {
  const v = value as RedeemedToken | null;
  return (
    typeof v?.device?.id === 'number' &&
    typeof v.tunnel?.config === 'string' &&
    typeof v.tunnel.public_key === 'string' &&
    Array.isArray(v.tunnel.addresses)
  );
}

const MESSAGES: Record<string, string> = {
  'client_token.invalid':
    'The token is unknown, already used or expired (tokens are valid for 24 hours and work once). Ask your administrator for a new one.',
  'client_token.too_many_attempts': 'Too many failed enrollment attempts from this address. Wait 15 minutes and try again.',
  'device.key_taken': 'This public key is already registered for another device. Run the command again to generate a new key.',
  'device.name_taken': 'A network device with the announced name exists already. Ask your administrator to issue a new token.',
  'device.mfa_location': 'The location now requires MFA, which network devices cannot use. Ask your administrator.',
  'network.ip_in_use': 'The address chosen for this device is no longer free. Ask your administrator to issue a new token.',
};

/** Redeems the token with the public key; every failure is a CliError that says what to do. */
export async function redeemToken(base: URL, token: string, publicKey: string, fetchImpl: typeof fetch = fetch): Promise<RedeemedToken> {
  const url = redeemUrl(base);
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'palisade-cli/0.1.0' },
      body: JSON.stringify({ token, wireguard_pubkey: publicKey }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new CliError(`Cannot reach Palisade at ${base.origin} (${reason}). Check --url.`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.status === 201 && isRedeemed(body)) return body;
  const problem = body as { code?: unknown; detail?: unknown } | undefined;
  const code = typeof problem?.code === 'string' ? problem.code : undefined;
  if (code && MESSAGES[code]) throw new CliError(MESSAGES[code]);
  if (code)
    throw new CliError(`Palisade refused the enrollment: ${typeof problem?.detail === 'string' ? problem.detail : code} (${code}).`);
  throw new CliError(`${url.href} answered HTTP ${res.status} without a Palisade answer: is --url the address of your Palisade server?`);
}
