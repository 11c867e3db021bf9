import { spawn } from 'node:child_process';
import { CommandError, type CommandResult, type CommandRunner } from '#src/ports/command-runner.js';

/**
 * The real command runner. `prefix` is prepended to every argv: the system tests and the bench
 * pass `['ip', 'netns', 'exec', '<ns>']` to confine the agent to a network namespace.
 */
/**
 * Node's stdin pipes are socketpairs, and `wg` opens `/dev/stdin` with fopen(), which fails on a
 * socket (ENXIO). Commands that get stdin therefore read it through a real pipe from `cat`.
 */
const throughPipe = (argv: readonly string[]) => ['sh', '-c', 'cat | exec "$0" "$@"', ...argv];

export function createCommandRunner(prefix: readonly string[] = []): CommandRunner {
  return {
    run(argv, options) {
      const [cmd, ...args] = [...prefix, ...(options?.stdin === undefined ? argv : throughPipe(argv))];
      return new Promise<CommandResult>((resolve, reject) => {
        const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.stderr.on('data', (b: Buffer) => err.push(b));
        child.on('error', (e) => reject(new CommandError(argv, null, e.message)));
        child.on('close', (code) => {
          const result = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
          if (code === 0) resolve(result);
          else reject(new CommandError(argv, code, result.stderr));
        });
        // A command that exits before reading stdin closes the pipe; its exit code tells the story.
        child.stdin.on('error', () => {});
        child.stdin.end(options?.stdin ?? '');
      });
    },
    spawnDetached(argv) {
      const [cmd, ...args] = [...prefix, ...argv];
      return new Promise<number>((resolve, reject) => {
        // Detached and unreferenced: the tunnel keeps running if the agent stops (fail-open).
        const child = spawn(cmd!, args, { detached: true, stdio: 'ignore' });
        child.on('error', (e) => reject(new CommandError(argv, null, e.message)));
        child.on('spawn', () => {
          child.unref();
          resolve(child.pid!);
        });
      });
    },
  };
}
