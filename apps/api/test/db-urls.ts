/** Test database addresses. Tests (not src/) may read process.env directly. */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://palisade:palisade@127.0.0.1:5432/postgres';

/**
 * Databases are named per test run (`palisade_test_<pid of the vitest main process>_…`): several
 * engineers share one PostgreSQL, and two runs must not drop each other's template or workers.
 * global-setup sets PALISADE_TEST_RUN before the workers start; they inherit it.
 */
export function runPrefix(): string {
  return `palisade_test_${process.env.PALISADE_TEST_RUN ?? 'local'}`;
}

export function templateDatabase(): string {
  return `${runPrefix()}_template`;
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function workerDatabaseName(): string {
  const id = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  return `${runPrefix()}_w${id}`;
}
