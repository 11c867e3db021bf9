// Generates the TypeScript of the gateway protocol (buf + protoc-gen-es, see buf.gen.yaml) and
// formats it with the repository's Biome settings, so the committed output passes `biome check`.
//
//   node scripts/generate.mjs          regenerate src/gen in place
//   node scripts/generate.mjs --check  regenerate into a temporary directory and exit 1 when the
//                                      committed src/gen differs (stale or hand-edited output)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const GEN = 'src/gen';
const bin = (name) => join(packageDir, 'node_modules', '.bin', name);

function listFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)])).sort();
}

/** Formats through stdin with the path the file has in the package, so Biome applies its config. */
function format(text, packagePath) {
  return execFileSync(bin('biome'), ['format', `--stdin-file-path=${join('packages/proto', packagePath)}`], {
    cwd: join(packageDir, '..', '..'),
    input: text,
    encoding: 'utf8',
    // Biome's stderr (config deprecation notices) is noise here; a failure still throws with it.
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Runs buf generate with `outBase` as output base and formats what it wrote. */
function generate(outBase) {
  execFileSync(bin('buf'), ['generate', '--output', outBase], { cwd: packageDir, stdio: 'inherit' });
  for (const file of listFiles(join(outBase, GEN))) {
    const packagePath = join(GEN, relative(join(outBase, GEN), file));
    writeFileSync(file, format(readFileSync(file, 'utf8'), packagePath));
  }
}

function check() {
  const temp = mkdtempSync(join(tmpdir(), 'palisade-proto-'));
  try {
    generate(temp);
    const fresh = listFiles(join(temp, GEN)).map((f) => relative(join(temp, GEN), f));
    const committed = listFiles(join(packageDir, GEN)).map((f) => relative(join(packageDir, GEN), f));
    const problems = [];
    for (const f of committed) if (!fresh.includes(f)) problems.push(`${GEN}/${f} is not generated from the .proto files`);
    for (const f of fresh) {
      if (!committed.includes(f)) problems.push(`${GEN}/${f} is missing`);
      else if (readFileSync(join(temp, GEN, f), 'utf8') !== readFileSync(join(packageDir, GEN, f), 'utf8')) {
        problems.push(`${GEN}/${f} differs from the generated output`);
      }
    }
    if (problems.length > 0) {
      console.error(`Generated code is stale:\n  ${problems.join('\n  ')}\nRun: pnpm --filter @palisade/proto generate`);
      process.exit(1);
    }
    console.log(`${GEN} matches the .proto files (${fresh.length} file(s)).`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv.includes('--check')) check();
else generate(packageDir);
