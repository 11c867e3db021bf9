/** The placeholder the API puts on a device config's `PrivateKey =` line (API.md §3). */
export const PRIVATE_KEY_PLACEHOLDER = 'YOUR_PRIVATE_KEY';

const PRIVATE_KEY_LINE = /^([ \t]*PrivateKey[ \t]*=[ \t]*).*$/m;

/** Fills the private key in locally; the key never leaves the browser. */
export function withPrivateKey(config: string, privateKey: string): string {
  return PRIVATE_KEY_LINE.test(config) ? config.replace(PRIVATE_KEY_LINE, (_line, head: string) => `${head}${privateKey}`) : config;
}

/** True while the config still carries the placeholder instead of a real key. */
export const hasPlaceholderKey = (config: string): boolean => config.includes(PRIVATE_KEY_PLACEHOLDER);

const safePart = (text: string) =>
  text
    .trim()
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'wireguard';

/** `<devicename>-<location>.conf`, with characters a file system may refuse replaced. */
export const configFileName = (deviceName: string, locationName: string): string =>
  `${safePart(deviceName)}-${safePart(locationName)}.conf`;

/** A public key is long; lists show its start and end. */
export const shortKey = (key: string): string => (key.length > 16 ? `${key.slice(0, 8)}…${key.slice(-6)}` : key);
