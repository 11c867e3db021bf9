// Sums vitest and Playwright JSON results into one closing line: "N passed, N failed, N skipped".
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const data = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (data.stats && 'expected' in data.stats) {
    passed += data.stats.expected + (data.stats.flaky ?? 0);
    failed += data.stats.unexpected;
    skipped += data.stats.skipped;
  } else {
    passed += data.numPassedTests ?? 0;
    failed += data.numFailedTests ?? 0;
    skipped += (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0);
  }
}
console.log(`\nsummary: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0 || failed > 0) process.exit(1);
