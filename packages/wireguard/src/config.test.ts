import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigParseError, parseWgConfig } from './config-parse.js';
import { PRIVATE_KEY_PLACEHOLDER, renderClientConfig } from './config-render.js';
import { generateKeyPair } from './keys.js';

const k1 = generateKeyPair();
const k2 = generateKeyPair();

const SERVER = `# imported from an existing server
[Interface]
PrivateKey = ${k1.privateKey}
Address = 10.10.0.1/24, fd10::1/64
ListenPort = 51820
PostUp = iptables -A FORWARD -i wg0 -j ACCEPT
DNS = 1.1.1.1, corp.example

[Peer]
PublicKey = ${k2.publicKey}
AllowedIPs = 10.10.0.2/32
AllowedIPs = fd10::2/128
PersistentKeepalive = 25
Endpoint = [2001:db8::1]:51820
`;

const errorOf = (text: string): ConfigParseError => {
  try {
    parseWgConfig(text);
  } catch (error) {
    if (error instanceof ConfigParseError) return error;
    throw error;
  }
  throw new Error('expected a parse error');
};

describe('parseWgConfig', () => {
  it('parses a wg-quick server config with repeated and ignored keys', () => {
    const cfg = parseWgConfig(SERVER);
    expect(cfg.interface).toEqual({
      privateKey: k1.privateKey,
      addresses: ['10.10.0.1/24', 'fd10::1/64'],
      listenPort: 51820,
      dns: ['1.1.1.1', 'corp.example'],
    });
    expect(cfg.peers).toEqual([
      {
        publicKey: k2.publicKey,
        allowedIps: ['10.10.0.2/32', 'fd10::2/128'],
        persistentKeepalive: 25,
        endpoint: { host: '2001:db8::1', port: 51820 },
        line: 9,
      },
    ]);
  });

  it.each([
    ['[Interface]\nPrivateKey = nope', 2, /not a valid WireGuard key/],
    ['[Interface]\nListenPort = 70000', 2, /between 0 and 65535/],
    ['[Interface]\nAddress = 10.0.0.300/24', 2, /Address '10.0.0.300\/24'/],
    ['[Interface]\n[Peer]\nAllowedIPs = 10.0.0.2/32', 2, /no PublicKey/],
    ['[Interface]\nFoo = bar', 2, /unknown key 'foo'/],
    ['[Wat]', 1, /unknown section/],
    ['PrivateKey = x', 1, /outside/],
    ['[Interface]\njust text', 2, /Key = Value/],
    ['[Interface]\nListenPort = 1\nListenPort = 2', 3, /duplicate/],
    [`[Interface]\n[Peer]\nPublicKey = ${k2.publicKey}\nEndpoint = host-without-port`, 4, /host:port/],
    ['', 0, /no \[Interface\]/],
  ])('reports %j at line %i', (text, line, reason) => {
    const err = errorOf(text);
    expect(err.line).toBe(line);
    expect(err.message).toMatch(reason);
  });

  it('gives a config or a ConfigParseError for any input, never another exception', () => {
    const fragments = fc.constantFrom(
      '[Interface]',
      '[Peer]',
      '[interface ]',
      'PrivateKey = ',
      `PrivateKey = ${k1.privateKey}`,
      `PublicKey = ${k2.publicKey}`,
      'Address = ',
      'Address = 10.0.0.1/24',
      'AllowedIPs = 0.0.0.0/0, ::/0',
      'Endpoint = [::1]:1',
      'Endpoint = a:b:c',
      'ListenPort = 99999999999',
      'MTU = 1420',
      'FwMark = 0xffffffffff',
      'DNS = ,,,',
      '=',
      '# comment',
      '\uFEFF',
      '\u0000',
      'PersistentKeepalive = off',
    );
    const line = fc.oneof(fragments, fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        try {
          const cfg = parseWgConfig(lines.join('\n'));
          expect(Array.isArray(cfg.peers)).toBe(true);
        } catch (error) {
          if (!(error instanceof ConfigParseError)) throw error;
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('renderClientConfig', () => {
  it('renders a config the parser reads back, with the private key placeholder', () => {
    const text = renderClientConfig({
      addresses: ['10.10.0.2/24'],
      dns: ['10.10.0.1'],
      peer: {
        publicKey: k1.publicKey,
        allowedIps: ['10.10.0.0/24', '192.168.5.0/24'],
        endpointHost: 'vpn.example.com',
        endpointPort: 51820,
        persistentKeepalive: 25,
      },
    });
    expect(text).toContain(`PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`);
    const withKey = parseWgConfig(text.replace(PRIVATE_KEY_PLACEHOLDER, k2.privateKey));
    expect(withKey.interface.addresses).toEqual(['10.10.0.2/24']);
    expect(withKey.peers[0]).toMatchObject({
      publicKey: k1.publicKey,
      endpoint: { host: 'vpn.example.com', port: 51820 },
      persistentKeepalive: 25,
    });
  });
  it('brackets IPv6 endpoints and omits empty optional lines', () => {
    const text = renderClientConfig({
      addresses: ['fd00::2/64'],
      dns: [],
      peer: { publicKey: k1.publicKey, allowedIps: ['::/0'], endpointHost: '2001:db8::1', endpointPort: 51820 },
    });
    expect(text).toContain('Endpoint = [2001:db8::1]:51820');
    expect(text).not.toContain('DNS');
    expect(text).not.toContain('PersistentKeepalive');
  });
});
