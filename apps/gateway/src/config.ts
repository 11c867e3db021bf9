import { z } from 'zod';

/**
 * Agent configuration: environment variables, each mirrored by a command-line flag. A flag wins
 * over its variable, the variable over the default. A bad or missing value is a `ConfigError`
 * that names the variable (and the flag), so the operator knows exactly what to fix.
 * Pure: the caller passes the environment and argv (env.ts is the only reader of process.env).
 */
export const USERSPACE_MODES = ['auto', 'always', 'never'] as const;
export type UserspaceMode = (typeof USERSPACE_MODES)[number];

/** Linux interface names: at most 15 bytes, no slash, whitespace or colon; not "." or "..". */
const IFNAME = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,15}$/;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const text = z.preprocess(blankToUndefined, z.string({ error: 'is required' }));
const integer = (min: number, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[0-9]+$/, `must be a whole number between ${min} and ${max}`)
      .transform(Number)
      .pipe(z.number().min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`)),
  );
const BOOLEAN_TEXT: Record<string, boolean> = {
  true: true,
  '1': true,
  yes: true,
  on: true,
  false: false,
  '0': false,
  no: false,
  off: false,
};
const boolean = z.preprocess(
  (v) => {
    const raw = blankToUndefined(v);
    return typeof raw === 'string' ? (BOOLEAN_TEXT[raw.trim().toLowerCase()] ?? raw) : raw;
  },
  z.boolean({ error: 'must be true or false' }).default(false),
);

/** Each option: its variable, its flag and its schema (input is the raw string or undefined). */
export const OPTIONS = {
  grpcUrl: {
    env: 'GATEWAY_GRPC_URL',
    flag: '--grpc-url',
    schema: text.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  },
  token: { env: 'GATEWAY_TOKEN', flag: '--token', schema: text.pipe(z.string().regex(/^\S+$/, 'must not contain whitespace')) },
  ifname: {
    env: 'GATEWAY_IFNAME',
    flag: '--ifname',
    schema: z.preprocess(blankToUndefined, z.string().regex(IFNAME, 'must be 1-15 letters, digits, "_", "." or "-"').default('wg0')),
  },
  userspace: {
    env: 'GATEWAY_USERSPACE',
    flag: '--userspace',
    schema: z.preprocess(blankToUndefined, z.enum(USERSPACE_MODES, { error: 'must be auto, always or never' }).default('auto')),
  },
  statsIntervalSeconds: { env: 'GATEWAY_STATS_INTERVAL', flag: '--stats-interval', schema: integer(1, 86_400).default(10) },
  healthPort: { env: 'GATEWAY_HEALTH_PORT', flag: '--health-port', schema: integer(0, 65_535).default(8081) },
  caFile: { env: 'GATEWAY_CA_FILE', flag: '--ca-file', schema: z.preprocess(blankToUndefined, z.string().optional()) },
  /** A switch: `--cleanup-firewall` alone means true (also `--cleanup-firewall=false`). */
  cleanupFirewall: { env: 'GATEWAY_CLEANUP_FIREWALL', flag: '--cleanup-firewall', schema: boolean },
} as const;

/** Options given as a bare flag (no value) mean true. */
const SWITCHES: ReadonlySet<string> = new Set([OPTIONS.cleanupFirewall.flag]);

type Options = typeof OPTIONS;
export type Config = { -readonly [K in keyof Options]: z.output<Options[K]['schema']> };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `help` and `version` short-circuit; otherwise the validated configuration. */
export type ParsedCommandLine = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; config: Config };

const describe = (key: keyof Options) => `${OPTIONS[key].env} (${OPTIONS[key].flag})`;

/** `--flag value` and `--flag=value`; unknown flags and missing values are errors. */
export function parseFlags(argv: readonly string[]): { values: Map<keyof Options, string>; help: boolean; version: boolean } {
  const byFlag = new Map(Object.entries(OPTIONS).map(([key, o]) => [o.flag as string, key as keyof Options]));
  const values = new Map<keyof Options, string>();
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--version' || arg === '-v') version = true;
    else {
      const eq = arg.indexOf('=');
      const flag = eq > 0 ? arg.slice(0, eq) : arg;
      const key = byFlag.get(flag);
      if (!key) throw new ConfigError(`unknown argument '${arg}' (see --help)`);
      const value = eq > 0 ? arg.slice(eq + 1) : SWITCHES.has(flag) ? 'true' : argv[++i];
      if (value === undefined) throw new ConfigError(`${describe(key)}: ${flag} needs a value`);
      values.set(key, value);
    }
  }
  return { values, help, version };
}

export function parseCommandLine(env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): ParsedCommandLine {
  const flags = parseFlags(argv);
  if (flags.help) return { kind: 'help' };
  if (flags.version) return { kind: 'version' };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(OPTIONS) as (keyof Options)[]) {
    const raw = flags.values.get(key) ?? env[OPTIONS[key].env];
    const result = OPTIONS[key].schema.safeParse(raw);
    if (!result.success) throw new ConfigError(`${describe(key)}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
    out[key] = result.data;
  }
  const config = out as Config;
  if (config.caFile !== undefined && !config.grpcUrl.startsWith('https:')) {
    throw new ConfigError(`${describe('caFile')}: needs an https:// ${OPTIONS.grpcUrl.env}`);
  }
  return { kind: 'run', config };
}

export const USAGE = `Usage: palisade-gateway [flags]

Every flag mirrors an environment variable; a flag wins over its variable.

  --grpc-url <url>         GATEWAY_GRPC_URL        control plane gRPC URL, http(s)://host:port (required)
  --token <token>          GATEWAY_TOKEN           location token from the console (required)
  --ifname <name>          GATEWAY_IFNAME          WireGuard interface (default wg0)
  --userspace <mode>       GATEWAY_USERSPACE       auto | always | never: wireguard-go use (default auto)
  --stats-interval <s>     GATEWAY_STATS_INTERVAL  seconds between peer stats reports (default 10)
  --health-port <port>     GATEWAY_HEALTH_PORT     port of the /health endpoint; 0 = any free port (default 8081)
  --ca-file <path>         GATEWAY_CA_FILE         PEM CA bundle to verify the control plane (https only)
  --cleanup-firewall       GATEWAY_CLEANUP_FIREWALL  remove the nftables table on shutdown (default: keep it)
  -h, --help               this help
  -v, --version            agent version
`;
