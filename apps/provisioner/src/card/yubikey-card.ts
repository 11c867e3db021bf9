import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { run } from '../run.js';
import type { CardKeys, CardPort } from './card-port.js';
import { cardHoldsKeys, editKeyResponder, KEYTOCARD_STEPS, keyFingerprints } from './edit-key-dialog.js';

/**
 * The real card: resets the YubiKey's OpenPGP application (`ykman openpgp reset`), reads its
 * serial (`gpg --card-status`), then moves the primary key to the signature slot and the
 * encryption and authentication subkeys to theirs with `gpg --edit-key … keytocard`, answering
 * gpg's prompts as its status lines announce them (edit-key-dialog.ts), and checks that the card's
 * slots now hold those keys' fingerprints. Needs pcscd and scdaemon
 * (docker/provisioner.Dockerfile). Not exercised by the automated tests (no card there):
 * docs/provisioning.md says how to check it on a spare card.
 */
export class YubikeyCard implements CardPort {
  constructor(private readonly adminPin: string) {}

  async writeKeys(keys: CardKeys): Promise<{ serial: string }> {
    await run('ykman', ['openpgp', 'reset', '--force'], { env: keys.home.env });
    const serial = await this.serial(keys);
    const fingerprints = keyFingerprints(await keys.home.gpg(['--with-colons', '--list-secret-keys', keys.fingerprint]));
    await this.keytocard(keys);
    const status = await run('gpg', ['--batch', '--with-colons', '--card-status'], { env: keys.home.env });
    if (!cardHoldsKeys(status, fingerprints)) throw new Error('The keys did not reach the card (its slots hold other keys)');
    return { serial };
  }

  private async serial(keys: CardKeys): Promise<string> {
    const status = await run('gpg', ['--batch', '--with-colons', '--card-status'], { env: keys.home.env });
    const serial = status
      .split('\n')
      .find((l) => l.startsWith('serial:'))
      ?.split(':')[1];
    if (!serial) throw new Error('No card found (is the YubiKey plugged in and pcscd running?)');
    return serial;
  }

  private keytocard(keys: CardKeys): Promise<void> {
    const respond = editKeyResponder(KEYTOCARD_STEPS, this.adminPin);
    const args = ['--no-tty', '--pinentry-mode', 'loopback', '--status-fd', '1', '--command-fd', '0', '--edit-key', keys.fingerprint];
    return new Promise((resolve, reject) => {
      const gpg = spawn('gpg', args, { env: keys.home.env, stdio: ['pipe', 'pipe', 'pipe'] });
      let failure: Error | undefined;
      let stderr = '';
      gpg.stderr.on('data', (c: Buffer) => {
        stderr = (stderr + c.toString()).slice(-2000);
      });
      // gpg may exit while an answer is on its way (or after we killed it): not a crash of the station.
      gpg.stdin.on('error', () => undefined);
      createInterface({ input: gpg.stdout }).on('line', (line) => {
        if (failure) return;
        try {
          const answer = respond(line);
          if (answer !== undefined) gpg.stdin.write(`${answer}\n`);
        } catch (error) {
          failure = error as Error;
          gpg.kill();
        }
      });
      gpg.on('error', reject);
      gpg.on('close', (code) => {
        if (failure) return reject(failure);
        if (code !== 0) return reject(new Error(`gpg keytocard failed (exit ${code}): ${stderr.trim().split('\n').slice(-2).join(' ')}`));
        resolve();
      });
    });
  }
}
