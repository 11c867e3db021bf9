/** A failure the CLI explains in one line (no stack trace), with the process exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit code of a wrong command line (as the provisioner and most Unix tools use). */
export const USAGE_EXIT = 2;
