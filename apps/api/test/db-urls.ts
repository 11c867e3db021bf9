/** Test database addresses. Tests (not src/) may read process.env directly. */
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://palisade:palisade@127.0.0.1:5432/postgres';

export const TEMPLATE_DATABASE = 'palisade_test_template';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function workerDatabaseName(): string {
  const id = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  return `palisade_test_w${id}`;
}
