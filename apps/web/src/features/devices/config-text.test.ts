import { describe, expect, it } from 'vitest';
import { configFileName, hasPlaceholderKey, PRIVATE_KEY_PLACEHOLDER, shortKey, withPrivateKey } from './config-text';

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
  it('is <device>-<location>.conf with unsafe characters replaced', () => {
    expect(configFileName('laptop', 'Main Office')).toBe('laptop-Main-Office.conf');
    expect(configFileName('my/../pc', 'Seoul 서울')).toBe('my-..-pc-Seoul-서울.conf');
    expect(configFileName('  ', '***')).toBe('wireguard-wireguard.conf');
  });
});

describe('shortKey', () => {
  it('keeps short keys and shortens long ones', () => {
    expect(shortKey('abc')).toBe('abc');
    expect(shortKey('aGVsbG8taGVsbG8taGVsbG8taGVsbG8taGVsbG8tMTI=')).toBe('aGVsbG8t…8tMTI=');
  });
});
