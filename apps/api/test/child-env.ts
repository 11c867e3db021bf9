/** The environment of a child process a test starts: this process's, with `extra` on top. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}
