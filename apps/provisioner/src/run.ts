import { spawn } from 'node:child_process';
import { readEnvironment } from './env.js';

export class CommandError extends Error {
  override name = 'CommandError';
}

/** Runs a program (no shell), feeding `input` on stdin; resolves with stdout, rejects with stderr's last lines. */
export function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? { ...readEnvironment() }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CommandError(`${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const tail = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ');
      reject(new CommandError(`${command} ${args[0] ?? ''} failed (${signal ?? `exit ${code}`}): ${tail}`));
    });
    // A child that exits without reading its input (gpg listing keys, `gpgconf --kill`) closes the
    // pipe: the write fails with EPIPE. Unhandled, that error event crashed the whole station on a
    // loaded host (the child ran and exited before the write). The exit status decides the result.
    child.stdin.on('error', () => undefined);
    if (options.input === undefined) child.stdin.end();
    else child.stdin.end(options.input);
  });
}
