import { hostname } from 'node:os';
import { z } from 'zod';

/**
 * Station configuration: environment variables, each mirrored by a flag (a flag wins). A bad or
 * missing value is a `ConfigError` naming the variable and the flag. Pure: the caller passes the
 * environment and argv.
 */
export const KEY_ALGORITHMS = ['ed25519', 'rsa4096'] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];
export const CARDS = ['yubikey', 'simulated'] as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = z.preprocess(blankToUndefined, z.string().optional());

export const OPTIONS = {
  url: {
    env: 'PROVISIONER_URL',
    flag: '--url',
    schema: z.preprocess(blankToUndefined, z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
    help: 'the Palisade URL, e.g. https://vpn.example.com (required)',
  },
  token: {
    env: 'PROVISIONER_TOKEN',
    flag: '--token',
    schema: z.preprocess(blankToUndefined, z.string({ error: 'is required' }).regex(/^\S+$/, 'must not contain whitespace')),
    help: 'the registration token from Provisioners → station setup (required)',
  },
  name: {
    env: 'PROVISIONER_NAME',
    flag: '--name',
    schema: z.preprocess(blankToUndefined, z.string().max(100).default(hostname())),
    help: 'the station name admins pick (default: the host name)',
  },
  keyAlgorithm: {
    env: 'PROVISIONER_KEY_ALGORITHM',
    flag: '--key-algorithm',
    schema: z.preprocess(blankToUndefined, z.enum(KEY_ALGORITHMS, { error: 'must be ed25519 or rsa4096' }).default('ed25519')),
    help: 'ed25519 (ed25519 signing and authentication, cv25519 encryption) or rsa4096 (default ed25519)',
  },
  card: {
    env: 'PROVISIONER_CARD',
    flag: '--card',
    schema: z.preprocess(blankToUndefined, z.enum(CARDS, { error: 'must be yubikey or simulated' }).default('yubikey')),
    help: 'yubikey (a real card through gpg and ykman) or simulated (tests only) (default yubikey)',
  },
  adminPin: {
    env: 'PROVISIONER_ADMIN_PIN',
    flag: '--admin-pin',
    schema: z.preprocess(blankToUndefined, z.string().min(8).default('12345678')),
    help: 'the card admin PIN the reset card has (default 12345678, the factory PIN)',
  },
  pollWaitSeconds: {
    env: 'PROVISIONER_POLL_WAIT',
    flag: '--poll-wait',
    schema: z.preprocess(
      blankToUndefined,
      z.coerce.number({ error: 'must be a whole number' }).int().min(1, 'must be 1-60').max(60, 'must be 1-60').default(25),
    ),
    help: 'seconds one poll waits for a job (default 25; the API may cap it)',
  },
  simulatedCardDir: {
    env: 'PROVISIONER_SIMULATED_CARD_DIR',
    flag: '--simulated-card-dir',
    schema: optional,
    help: 'simulated card: directory where it records the keys moved to it',
  },
  simulatedCardError: {
    env: 'PROVISIONER_SIMULATED_CARD_ERROR',
    flag: '--simulated-card-error',
    schema: optional,
    help: 'simulated card: fail the card step with this text',
  },
  simulatedCardDelaySeconds: {
    env: 'PROVISIONER_SIMULATED_CARD_DELAY',
    flag: '--simulated-card-delay',
    schema: z.preprocess(blankToUndefined, z.coerce.number({ error: 'must be a number' }).min(0).max(3600).default(0)),
    help: 'simulated card: seconds the card step takes (default 0)',
  },
} as const;

type Options = typeof OPTIONS;
export type Config = { -readonly [K in keyof Options]: z.output<Options[K]['schema']> };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type ParsedCommandLine = { kind: 'help' } | { kind: 'run'; config: Config };

const describe = (key: keyof Options) => `${OPTIONS[key].env} (${OPTIONS[key].flag})`;

export function parseCommandLine(env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): ParsedCommandLine {
  const byFlag = new Map(Object.entries(OPTIONS).map(([key, o]) => [o.flag as string, key as keyof Options]));
  const values = new Map<keyof Options, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = byFlag.get(flag);
    if (!key) throw new ConfigError(`unknown argument '${arg}' (see --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ConfigError(`${describe(key)}: ${flag} needs a value`);
    values.set(key, value);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(OPTIONS) as (keyof Options)[]) {
    const result = OPTIONS[key].schema.safeParse(values.get(key) ?? env[OPTIONS[key].env]);
    if (!result.success) throw new ConfigError(`${describe(key)}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
    out[key] = result.data;
  }
  return { kind: 'run', config: out as Config };
}

export const USAGE = `Usage: palisade-provisioner [flags]

Every flag mirrors an environment variable; a flag wins over its variable.

${Object.values(OPTIONS)
  .map((o) => `  ${`${o.flag} <value>`.padEnd(30)} ${o.env.padEnd(34)} ${o.help}`)
  .join('\n')}
  -h, --help
`;
