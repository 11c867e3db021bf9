import { describe, expect, it } from 'vitest';
import { cardHoldsKeys, editKeyResponder, KEYTOCARD_STEPS, keyFingerprints } from './edit-key-dialog.js';

const prompt = '[GNUPG:] GET_LINE keyedit.prompt';
const slot = '[GNUPG:] GET_LINE cardedit.genkeys.storekeytype';
const pin = '[GNUPG:] GET_HIDDEN passphrase.enter';

describe('keytocard dialog', () => {
  it('moves the primary key to slot 1, the encryption subkey to 2, the authentication subkey to 3, then saves', () => {
    const respond = editKeyResponder(KEYTOCARD_STEPS, '87654321');
    const dialog = [
      prompt,
      '[GNUPG:] GET_BOOL keyedit.keytocard.use_primary',
      slot,
      pin,
      '[GNUPG:] KEY_CONSIDERED ABC 0',
      prompt,
      prompt,
      slot,
      prompt,
      prompt,
      prompt,
      slot,
      pin,
      prompt,
    ];
    expect(dialog.map(respond)).toEqual([
      'keytocard',
      'y',
      '1',
      '87654321',
      undefined,
      'key 1',
      'keytocard',
      '2',
      'key 1',
      'key 2',
      'keytocard',
      '3',
      '87654321',
      'save',
    ]);
  });

  it('stops when gpg reports no usable card (it would otherwise go on and save nothing)', () => {
    const respond = editKeyResponder(KEYTOCARD_STEPS, 'x');
    expect(respond('[GNUPG:] CARDCTRL 3 D2760001240103040006123456780000')).toBeUndefined();
    expect(() => respond('[GNUPG:] CARDCTRL 4')).toThrow('No card found (CARDCTRL 4)');
    expect(() => respond('[GNUPG:] CARDCTRL 6')).toThrow(/scdaemon missing/);
  });

  it('stops on a question it does not expect, and on more prompts than steps', () => {
    expect(() => editKeyResponder(KEYTOCARD_STEPS, 'x')('[GNUPG:] GET_BOOL keyedit.remove.subkey.okay')).toThrow(
      /keyedit.remove.subkey.okay/,
    );
    const respond = editKeyResponder([{ command: 'save' }], 'x');
    respond(prompt);
    expect(() => respond(prompt)).toThrow(/more edit commands/);
  });
});

describe('card check after keytocard', () => {
  const listing = [
    'sec:u:255:22:AAAA:1:::u:::scSC:::D2760001240103040006123456780000::ed25519:::0:',
    'fpr:::::::::1111111111111111111111111111111111111111:',
    'grp:::::::::G1:',
    'uid:u::::1::H::A B <a@b.c>::::::::::0:',
    'ssb:u:255:18:BBBB:1::::::e:::D2760001240103040006123456780000::cv25519::',
    'fpr:::::::::2222222222222222222222222222222222222222:',
    'ssb:u:255:22:CCCC:1::::::a:::D2760001240103040006123456780000::ed25519::',
    'fpr:::::::::3333333333333333333333333333333333333333:',
  ].join('\n');

  it('reads the key fingerprints in order and finds them in the card slots', () => {
    const keys = keyFingerprints(listing);
    expect(keys).toEqual(['1'.repeat(40), '2'.repeat(40), '3'.repeat(40)]);
    expect(cardHoldsKeys(`Reader:x\nserial:12345678:\nfpr:${'1'.repeat(40)}:${'2'.repeat(40)}:${'3'.repeat(40)}:\n`, keys)).toBe(true);
  });

  it('refuses an empty or different card', () => {
    const keys = keyFingerprints(listing);
    expect(cardHoldsKeys('serial:12345678:\nfpr::::\n', keys)).toBe(false);
    expect(cardHoldsKeys(`fpr:${'1'.repeat(40)}:${'2'.repeat(40)}:${'4'.repeat(40)}:\n`, keys)).toBe(false);
    expect(cardHoldsKeys('serial:1:\n', keys)).toBe(false);
  });
});
