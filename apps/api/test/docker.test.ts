import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvSchema } from '#src/env.js';
import { SHUTDOWN_CLOSE_DEADLINE_MS } from '#src/modules/health/drain.js';

/**
 * Static checks of docker/compose.yaml and the Dockerfiles (no Docker needed): pinned images, a
 * non-root user in every final stage (one explained exception), health checks that hit paths the
 * programs serve, ports and volumes that agree between compose and the images, and settings the
 * programs actually read.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');

type Healthcheck = { test?: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
type Service = {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  profiles?: string[];
  restart?: string;
  stop_grace_period?: string;
  depends_on?: Record<string, { condition?: string }> | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: Healthcheck;
  network_mode?: string;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };

const compose = parse(read('docker/compose.yaml')) as Compose;
const services = compose.services;

/** The final stage of a Dockerfile may run as root only with a reason (see that Dockerfile). */
const ROOT_USER_EXCEPTIONS: Record<string, string> = {
  'docker/provisioner.Dockerfile': 'pcscd opens the USB device node, root-owned as on the host',
};
/** Services without a health check, each with the reason. */
const HEALTHCHECK_EXCEPTIONS: Record<string, string> = {
  provisioner: 'the station serves no port; the API shows it unavailable once it stops polling',
};

/** A Dockerfile as instructions (continuation lines joined, comments dropped), split in stages. */
type Instruction = { op: string; args: string };
function parseDockerfile(text: string): Instruction[][] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) pending += `${line.slice(0, -1)} `;
    else {
      logical.push(pending + line);
      pending = '';
    }
  }
  const stages: Instruction[][] = [];
  for (const line of logical) {
    const [op = '', ...rest] = line.split(/\s+/);
    const instruction = { op: op.toUpperCase(), args: rest.join(' ') };
    if (instruction.op === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

const args = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op).map((i) => i.args);

/** `name:1.2.3-variant` or `name:1.2-variant` or `name@sha256:…`: never `latest`, never a bare major. */
function isPinned(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const tag = image.split(':')[1];
  return tag !== undefined && /^\d+\.\d+(\.\d+)?(-[a-z0-9.-]+)?$/.test(tag);
}

/** `KEY=value KEY2=value2` of ENV instructions. */
function envOf(stage: Instruction[]): Map<string, string> {
  const env = new Map<string, string>();
  for (const line of args(stage, 'ENV')) {
    for (const pair of line.split(/\s+/)) {
      const [key = '', value = ''] = pair.split('=');
      env.set(key, value);
    }
  }
  return env;
}

/** The URL a `fetch('http://127.0.0.1:'+(process.env.X||8000)+'/path')` probe (or a literal URL) hits. */
function probe(command: string): { port: number; path: string; portVariable?: string } {
  const withVariable = /fetch\('http:\/\/127\.0\.0\.1:'\+\(process\.env\.([A-Z_]+)\|\|(\d+)\)\+'(\/[^']*)'\)/.exec(command);
  if (withVariable) return { portVariable: withVariable[1], port: Number(withVariable[2]), path: withVariable[3] ?? '' };
  const literal = /fetch\('http:\/\/127\.0\.0\.1:(\d+)(\/[^']*)'\)/.exec(command);
  if (!literal) throw new Error(`no probe URL in ${command}`);
  return { port: Number(literal[1]), path: literal[2] ?? '' };
}

/** `${NAME:-default}` → default; `${NAME}` / plain text as is. */
const defaultOf = (value: string) => /^\$\{[A-Z_]+:-([^}]*)\}$/.exec(value)?.[1] ?? value;

