import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { readEnvironment } from './env.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The machine the CLI drives: commands, PATH lookups and the effective user (faked in unit tests). */
export interface System {
  run(cmd: string, args: string[], input?: string): Promise<RunResult>;
  /** Whether an executable of that name is on PATH. */
  has(cmd: string): boolean;
  isRoot(): boolean;
}

export function onPath(cmd: string, path = readEnvironment().PATH ?? ''): boolean {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

export const hostSystem: System = {
  run: (cmd, args, input) =>
    new Promise((resolve) => {
      const child = execFile(cmd, args, { timeout: 60_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && code === 127 ? error.message : '') });
      });
      if (input !== undefined) child.stdin?.end(input);
    }),
  has: (cmd) => onPath(cmd),
  isRoot: () => process.geteuid?.() === 0,
};
