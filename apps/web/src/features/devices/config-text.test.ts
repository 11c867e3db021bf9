import { describe, expect, it } from 'vitest';
import { configFileName, hasPlaceholderKey, PRIVATE_KEY_PLACEHOLDER, shortKey, WG_QUICK_NAME, withPrivateKey } from './config-text';

const CONFIG = `[Interface]
PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}
Address = 10.0.0.2/32

[Peer]
PublicKey = c2VydmVyLXB1YmxpYy1rZXktc2VydmVyLXB1YmxpYy0=
AllowedIPs = 0.0.0.0/0
Endpoint = vpn.example.com:51820
`;

describe('withPrivateKey', () => {
  it('replaces only the PrivateKey line and keeps the rest byte for byte', () => {
    const key = 'aGVsbG8taGVsbG8taGVsbG8taGVsbG8taGVsbG8tMTI=';
    const out = withPrivateKey(CONFIG, key);
    expect(out).toContain(`PrivateKey = ${key}\n`);
    expect(out).not.toContain(PRIVATE_KEY_PLACEHOLDER);
    expect(out.replace(key, PRIVATE_KEY_PLACEHOLDER)).toBe(CONFIG);
    expect(hasPlaceholderKey(out)).toBe(false);
  });

  it('leaves the PublicKey line alone and copes with odd spacing', () => {
    const out = withPrivateKey('  PrivateKey=OLD\nPublicKey = X', 'NEW');
    expect(out).toBe('  PrivateKey=NEW\nPublicKey = X');
  });

  it('does not treat $ sequences in the key as replacement patterns', () => {
    expect(withPrivateKey('PrivateKey = x', "a$&b$'")).toBe("PrivateKey = a$&b$'");
  });

  it('returns a config without a PrivateKey line unchanged', () => {
    expect(withPrivateKey('[Peer]\nPublicKey = X', 'K')).toBe('[Peer]\nPublicKey = X');
  });
});

describe('configFileName', () => {
  const at = (id: number, name: string) => ({ id, name });

  it('keeps a short device and location name as they are', () => {
    expect(configFileName('laptop', at(1, 'Seoul'))).toBe('laptop-Seoul.conf');
    expect(configFileName('pc', at(3, 'Warsaw-HQ'))).toBe('pc-Warsaw-HQ.conf');
  });

  it('shortens long names to a wg-quick interface name, marking a shortened location with its id', () => {
    expect(configFileName('Anna Work Laptop', at(2, 'Warsaw HQ'))).toBe('Anna-Warsaw-H+2.conf');
    expect(configFileName('Anna-Work-Laptop', at(7, 'Warsaw-HQ'))).toBe('Anna-Warsaw-HQ.conf');
    expect(configFileName('Łódź phone', at(40, 'Main Office'))).toBe('Lodz-Main-Of+14.conf');
  });

  it('never yields an empty or unusable name', () => {
    expect(configFileName('  ', at(1, '***'))).toBe('wg+1.conf');
    expect(configFileName('서울 노트북', at(5, '서울'))).toBe('wg+5.conf');
    expect(configFileName('..', at(6, '..'))).toBe('wg+6.conf');
    expect(configFileName('my/../pc', at(8, 'a/b'))).toBe('my-a-b+8.conf');
  });

  // A seeded generator stands in for a property-test library (none in the console's dependencies).
  const random = seeded(20261124);
  const ALPHABET = ['a', 'Z', '0', '9', '-', '.', '_', '=', '+', ' ', '/', ':', 'ł', 'é', '서', '울', '\u0301', '*', '€'];
  const randomName = () =>
    Array.from({ length: Math.floor(random() * 24) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');

  it('always gives 1–15 characters wg-quick accepts, never "." or ".." (2,000 random names)', () => {
    for (let i = 0; i < 2000; i++) {
      const id = 1 + Math.floor(random() * 2 ** 31);
      const name = configFileName(randomName(), at(id, randomName()));
      expect(name).toMatch(/\.conf$/);
      const stem = name.slice(0, -'.conf'.length);
      expect(stem).toMatch(WG_QUICK_NAME);
      expect(['.', '..']).not.toContain(stem);
    }
  });

  it('keeps the files of one device distinct across its locations (500 random devices)', () => {
    for (let i = 0; i < 500; i++) {
      const device = randomName();
      const names = new Map<string, string>();
      for (let id = 1; id <= 12; id++) {
        const location = `${randomName()}${id % 3 === 0 ? 'Warsaw HQ' : ''}`;
        if ([...names.values()].includes(location)) continue; // location names are unique
        names.set(configFileName(device, at(id, location)), location);
        expect(names.size).toBe(new Set([...names.values()]).size);
      }
    }
  });
});

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('shortKey', () => {
  it('keeps short keys and shortens long ones', () => {
    expect(shortKey('abc')).toBe('abc');
    expect(shortKey('aGVsbG8taGVsbG8taGVsbG8taGVsbG8taGVsbG8tMTI=')).toBe('aGVsbG8t…8tMTI=');
  });
});