const apiPaths = Object.keys((JSON.parse(read('packages/api-client/openapi.json')) as { paths: object }).paths);
const gatewayVariables = [...read('apps/gateway/src/config.ts').matchAll(/env: '([A-Z_]+)'/g)].map((m) => m[1]);
const provisionerVariables = [...read('apps/provisioner/src/config.ts').matchAll(/env: '([A-Z_]+)'/g)].map((m) => m[1]);
const apiVariables = Object.keys(EnvSchema.shape);
/** Variables read by the runtime itself, not by Palisade's settings. */
const RUNTIME_VARIABLES = ['NODE_ENV'];
const gatewayHealthPath = /path !== '(\/[a-z]+)'/.exec(read('apps/gateway/src/health.ts'))?.[1];
const gatewayHealthPortDefault = Number(/healthPort: \{[^}]*default\((\d+)\)/.exec(read('apps/gateway/src/config.ts'))?.[1]);

const dockerfileOf = (name: string) => {
  const path = services[name]?.build?.dockerfile;
  if (path === undefined) throw new Error(`service ${name} has no build.dockerfile`);
  return { path, stages: parseDockerfile(read(path)) };
};
const finalStage = (name: string) => dockerfileOf(name).stages.at(-1) ?? [];

describe('docker/compose.yaml', () => {
  it('runs PostgreSQL, the API and one gateway (in a profile: it needs a token from the console)', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'palisade', 'gateway']));
    expect(services.postgres?.profiles).toBeUndefined();
    expect(services.palisade?.profiles).toBeUndefined();
    expect(services.gateway?.profiles).toEqual(['gateway']);
  });

  it('pins every image: a full version, never latest', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image, name).toBeDefined();
      const image = service.image ?? '';
      expect(image, name).not.toMatch(/:latest$|^[^:@]+$/);
      if (service.build === undefined) expect(isPinned(image), `${name}: ${image}`).toBe(true);
    }
    expect(services.postgres?.image).toMatch(/^postgres:\d+\.\d+-bookworm$/);
  });

  it('builds its own images from Dockerfiles whose every base image is pinned', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build === undefined) continue;
      expect(service.build.context, name).toBe('..');
      const { path, stages } = dockerfileOf(name);
      expect(existsSync(`${ROOT}${path}`), path).toBe(true);
      const aliases = new Set<string>();
      for (const stage of stages) {
        const [image = '', as, alias] = (stage[0]?.args ?? '').split(/\s+/);
        if (!aliases.has(image)) expect(isPinned(image), `${path}: FROM ${image}`).toBe(true);
        if (as?.toUpperCase() === 'AS' && alias) aliases.add(alias);
      }
    }
  });

  it('gives the API time to drain and close on docker stop (SIGTERM) before Docker kills it', () => {
    const grace = /^(\d+)s$/.exec(services.palisade?.stop_grace_period ?? '')?.[1];
    const drainSeconds = EnvSchema.shape.SHUTDOWN_DRAIN_SECONDS.parse(undefined);
    expect(Number(grace)).toBeGreaterThan(drainSeconds + SHUTDOWN_CLOSE_DEADLINE_MS / 1000);
  });

  it('restarts every service unless stopped', () => {
    for (const [name, service] of Object.entries(services)) expect(service.restart, name).toBe('unless-stopped');
  });

  it('gives every long-running service a health check; the API probes its readiness path', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name in HEALTHCHECK_EXCEPTIONS) {
        expect(service.healthcheck, name).toBeUndefined();
        continue;
      }
      const check = service.healthcheck;
      expect(check?.test?.[0], name).toMatch(/^CMD(-SHELL)?$/);
      expect(check?.interval, name).toMatch(/^\d+s$/);
      expect(check?.timeout, name).toMatch(/^\d+s$/);
      expect(check?.retries, name).toBeGreaterThan(0);
    }
    expect(services.postgres?.healthcheck?.test).toEqual(['CMD-SHELL', 'pg_isready -U palisade -d palisade']);

    const api = probe(services.palisade?.healthcheck?.test?.join(' ') ?? '');
    expect(api.path).toBe('/api/v1/health/ready');
    expect(apiPaths).toContain(api.path);
    expect(services.palisade?.ports?.map((p) => Number(p.split(':').at(-1)))).toContain(api.port);

    const gateway = probe(services.gateway?.healthcheck?.test?.join(' ') ?? '');
    expect(gateway.path).toBe(gatewayHealthPath);
    expect(gateway.portVariable).toBe('GATEWAY_HEALTH_PORT');
    expect(gateway.port).toBe(gatewayHealthPortDefault);
    expect(defaultOf(services.gateway?.environment?.GATEWAY_HEALTH_PORT ?? '')).toBe(String(gateway.port));
  });

  it('starts each service once what it depends on is healthy', () => {
    expect(services.palisade?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services.gateway?.depends_on).toEqual({ palisade: { condition: 'service_healthy' } });
    for (const [name, service] of Object.entries(services)) {
      expect(Array.isArray(service.depends_on), `${name}: depends_on needs conditions`).toBe(false);
      for (const [target, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition, `${name} → ${target}`).toBe('service_healthy');
        expect(services[target]?.healthcheck, `${target} has a health check`).toBeDefined();
      }
    }
  });

  it('publishes HTTP and gRPC, the ports the API image exposes and listens on', () => {
    expect(services.palisade?.ports).toEqual(['8000:8000', '50055:50055']);
    const stage = finalStage('palisade');
    const exposed = args(stage, 'EXPOSE').flatMap((a) => a.split(/\s+/).map(Number));
    expect(exposed.sort()).toEqual(services.palisade?.ports?.map((p) => Number(p.split(':')[1])).sort());
    const env = envOf(stage);
    expect([env.get('PORT'), env.get('GRPC_PORT')]).toEqual(['8000', '50055']);
    // PostgreSQL stays on the compose network.
    expect(services.postgres?.ports).toBeUndefined();
  });

  it('keeps PostgreSQL data and the API data directory in declared named volumes', () => {
    const declared = Object.keys(compose.volumes ?? {});
    const mounts = Object.entries(services).flatMap(([name, s]) => (s.volumes ?? []).map((v) => ({ name, v })));
    for (const { name, v } of mounts) {
      const [source = ''] = v.split(':');
      expect(declared, `${name}: ${v}`).toContain(source);
    }
    expect(services.postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(services.palisade?.volumes).toEqual(['palisade-data:/data']);
    const stage = finalStage('palisade');
    expect(args(stage, 'VOLUME')).toEqual(['["/data"]']);
    expect(envOf(stage).get('DATA_DIR')).toBe('/data');
  });

  it('passes only settings the programs read; SECRET_KEY is required, METRICS_TOKEN passed through', () => {
    const known: Record<string, string[]> = {
      palisade: apiVariables,
      gateway: gatewayVariables as string[],
      provisioner: provisionerVariables as string[],
    };
    for (const [name, variables] of Object.entries(known)) {
      for (const key of Object.keys(services[name]?.environment ?? {})) expect(variables, `${name}: ${key}`).toContain(key);
      for (const key of envOf(finalStage(name)).keys())
        expect([...variables, ...RUNTIME_VARIABLES], `${name} image: ${key}`).toContain(key);
    }
    const env = services.palisade?.environment ?? {};
    expect(env.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?.+\}$/);
    expect(env.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:-\}$/);
    const postgres = services.postgres?.environment ?? {};
    expect(env.DATABASE_URL).toBe(
      `postgres://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@postgres:5432/${postgres.POSTGRES_DB}`,
    );
  });

  it('gives the gateway the host network and only NET_ADMIN and NET_RAW, without no-new-privileges', () => {
    const gateway = services.gateway;
    expect(gateway?.network_mode).toBe('host');
    expect(gateway?.cap_drop).toEqual(['ALL']);
    expect(gateway?.cap_add).toEqual(['NET_ADMIN', 'NET_RAW']);
    // no-new-privileges makes the kernel ignore the launcher's file capabilities (gateway.Dockerfile).
    expect(gateway?.security_opt ?? []).not.toContainEqual(expect.stringContaining('no-new-privileges'));
  });
});

