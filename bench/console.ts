/**
 * Console bundle size: the JavaScript a browser loads before the first render — the entry
 * `<script type="module">` of the built index.html plus its `<link rel="modulepreload">` chunks —
 * each gzipped with zlib (default level 6), summed. Target ≤ 250 KB gzipped.
 * CSS is reported beside it for information (not part of the target).
 *
 * With `--browser`, also the user list page with 10,000 users (PostgreSQL, the real app serving
 * that dist) in Debian Chromium through Playwright: time from navigation to the first table rows
 * (fresh browser context, then a reload), and from a search keystroke to the updated rows (this
 * includes the console's 300 ms search debounce). Informational, no target.
 *
 *   npx tsx bench/console.ts [--browser] [dist-dir]   (default apps/web/dist; exits 1 when it is not built)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, normalize, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { machineInfo, percentile, recreateDatabase, REPO_ROOT, round, verdict, writeResult } from './lib/common.ts';
import { type Seeded, seedUsers } from './lib/seed.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const BROWSER_RUNS = 3;

const TARGET_KB = 250;

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
}

interface Asset {
  kind: 'entry' | 'modulepreload' | 'stylesheet';
  href: string;
  bytes: number;
  gzip_bytes: number;
}

function resolveAsset(dist: string, href: string): string {
  if (/^(https?:)?\/\//i.test(href)) throw new Error(`external asset not measurable: ${href}`);
  const path = normalize(join(dist, href.split(/[?#]/)[0]?.replace(/^\//, '') ?? ''));
  if (relative(dist, path).startsWith('..')) throw new Error(`asset outside dist: ${href}`);
  if (!existsSync(path)) throw new Error(`asset listed in index.html is missing: ${href}`);
  return path;
}

/** The slice of Playwright's API used here (the bench package does not depend on Playwright). */
interface Locator {
  first(): Locator;
  waitFor(options: { state: 'visible'; timeout: number }): Promise<void>;
  fill(value: string): Promise<void>;
  press(key: string): Promise<void>;
}
interface Page {
  locator(selector: string): Locator;
  goto(url: string, options: { waitUntil: 'commit' }): Promise<unknown>;
  reload(options: { waitUntil: 'commit' }): Promise<unknown>;
  waitForFunction<A>(fn: (arg: A) => boolean | undefined, arg: A, options: { timeout: number }): Promise<unknown>;
}
interface Context {
  request: { post(url: string, options: { data: unknown }): Promise<{ status(): number }> };
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Chromium {
  launch(options: {
    executablePath: string;
    args: string[];
  }): Promise<{ newContext(o: { baseURL: string }): Promise<Context>; close(): Promise<void> }>;
}

interface UserListPage {
  seeded: Seeded;
  runs: number;
  first_rows_cold_ms: number[];
  first_rows_reload_ms: number[];
  search_keystroke_to_rows_ms: number[];
  summary: { cold_median_ms: number; reload_median_ms: number; search_median_ms: number; search_max_ms: number };
}

/** The users page of the real app (on PostgreSQL with 10,000 users) in Chromium. */
async function measureUserListPage(dist: string): Promise<UserListPage> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install -y chromium)`);
  const e2eRequire = createRequire(join(REPO_ROOT, 'e2e/package.json'));
  const playwright = (await import(e2eRequire.resolve('@playwright/test'))) as { chromium?: Chromium; default?: { chromium: Chromium } };
  const chromium = playwright.chromium ?? playwright.default?.chromium;
  if (!chromium) throw new Error('could not load Playwright from e2e/');

  const url = await recreateDatabase('palisade_bench_console');
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent' });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const seeded = await seedUsers((database.db as unknown as { $client: Pool }).$client, 10_000, 20);
  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', HOST: '127.0.0.1', PORT: '0' });
  const app = await buildApp({
    env,
    database,
    webDist: dist,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false, // as main.ts runs it
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseURL = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const cold: number[] = [];
  const reload: number[] = [];
  const search: number[] = [];
  try {
    for (let run = 0; run < BROWSER_RUNS; run++) {
      const context = await browser.newContext({ baseURL });
      try {
        const login = await context.request.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } });
        if (login.status() !== 200) throw new Error(`login failed: ${login.status()}`);
        const page = await context.newPage();
        const rows = page.locator('table tbody tr');

        let t = performance.now();
        await page.goto('/users', { waitUntil: 'commit' });
        await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
        cold.push(performance.now() - t);

        t = performance.now();
        await page.reload({ waitUntil: 'commit' });
        await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
        reload.push(performance.now() - t);

        // A prefix that matches 10 users, then one more keystroke that narrows it to one.
        // `user0100` matches user01000…user01009 (emails are user100@…, no zero padding).
        const prefix = ['user0100', 'user0234', 'user0468', 'user0711', 'user0999'][run % 5] as string;
        const input = page.locator('#user-search');
        await input.fill(prefix);
        await page.waitForFunction(
          (p: string) => {
            const trs = Array.from(document.querySelectorAll('table tbody tr'));
            return trs.length === 10 && trs.every((tr) => tr.textContent?.includes(p));
          },
          prefix,
          { timeout: 30_000 },
        );
        const target = `${prefix}7`;
        t = performance.now();
        await input.press('7');
        await page.waitForFunction(
          (u: string) => {
            const trs = Array.from(document.querySelectorAll('table tbody tr'));
            return trs.length === 1 && trs[0]?.textContent?.includes(u);
          },
          target,
          { timeout: 30_000 },
        );
        search.push(performance.now() - t);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await app.close();
    await database.close();
  }
  const med = (xs: number[]) =>
    round(
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      ),
    );
  return {
    seeded,
    runs: BROWSER_RUNS,
    first_rows_cold_ms: cold.map((v) => round(v)),
    first_rows_reload_ms: reload.map((v) => round(v)),
    search_keystroke_to_rows_ms: search.map((v) => round(v)),
    summary: {
      cold_median_ms: med(cold),
      reload_median_ms: med(reload),
      search_median_ms: med(search),
      search_max_ms: round(Math.max(...search)),
    },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const browserToo = args.includes('--browser');
  const dist = args.find((a) => !a.startsWith('--')) ?? join(REPO_ROOT, 'apps/web/dist');
  const indexFile = join(dist, 'index.html');
  if (!existsSync(indexFile)) {
    console.error(`console: ${indexFile} not found — build the console first (pnpm --filter @palisade/web build).`);
    process.exit(1);
  }
  const html = readFileSync(indexFile, 'utf8');
  const tags = html.match(/<(script|link)\b[^>]*>/gi) ?? [];
  const assets: Asset[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    let kind: Asset['kind'] | undefined;
    let href: string | undefined;
    if (/^<script/i.test(tag) && /type\s*=\s*["']module["']/i.test(tag)) {
      kind = 'entry';
      href = attr(tag, 'src');
    } else if (/^<link/i.test(tag)) {
      const rel = attr(tag, 'rel')?.toLowerCase();
      if (rel === 'modulepreload') kind = 'modulepreload';
      if (rel === 'stylesheet') kind = 'stylesheet';
      href = attr(tag, 'href');
    }
    if (!kind || !href || seen.has(href)) continue;
    seen.add(href);
    const data = readFileSync(resolveAsset(dist, href));
    assets.push({ kind, href, bytes: data.length, gzip_bytes: gzipSync(data).length });
  }
  const js = assets.filter((a) => a.kind !== 'stylesheet');
  if (!js.some((a) => a.kind === 'entry')) {
    console.error('console: no <script type="module" src=…> entry found in index.html');
    process.exit(1);
  }
  const sum = (xs: Asset[], k: 'bytes' | 'gzip_bytes') => xs.reduce((s, a) => s + a[k], 0);
  const jsGzipKb = sum(js, 'gzip_bytes') / 1024;
  const css = assets.filter((a) => a.kind === 'stylesheet');

  for (const a of assets)
    console.log(`${a.kind.padEnd(13)} ${a.href}  ${round(a.bytes / 1024)} KB → ${round(a.gzip_bytes / 1024)} KB gzip`);
  const result = {
    benchmark: 'console',
    command: 'npx tsx bench/console.ts',
    machine: await machineInfo(false),
    setup: {
      dist: relative(REPO_ROOT, dist) || dist,
      index_built: statSync(indexFile).mtime.toISOString(),
      gzip: 'zlib gzipSync, default level (6)',
    },
    assets,
    figures: {
      initial_js_files: js.length,
      initial_js_kb: round(sum(js, 'bytes') / 1024),
      initial_js_gzip_kb: round(jsGzipKb),
      css_gzip_kb: round(sum(css, 'gzip_bytes') / 1024),
    },
    targets: { initial_js_gzip_at_most_250_kb: verdict(jsGzipKb <= TARGET_KB) },
    user_list_page: undefined as UserListPage | undefined,
  };
  if (browserToo) {
    console.log('\nuser list page in Chromium (10,000 users)…');
    result.user_list_page = await measureUserListPage(dist);
    const s = result.user_list_page.summary;
    console.log(
      `first rows: ${s.cold_median_ms} ms (fresh context, median of ${BROWSER_RUNS}), ${s.reload_median_ms} ms (reload); search keystroke → rows: median ${s.search_median_ms} ms, max ${s.search_max_ms} ms (includes the 300 ms debounce)`,
    );
  }
  const file = writeResult('console', result);
  console.log(
    `\ninitial JS: ${js.length} files, ${result.figures.initial_js_kb} KB raw, ${result.figures.initial_js_gzip_kb} KB gzipped (target ≤ ${TARGET_KB} KB: ${result.targets.initial_js_gzip_at_most_250_kb}); CSS ${result.figures.css_gzip_kb} KB gzipped`,
  );
  console.log(`wrote ${file}`);
}

await main();
