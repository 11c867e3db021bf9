import { describe, expect, it } from 'vitest';
import {
  dockerBuildCommand,
  dockerRunCommand,
  GATEWAY_IMAGE,
  gatewayEnvFile,
  shellQuote,
  systemdCommands,
  systemdInstallCommands,
} from './setup-commands';

const values = { grpcUrl: 'https://vpn.example.com:50055', token: 'tok.en-123_ABC' };

describe('shellQuote', () => {
  it('leaves plain values alone and single-quotes the rest', () => {
    expect(shellQuote('https://a.example:50055')).toBe('https://a.example:50055');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's$x")).toBe(`'it'\\''s$x'`);
  });
});

describe('dockerRunCommand', () => {
  it('runs the palisade/gateway image on the host network with the token and URL', () => {
    const cmd = dockerRunCommand(values);
    expect(cmd).toContain('docker run -d --name palisade-gateway');
    expect(cmd).toContain('--network host --cap-drop ALL --cap-add NET_ADMIN --cap-add NET_RAW --device /dev/net/tun');
    expect(cmd).toContain('-e GATEWAY_GRPC_URL=https://vpn.example.com:50055');
    expect(cmd).toContain('-e GATEWAY_TOKEN=tok.en-123_ABC');
    expect(cmd).toContain('-e GATEWAY_IFNAME=wg0');
    expect(cmd).toContain('-e GATEWAY_USERSPACE=auto');
    expect(cmd.trimEnd().endsWith('palisade/gateway:latest')).toBe(true);
    for (const line of cmd.split('\n').slice(0, -1)) expect(line.endsWith(' \\')).toBe(true);
  });
});

describe('systemd', () => {
  it('writes every agent variable to /etc/palisade/gateway.env and enables the unit', () => {
    const env = gatewayEnvFile({ ...values, ifname: 'wg1' });
    for (const name of [
      'GATEWAY_GRPC_URL=',
      'GATEWAY_TOKEN=tok',
      'GATEWAY_IFNAME=wg1',
      'GATEWAY_USERSPACE=auto',
      'GATEWAY_STATS_INTERVAL=',
      'GATEWAY_HEALTH_PORT=',
      'GATEWAY_CA_FILE=',
    ]) {
      expect(env).toContain(name);
    }
    const cmds = systemdCommands(values);
    expect(cmds).toContain('/etc/palisade/gateway.env');
    expect(cmds).toContain('sudo systemctl enable --now palisade-gateway.service');
  });
});

describe('install', () => {
  it('builds the image the run command starts, from the Dockerfile in this repository', () => {
    const build = dockerBuildCommand();
    expect(build.split('\n')[0]).toBe(`docker build -f docker/gateway.Dockerfile -t ${GATEWAY_IMAGE} .`);
    expect(dockerRunCommand(values).trimEnd().endsWith(GATEWAY_IMAGE)).toBe(true);
    // Anything beyond the build is a comment: nothing is pulled from a registry.
    for (const line of build.split('\n').slice(1)) expect(line.startsWith('#')).toBe(true);
  });

  it('deploys the agent package into /opt/palisade-gateway and installs the unit from docker/', () => {
    const lines = systemdInstallCommands().split('\n');
    expect(lines).toContain('pnpm --filter @palisade/gateway build');
    expect(lines).toContain('pnpm --filter @palisade/gateway deploy --prod --legacy "$out"');
    expect(lines).toContain('sudo cp -R "$out/." /opt/palisade-gateway/');
    expect(lines.at(-1)).toBe('sudo install -m 0644 docker/palisade-gateway.service /etc/systemd/system/');
  });
});
