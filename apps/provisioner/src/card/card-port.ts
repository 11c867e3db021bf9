import type { GnupgHome } from '../gpg.js';

/** The keys of one job, still in the job's private GnuPG home. */
export interface CardKeys {
  home: GnupgHome;
  /** The primary key fingerprint (its subkeys: encryption and authentication). */
  fingerprint: string;
}

/**
 * The card step (ADR-007): move the freshly generated keys onto the card and answer its serial
 * number. Two adapters: `YubikeyCard` (gpg card commands and ykman) and `SimulatedCard` (tests).
 */
export interface CardPort {
  writeKeys(keys: CardKeys): Promise<{ serial: string }>;
}
