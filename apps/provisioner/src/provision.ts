import type { JobResult, Task } from './api.js';
import type { CardPort } from './card/card-port.js';
import type { KeyAlgorithm } from './config.js';
import { exportPublicKey, exportSshKey, GnupgHome, generateKey } from './gpg.js';

/**
 * One job: a fresh OpenPGP key for the user in a private GnuPG home, its public parts exported
 * (armored, and the authentication subkey in OpenSSH form), the card step, then the home deleted
 * whatever happened. Any failure becomes the error text the admin sees.
 */
export async function provision(task: Task, card: CardPort, algorithm: KeyAlgorithm): Promise<JobResult> {
  const home = await GnupgHome.create();
  try {
    const name = `${task.first_name} ${task.last_name}`.trim() || task.username;
    const fingerprint = await generateKey(home, { name, email: task.email }, algorithm);
    const gpgKey = await exportPublicKey(home, fingerprint);
    const sshKey = await exportSshKey(home, fingerprint);
    const { serial } = await card.writeKeys({ home, fingerprint });
    return { success: true, serial, ssh_key: sshKey, gpg_key: gpgKey };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await home.dispose();
  }
}
