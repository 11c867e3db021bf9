import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type Cbor = Parameters<typeof isoCBOR.encode>[0];

/**
 * A software security key for tests: an EC P-256 key pair answering WebAuthn registration (with
 * `none` attestation) and authentication the way a browser serialises them.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly #privateKey: KeyObject;
  readonly #jwk: { x: string; y: string };
  counter = 0;

  constructor(readonly origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.#jwk = { x: jwk.x ?? '', y: jwk.y ?? '' };
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** `startRegistration()`'s result for the given options (challenge and rp.id). */
  register(options: { challenge: string; rp: { id?: string } }): Record<string, unknown> {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const cose = isoCBOR.encode(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(this.#jwk.x, 'base64url')],
        [-3, Buffer.from(this.#jwk.y, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([this.#header(rpId, 0x41), Buffer.alloc(16), idLength, this.credentialId, Buffer.from(cose)]);
    const attestationObject = isoCBOR.encode(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = this.#clientData('webauthn.create', options.challenge);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['usb'],
      },
    };
  }

  /** `startAuthentication()`'s result: signs authenticator data with the next counter value. */
  authenticate(options: { challenge: string; rpId?: string }, counter = this.counter + 1): Record<string, unknown> {
    this.counter = counter;
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const authData = this.#header(rpId, 0x01);
    const clientData = this.#clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), this.#privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
    };
  }

  #header(rpId: string, flags: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count]);
  }

  #clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }
}
