import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs a command and returns its stdout; a failure carries the command and its stderr. */
export async function run(cmd: string, args: string[], input?: string): Promise<string> {
  try {
    if (input === undefined) return (await exec(cmd, args, { timeout: 20_000 })).stdout;
    return await new Promise((resolveRun, reject) => {
      const child = execFile(cmd, args, { timeout: 20_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || error.message}`)) : resolveRun(stdout),
      );
      child.stdin?.end(input);
    });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

export function requireRoot(): void {
  if (process.getuid?.() !== 0) throw new Error('system tests need root (network namespaces, wireguard-go)');
  for (const tool of ['/usr/bin/wg', '/usr/bin/wg-quick', '/usr/bin/wireguard-go']) {
    if (!existsSync(tool)) throw new Error(`${tool} is missing: apt-get install --no-install-recommends wireguard-tools wireguard-go`);
  }
}

/** A unique short suffix: interface names are global on the machine (wireguard-go sockets). */
export const uniqueSuffix = () => `${process.pid % 1000}${Math.floor(Math.random() * 900 + 100)}`;

export class Namespace {
  readonly processes: ChildProcess[] = [];
  private constructor(readonly name: string) {}

  static async create(name: string): Promise<Namespace> {
    await run('ip', ['netns', 'add', name]);
    await run('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
    return new Namespace(name);
  }

  exec(cmd: string, args: string[], input?: string): Promise<string> {
    return run('ip', ['netns', 'exec', this.name, cmd, ...args], input);
  }

  /** Starts wireguard-go in the foreground inside the namespace and waits for its socket. */
  async startWireguardGo(ifname: string): Promise<void> {
    const child = spawn('ip', ['netns', 'exec', this.name, 'wireguard-go', '-f', ifname], { stdio: 'ignore' });
    this.processes.push(child);
    for (let i = 0; i < 100; i++) {
      if (existsSync(`/var/run/wireguard/${ifname}.sock`)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`wireguard-go did not create ${ifname}`);
  }

  async destroy(): Promise<void> {
    for (const child of this.processes) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    await run('ip', ['netns', 'delete', this.name]).catch(() => undefined);
  }
}