describe('Dockerfiles', () => {
  const dockerfiles = ['docker/api.Dockerfile', 'docker/gateway.Dockerfile', 'docker/provisioner.Dockerfile'];

  it('build from a context without the host node_modules, builds or compose settings (docker/.env: SECRET_KEY)', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', 'docker/.env', '.git']));
  });

  it('are the ones compose builds', () => {
    const built = Object.values(services).flatMap((s) => (s.build?.dockerfile ? [s.build.dockerfile] : []));
    expect(built.sort()).toEqual(dockerfiles);
  });

  it.each(dockerfiles)('%s: every FROM is pinned to a full version', (path) => {
    const stages = parseDockerfile(read(path));
    expect(stages.length).toBeGreaterThan(0);
    const aliases = new Set<string>();
    for (const stage of stages) {
      const [image = '', as, alias] = (stage[0]?.args ?? '').split(/\s+/);
      if (!aliases.has(image)) expect(image).toMatch(/^node:\d+\.\d+\.\d+-bookworm-slim$/);
      if (as?.toUpperCase() === 'AS' && alias) aliases.add(alias);
    }
  });

  it.each(dockerfiles)('%s: the final stage runs as a non-root user (or says why not)', (path) => {
    const final = parseDockerfile(read(path)).at(-1) ?? [];
    const users = args(final, 'USER');
    if (path in ROOT_USER_EXCEPTIONS) {
      expect(users).toEqual([]);
      return;
    }
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:.*)?$/);
    // The user is set after the last RUN: nothing after it runs as root.
    const ops = final.map((i) => i.op);
    expect(ops.lastIndexOf('USER')).toBeGreaterThan(ops.lastIndexOf('RUN'));
  });

  it('the gateway image starts the agent through the capability launcher (non-root with NET_ADMIN)', () => {
    const final = parseDockerfile(read('docker/gateway.Dockerfile')).at(-1) ?? [];
    const entrypoint = JSON.parse(args(final, 'ENTRYPOINT')[0] ?? '[]') as string[];
    expect(entrypoint.slice(0, 4)).toEqual([
      'palisade-netcaps',
      '--inh-caps=+net_admin,+net_raw',
      '--ambient-caps=+net_admin,+net_raw',
      '--',
    ]);
    expect(entrypoint.slice(4)).toEqual(['node', '--enable-source-maps', 'bin/palisade-gateway.mjs']);
    const runs = args(final, 'RUN').join('\n');
    expect(runs).toContain('setcap cap_net_admin,cap_net_raw+p /usr/local/bin/palisade-netcaps');
    expect(runs).toMatch(/install -o root -g node -m 0750 "\$\(command -v setpriv\)" \/usr\/local\/bin\/palisade-netcaps/);
    expect(runs).toMatch(/install -d -o node -g node -m 0700 \/run\/wireguard/);
    expect(args(final, 'USER')).toEqual(['node']);
  });

  it('the API and gateway images check health on a path they serve, on the port they expose', () => {
    const api = finalStage('palisade');
    const apiProbe = probe(args(api, 'HEALTHCHECK')[0] ?? '');
    expect(apiProbe.path).toBe('/api/v1/health/ready');
    expect(apiPaths).toContain(apiProbe.path);
    expect(apiProbe.portVariable).toBe('PORT');
    expect(args(api, 'EXPOSE')[0]?.split(/\s+/)).toContain(envOf(api).get('PORT'));
    expect(envOf(api).get('PORT')).toBe(String(apiProbe.port));

    const gateway = finalStage('gateway');
    const gatewayProbe = probe(args(gateway, 'HEALTHCHECK')[0] ?? '');
    expect(gatewayProbe.path).toBe(gatewayHealthPath);
    expect(gatewayProbe.portVariable).toBe('GATEWAY_HEALTH_PORT');
    expect(args(gateway, 'EXPOSE')).toEqual([String(gatewayHealthPortDefault)]);
    expect(envOf(gateway).get('GATEWAY_HEALTH_PORT')).toBe(String(gatewayHealthPortDefault));
  });
});
