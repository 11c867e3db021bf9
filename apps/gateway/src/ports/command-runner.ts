/**
 * Running a system command (`wg`, `ip`, `wireguard-go`). Adapters build argv and parse output;
 * the runner is the only thing that spawns, so adapters can be unit-tested with a recording fake.
 */
export interface CommandResult {
  stdout: string;
  stderr: string;
}

export interface CommandRunner {
  /** Runs to completion; rejects with a `CommandError` on a non-zero exit. Secrets go in `stdin`, never argv. */
  run(argv: readonly string[], options?: { stdin?: string }): Promise<CommandResult>;
  /** Starts a long-lived process that outlives the agent (wireguard-go); returns its PID. */
  spawnDetached(argv: readonly string[]): Promise<number>;
}

export class CommandError extends Error {
  override name = 'CommandError';
  constructor(
    readonly argv: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${argv.join(' ')} failed (exit ${exitCode ?? 'signal'}): ${stderr.trim() || 'no output'}`);
  }
}
