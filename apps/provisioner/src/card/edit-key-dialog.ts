/**
 * One step of a `gpg --edit-key` session: a command at the edit prompt, and for `keytocard` the
 * card slot (1 signature, 2 encryption, 3 authentication).
 */
export interface EditStep {
  command: string;
  slot?: '1' | '2' | '3';
}

/** Primary → signature slot, first subkey (encryption) → 2, second (authentication) → 3. */
export const KEYTOCARD_STEPS: readonly EditStep[] = [
  { command: 'keytocard', slot: '1' },
  { command: 'key 1' },
  { command: 'keytocard', slot: '2' },
  { command: 'key 1' },
  { command: 'key 2' },
  { command: 'keytocard', slot: '3' },
  { command: 'save' },
];

/** gpg's `CARDCTRL` status codes other than 3 (a card is present). */
const CARD_PROBLEMS: Record<string, string> = {
  '1': 'Insert the card',
  '2': 'Remove the card',
  '4': 'No card found',
  '5': 'No card reader found',
  '6': 'No smart card support (scdaemon missing)',
};

/**
 * Answers gpg's prompts as `--status-fd` announces them (`[GNUPG:] GET_LINE keyedit.prompt`, …),
 * so the dialog does not depend on how often gpg asks for the PIN (scdaemon caches it) or on the
 * order of its questions: the next step's command at each edit prompt, the current step's slot
 * when asked where to store the key, the admin PIN at hidden prompts, yes to moving the primary
 * key and to replacing a slot. An unexpected question, or gpg reporting no usable card, throws
 * (the job fails with that text).
 */
export function editKeyResponder(steps: readonly EditStep[], adminPin: string): (statusLine: string) => string | undefined {
  let next = 0;
  let current: EditStep | undefined;
  return (line) => {
    const card = /^\[GNUPG:\] CARDCTRL ([0-9]+)/.exec(line)?.[1];
    if (card !== undefined && card !== '3') throw new Error(`${CARD_PROBLEMS[card] ?? 'The card is not usable'} (CARDCTRL ${card})`);
    const match = /^\[GNUPG:\] (GET_LINE|GET_BOOL|GET_HIDDEN) (\S+)/.exec(line);
    if (!match) return undefined;
    const [, kind, keyword] = match;
    if (kind === 'GET_HIDDEN') return adminPin;
    if (kind === 'GET_BOOL') {
      if (keyword === 'keyedit.keytocard.use_primary' || keyword === 'cardedit.genkeys.replace_key') return 'y';
      throw new Error(`gpg asked an unexpected question (${keyword})`);
    }
    if (keyword === 'keyedit.prompt') {
      current = steps[next++];
      if (!current) throw new Error('gpg asked for more edit commands than planned');
      return current.command;
    }
    if (keyword === 'cardedit.genkeys.storekeytype' && current?.slot) return current.slot;
    throw new Error(`gpg asked an unexpected question (${keyword})`);
  };
}

/**
 * Whether the card holds the keys: `gpg --card-status --with-colons` lists the fingerprints of its
 * signature, encryption and authentication slots on its `fpr:` line; `keys` are the primary key's
 * and the two subkeys' fingerprints in that order (`gpg --list-secret-keys --with-colons`).
 */
export function cardHoldsKeys(cardStatus: string, keys: readonly string[]): boolean {
  const slots = cardStatus
    .split('\n')
    .find((l) => l.startsWith('fpr:'))
    ?.split(':')
    .slice(1, 4)
    .map((f) => f.toUpperCase());
  return slots !== undefined && keys.length === 3 && keys.every((fpr, i) => slots[i] === fpr.toUpperCase());
}

/** The fingerprints of the primary key and its subkeys, in listing order (`--with-colons`). */
export function keyFingerprints(listing: string): string[] {
  const lines = listing.split('\n');
  return lines.flatMap((line, i) =>
    /^(sec|ssb)/.test(line) && lines[i + 1]?.startsWith('fpr:') ? [lines[i + 1]?.split(':')[9] ?? ''] : [],
  );
}
