import { run } from '../run.js';
import type { CardKeys, CardPort } from './card-port.js';

/**
 * The real card: resets the YubiKey's OpenPGP application (`ykman openpgp reset`), then moves the
 * primary key to the signature slot and the encryption and authentication subkeys to theirs with
 * `gpg --edit-key … keytocard` (the factory admin PIN, or the one configured), and reads the
 * serial from `gpg --card-status`. Needs pcscd and scdaemon (docker/provisioner.Dockerfile).
 * Not exercised by the automated tests (no card there): docs/provisioning.md says how to check it.
 */
export class YubikeyCard implements CardPort {
  constructor(private readonly adminPin: string) {}

  async writeKeys(keys: CardKeys): Promise<{ serial: string }> {
    await run('ykman', ['openpgp', 'reset', '--force'], { env: keys.home.env });
    const serial = await this.serial(keys);
    // keytocard asks for the key's passphrase (none) and the card's admin PIN, fed on the command fd.
    // Slots: 1 signature, 2 encryption, 3 authentication. `key N` selects the Nth subkey.
    const steps = [
      'keytocard',
      'y',
      '1',
      this.adminPin,
      this.adminPin,
      'key 1',
      'keytocard',
      '2',
      this.adminPin,
      'key 1',
      'key 2',
      'keytocard',
      '3',
      this.adminPin,
      'save',
      '',
    ].join('\n');
    await run(
      'gpg',
      ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--command-fd', '0', '--status-fd', '2', '--edit-key', keys.fingerprint],
      { env: keys.home.env, input: steps },
    );
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
}
