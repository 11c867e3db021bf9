/** The only file of the CLI that reads `process.env` (STYLE.md habit 7): the token variable and PATH. */
export function readEnvironment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}
