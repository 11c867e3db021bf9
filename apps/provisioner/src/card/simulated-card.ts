import { randomInt } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CardKeys, CardPort } from './card-port.js';
import { keyFingerprints } from './edit-key-dialog.js';

/**
 * A card for tests: it "moves" the keys by recording the fingerprints the real card's signature,
 * encryption and authentication slots would hold (and the subkeys' usages) in `dir`/<serial>.json,
 * and answers a fresh 8-digit serial. With `error` set, the card step fails with that text, as a
 * missing or locked card would; with `delayMs`, it takes that long first.
 */
export class SimulatedCard implements CardPort {
  constructor(private readonly options: { dir?: string | undefined; error?: string | undefined; delayMs?: number | undefined }) {}

  async writeKeys(keys: CardKeys): Promise<{ serial: string }> {
    // A slow card (tests of the job heartbeat and deadline): the step takes this long.
    if (this.options.delayMs) await new Promise((resolve) => setTimeout(resolve, this.options.delayMs));
    if (this.options.error) throw new Error(this.options.error);
    const serial = String(randomInt(10_000_000, 100_000_000));
    const listing = await keys.home.gpg(['--with-colons', '--with-keygrip', '--list-secret-keys', keys.fingerprint]);
    const subkeys = listing
      .split('\n')
      .filter((l) => l.startsWith('ssb:'))
      .map((l) => ({ usage: l.split(':')[11] ?? '', id: l.split(':')[4] ?? '' }));
    if (this.options.dir) {
      await mkdir(this.options.dir, { recursive: true });
      const record = {
        serial,
        fingerprint: keys.fingerprint,
        slots: keyFingerprints(listing),
        subkeys,
        moved_at: new Date().toISOString(),
      };
      await writeFile(join(this.options.dir, `${serial}.json`), JSON.stringify(record, null, 2));
    }
    return { serial };
  }
}
