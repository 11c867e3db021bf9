import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { inNs } from './netns.js';

export interface LineProcess {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first output line (stdout or stderr, so far or later) that matches; rejects after `ms`. */
  waitFor: (match: (line: string) => boolean, ms: number) => Promise<string>;
}

/** Spawns `argv` in `cwd` and collects its stdout and stderr lines. */
export function spawnLines(argv: string[], cwd: string): LineProcess {
  const [cmd = '', ...args] = argv;
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { match: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters]) if (w.match(line)) w.resolve(line);
  };
  if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
  if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);
  const waitFor = (match: (line: string) => boolean, ms: number) =>
    new Promise<string>((resolve, reject) => {
      const found = lines.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`timeout; output so far:\n${lines.join('\n')}`)), ms);
      waiters.push({
        match,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });
  return { child, lines, waitFor };
}

/** PID of the wireguard-go serving `ifname`'s control socket in namespace `ns` (the agent starts it detached). */
export function wireguardGoPid(ns: string, ifname: string): number | undefined {
  const line = inNs(ns, ['ss', '-xlpn'])
    .split('\n')
    .find((l) => l.includes(`/var/run/wireguard/${ifname}.sock`) || l.includes(`/run/wireguard/${ifname}.sock`));
  const pid = line && /pid=(\d+)/.exec(line)?.[1];
  return pid ? Number(pid) : undefined;
}
