// Regenerates openapi.json (from the API's routes) and src/schema.ts (openapi-typescript).
// With --check, fails when the committed files differ from what the routes produce now.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const api = join(pkg, '..', '..', 'apps', 'api');
const check = process.argv.includes('--check');

const tmp = mkdtempSync(join(tmpdir(), 'palisade-openapi-'));
const specFile = join(tmp, 'openapi.json');
execFileSync(join(api, 'node_modules', '.bin', 'tsx'), ['scripts/export-openapi.ts', specFile], { cwd: api, stdio: 'inherit' });
const spec = readFileSync(specFile, 'utf8');
const header = '// Generated from apps/api routes by `pnpm gen:api-client`. Do not edit.\n';
const types = header + astToString(await openapiTS(JSON.parse(spec)));

const targets = [
  [join(pkg, 'openapi.json'), spec],
  [join(pkg, 'src', 'schema.ts'), types],
];
if (check) {
  const stale = targets.filter(([file, content]) => {
    try {
      return readFileSync(file, 'utf8') !== content;
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error(`api-client is stale: ${stale.map(([f]) => f).join(', ')}\nRun: pnpm gen:api-client`);
    process.exit(1);
  }
  console.log('api-client is up to date');
} else {
  for (const [file, content] of targets) writeFileSync(file, content);
  console.log('api-client regenerated');
}
