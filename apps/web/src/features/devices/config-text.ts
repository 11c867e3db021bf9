/** The placeholder the API puts on a device config's `PrivateKey =` line (API.md §3). */
export const PRIVATE_KEY_PLACEHOLDER = 'YOUR_PRIVATE_KEY';

const PRIVATE_KEY_LINE = /^([ \t]*PrivateKey[ \t]*=[ \t]*).*$/m;

/** Fills the private key in locally; the key never leaves the browser. */
export function withPrivateKey(config: string, privateKey: string): string {
  return PRIVATE_KEY_LINE.test(config) ? config.replace(PRIVATE_KEY_LINE, (_line, head: string) => `${head}${privateKey}`) : config;
}

/** True while the config still carries the placeholder instead of a real key. */
export const hasPlaceholderKey = (config: string): boolean => config.includes(PRIVATE_KEY_PLACEHOLDER);

/** wg-quick takes the interface name from the file name: 1–15 of these characters, then `.conf`. */
export const WG_QUICK_NAME = /^[a-zA-Z0-9_=+.-]{1,15}$/;
const MAX_NAME = 15;
const MAX_DEVICE_PART = 6;
/** Marks a location part that had to be shortened or transliterated; never kept in a name. */
const ID_MARK = '+';

/** Latin letters that Unicode does not decompose into a base letter and a mark. */
const LATIN_EXTRA: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Ø: 'O',
  ø: 'o',
  Đ: 'D',
  đ: 'd',
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  ı: 'i',
};

/** Latin letters without accents, other runs of characters wg-quick refuses become one `-`. */
const foldPart = (text: string): string =>
  text
    .replace(/[ŁłØøĐđßÆæŒœı]/g, (c) => LATIN_EXTRA[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-zA-Z0-9_=.-]+/g, '-') // `+` left out: it is the mark
    .replace(/^[-.]+|[-.]+$/g, '');

const trimEnd = (text: string) => text.replace(/[-.]+$/, '');

/** The start of a long device name, cut after a whole word when there is one. */
const devicePart = (deviceName: string): string => {
  const folded = foldPart(deviceName);
  if (folded.length <= MAX_DEVICE_PART) return folded;
  const head = folded.slice(0, MAX_DEVICE_PART + 1);
  const wordEnd = head.lastIndexOf('-');
  return trimEnd(wordEnd > 0 ? head.slice(0, wordEnd) : head.slice(0, MAX_DEVICE_PART));
};

/**
 * The file name of a device's config for one location, usable as is with `wg-quick up ./<file>`:
 * `<device>-<location>.conf`, at most 15 characters before `.conf`. The device part (up to 6
 * characters) is the same for all of a device's locations; a location name that does not fit
 * as it is becomes its start plus `+<location id in base 36>`, so one device's files never
 * collide.
 */
export function configFileName(deviceName: string, location: { id: number; name: string }): string {
  const device = devicePart(deviceName);
  const budget = MAX_NAME - (device ? device.length + 1 : 0);
  const folded = foldPart(location.name);
  // `folded` never holds the mark (it is not kept), so an exact name cannot look like a marked one.
  const isExact = folded.length > 0 && folded.length <= budget && folded === location.name;
  const suffix = `${ID_MARK}${location.id.toString(36)}`;
  const room = Math.max(0, budget - suffix.length);
  const locationPart = isExact ? folded : `${trimEnd(folded.slice(0, room)) || 'wg'.slice(0, room)}${suffix}`;
  return `${device ? `${device}-` : ''}${locationPart}.conf`;
}

/** A public key is long; lists show its start and end. */
export const shortKey = (key: string): string => (key.length > 16 ? `${key.slice(0, 8)}…${key.slice(-6)}` : key);
