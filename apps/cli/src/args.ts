import { parseArgs } from 'node:util';
import { CliError, USAGE_EXIT } from './errors.js';

export const DEFAULT_INTERFACE = 'palisade0';
export const DEFAULT_CONFIG_DIR = '/etc/wireguard';
/** The token may come from the environment instead of the command line (which `ps` shows). */
export const TOKEN_ENV = 'PALISADE_ENROLL_TOKEN';

export const USAGE = `Usage:
  palisade enroll --url URL --token TOKEN [--interface NAME] [--config-dir DIR] [--up] [--force]
  palisade status [--interface NAME] [--config-dir DIR]
  palisade down   [--interface NAME] [--config-dir DIR]

enroll   Redeems a CLI enrollment token from the Palisade console (Network devices): generates the
         WireGuard key pair here (the private key never leaves this machine), registers the public
         key, and writes <config-dir>/<interface>.conf (mode 0600). --up brings the tunnel up with
         wg-quick. The token may be given in ${TOKEN_ENV} instead of --token.
status   Shows whether the tunnel is up, its peer, latest handshake and traffic.
down     Takes the tunnel down (wg-quick down).

Defaults: --interface ${DEFAULT_INTERFACE}, --config-dir ${DEFAULT_CONFIG_DIR}. Bringing a tunnel up or
down needs root. Docs: docs/cli.md.
`;

export interface TunnelTarget {
  interfaceName: string;
  configDir: string;
}

export type Command =
  | { kind: 'help' }
  | ({ kind: 'enroll'; url: URL; token: string; up: boolean; force: boolean } & TunnelTarget)
  | ({ kind: 'status' } & TunnelTarget)
  | ({ kind: 'down' } & TunnelTarget);

/** wg-quick takes the interface name from the file name: at most 15 of these characters. */
const INTERFACE_NAME = /^[a-zA-Z0-9_=+.-]{1,15}$/;

const usageError = (message: string) => new CliError(`${message}\n\n${USAGE}`, USAGE_EXIT);

function target(values: { interface?: string | undefined; 'config-dir'?: string | undefined }): TunnelTarget {
  const interfaceName = values.interface ?? DEFAULT_INTERFACE;
  if (!INTERFACE_NAME.test(interfaceName)) {
    throw usageError(`--interface: "${interfaceName}" is not a WireGuard interface name (1 to 15 of a-z A-Z 0-9 _ = + . -).`);
  }
  const configDir = values['config-dir'] ?? DEFAULT_CONFIG_DIR;
  if (configDir === '') throw usageError('--config-dir: a directory is required.');
  return { interfaceName, configDir };
}

/** The server's base URL: http or https, without query or fragment (a trailing path is kept). */
export function parseServerUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`--url: "${text}" is not a URL (for example https://vpn.example.com).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw usageError(`--url: "${text}" must start with https:// or http://.`);
  url.search = '';
  url.hash = '';
  return url;
}

export function parseCommandLine(argv: string[], env: Record<string, string | undefined> = {}): Command {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return { kind: 'help' };
  const options = {
    url: { type: 'string' },
    token: { type: 'string' },
    interface: { type: 'string' },
    'config-dir': { type: 'string' },
    up: { type: 'boolean' },
    force: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  let values: { [K in keyof typeof options]?: (typeof options)[K]['type'] extends 'string' ? string : boolean };
  try {
    ({ values } = parseArgs({ args: rest, options, allowPositionals: false, strict: true }));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  const onlyFor = (names: (keyof typeof options)[]) => {
    for (const name of names) if (values[name] !== undefined) throw usageError(`--${name} is an option of "palisade enroll" only.`);
  };
  switch (command) {
    case 'enroll': {
      if (!values.url) throw usageError('enroll: --url is required (the Palisade address the token came with).');
      const token = (values.token ?? env[TOKEN_ENV] ?? '').trim();
      if (!token) throw usageError(`enroll: --token is required (or set ${TOKEN_ENV}).`);
      return {
        kind: 'enroll',
        url: parseServerUrl(values.url),
        token,
        up: values.up ?? false,
        force: values.force ?? false,
        ...target(values),
      };
    }
    case 'status':
    case 'down':
      onlyFor(['url', 'token', 'up', 'force']);
      return { kind: command, ...target(values) };
    default:
      throw usageError(`Unknown command "${command}".`);
  }
}
