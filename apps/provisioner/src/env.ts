/** The only file of the station that reads `process.env` (STYLE.md habit 7); config.ts validates it. */
export function readEnvironment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}
