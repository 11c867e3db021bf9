import { isHostname, isIp, parseCidr } from './ip.js';
import { isValidKey } from './keys.js';

/**
 * Parser for wg(8) and wg-quick(8) configuration files. Any input gives either a parsed config
 * or a `ConfigParseError` naming the line (1-based; 0 for whole-file problems) and the reason.
 */
export interface WgInterface {
  privateKey?: string;
  addresses: string[];
  listenPort?: number;
  dns: string[];
  mtu?: number;
  fwMark?: number;
}

export interface WgPeer {
  publicKey: string;
  presharedKey?: string;
  allowedIps: string[];
  endpoint?: { host: string; port: number };
  persistentKeepalive?: number;
  /** Line of the `[Peer]` header, for error messages further on. */
  line: number;
}

export interface WgConfig {
  interface: WgInterface;
  peers: WgPeer[];
}

export class ConfigParseError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = 'ConfigParseError';
  }
}

/** wg-quick keys that do not concern Palisade; accepted and ignored on import. */
const IGNORED_KEYS = new Set(['table', 'preup', 'postup', 'predown', 'postdown', 'saveconfig']);

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

function parseIntIn(value: string, min: number, max: number, line: number, what: string): number {
  if (!/^[0-9]{1,10}$/.test(value)) throw new ConfigParseError(line, `${what} must be a number`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigParseError(line, `${what} must be between ${min} and ${max}`);
  return n;
}

function parseEndpoint(value: string, line: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:([0-9]+)$/.exec(value) ?? /^([^:[\]]+):([0-9]+)$/.exec(value);
  if (!m) throw new ConfigParseError(line, 'Endpoint must be host:port');
  const host = m[1] ?? '';
  if (!isIp(host) && !isHostname(host)) throw new ConfigParseError(line, `Endpoint host '${host}' is not an IP address or hostname`);
  return { host, port: parseIntIn(m[2] ?? '', 1, 65535, line, 'Endpoint port') };
}

function parseCidrList(value: string, line: number, what: string): string[] {
  return list(value).map((item) => {
    if (!parseCidr(item, true)) throw new ConfigParseError(line, `${what} '${item}' is not a valid IP address or CIDR`);
    return item;
  });
}

function requireKey(value: string, line: number, what: string): string {
  if (!isValidKey(value)) throw new ConfigParseError(line, `${what} is not a valid WireGuard key`);
  return value;
}

type Section = { kind: 'interface'; seen: Set<string> } | { kind: 'peer'; seen: Set<string>; peer: Partial<WgPeer> & { line: number } };

function applyInterfaceKey(iface: WgInterface, key: string, value: string, line: number): void {
  switch (key) {
    case 'privatekey':
      iface.privateKey = requireKey(value, line, 'PrivateKey');
      return;
    case 'address':
      iface.addresses.push(...parseCidrList(value, line, 'Address'));
      return;
    case 'listenport':
      iface.listenPort = parseIntIn(value, 0, 65535, line, 'ListenPort');
      return;
    case 'dns':
      for (const entry of list(value)) {
        if (!isIp(entry) && !isHostname(entry)) throw new ConfigParseError(line, `DNS entry '${entry}' is not an IP address or domain`);
        iface.dns.push(entry);
      }
      return;
    case 'mtu':
      iface.mtu = parseIntIn(value, 576, 65535, line, 'MTU');
      return;
    case 'fwmark':
      iface.fwMark =
        value === 'off'
          ? 0
          : /^0x[0-9a-fA-F]{1,8}$/.test(value)
            ? Number.parseInt(value, 16)
            : parseIntIn(value, 0, 0xffffffff, line, 'FwMark');
      return;
    default:
      throw new ConfigParseError(line, `unknown key '${key}' in [Interface]`);
  }
}

function applyPeerKey(peer: Partial<WgPeer>, key: string, value: string, line: number): void {
  switch (key) {
    case 'publickey':
      peer.publicKey = requireKey(value, line, 'PublicKey');
      return;
    case 'presharedkey':
      peer.presharedKey = requireKey(value, line, 'PresharedKey');
      return;
    case 'allowedips':
      peer.allowedIps = [...(peer.allowedIps ?? []), ...parseCidrList(value, line, 'AllowedIPs')];
      return;
    case 'endpoint':
      peer.endpoint = parseEndpoint(value, line);
      return;
    case 'persistentkeepalive':
      peer.persistentKeepalive = value === 'off' ? 0 : parseIntIn(value, 0, 65535, line, 'PersistentKeepalive');
      return;
    default:
      throw new ConfigParseError(line, `unknown key '${key}' in [Peer]`);
  }
}

const REPEATABLE = new Set(['address', 'dns', 'allowedips']);

function finishPeer(section: Section | undefined, peers: WgPeer[]): void {
  if (section?.kind !== 'peer') return;
  const p = section.peer;
  if (!p.publicKey) throw new ConfigParseError(p.line, '[Peer] has no PublicKey');
  peers.push({ ...p, publicKey: p.publicKey, allowedIps: p.allowedIps ?? [], line: p.line });
}

export function parseWgConfig(text: string): WgConfig {
  const iface: WgInterface = { addresses: [], dns: [] };
  const peers: WgPeer[] = [];
  let section: Section | undefined;
  let sawInterface = false;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/#.*$/, '').trim();
    if (content === '') return;
    const header = /^\[\s*([A-Za-z]+)\s*\]$/.exec(content);
    if (header) {
      finishPeer(section, peers);
      const name = (header[1] ?? '').toLowerCase();
      if (name === 'interface') {
        if (sawInterface) throw new ConfigParseError(line, 'more than one [Interface] section');
        sawInterface = true;
        section = { kind: 'interface', seen: new Set() };
      } else if (name === 'peer') {
        section = { kind: 'peer', seen: new Set(), peer: { line } };
      } else {
        throw new ConfigParseError(line, `unknown section [${header[1]}]`);
      }
      return;
    }
    const eq = content.indexOf('=');
    if (eq <= 0) throw new ConfigParseError(line, "expected 'Key = Value'");
    if (!section) throw new ConfigParseError(line, 'key outside of an [Interface] or [Peer] section');
    const key = content.slice(0, eq).trim().toLowerCase();
    const value = content.slice(eq + 1).trim();
    if (IGNORED_KEYS.has(key) && section.kind === 'interface') return;
    if (section.seen.has(key) && !REPEATABLE.has(key)) throw new ConfigParseError(line, `duplicate key '${content.slice(0, eq).trim()}'`);
    section.seen.add(key);
    if (value === '') throw new ConfigParseError(line, `empty value for '${content.slice(0, eq).trim()}'`);
    if (section.kind === 'interface') applyInterfaceKey(iface, key, value, line);
    else applyPeerKey(section.peer, key, value, line);
  });
  finishPeer(section, peers);
  if (!sawInterface) throw new ConfigParseError(0, 'no [Interface] section');
  return { interface: iface, peers };
}
