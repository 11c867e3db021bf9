import { rmSync } from 'node:fs';

// biome-ignore lint/style/noDefaultExport: Playwright loads global teardown from the default export
export default function globalTeardown() {
  const dir = process.env.PALISADE_E2E_DATA_DIR;
  if (dir?.includes('palisade-e2e-')) rmSync(dir, { recursive: true, force: true });
}
