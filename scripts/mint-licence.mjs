#!/usr/bin/env node
// Mints a Palisade licence key (docs/licensing.md) from a JSON payload and an Ed25519 private key.
//
//   node scripts/mint-licence.mjs payload.json --key licence-private.pem
//   node scripts/mint-licence.mjs payload.json --test-key      (the TEST key: only test builds accept it)
//
// payload.json: {"id": "...", "customer": "...", "type": "subscription" | "offline",
//                "valid_until": "2027-01-01T00:00:00Z", "limits": {"users": 100, ...}}
// (limits absent or null = unlimited). The key is printed on stdout.
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The TEST private key (apps/api/test/support/licence.ts holds the same pair). Never a production key. */
const TEST_PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEII9t/4cLGON+xo7ibuqTbnr6PppD2PdB8xd8yYL7c4tX\n-----END PRIVATE KEY-----\n';

function fail(message) {
  process.stderr.write(`${message}\nUsage: node scripts/mint-licence.mjs <payload.json> (--key <private-key.pem> | --test-key)\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
const payloadFile = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--key');
if (!payloadFile) fail('Missing the payload file.');
const keyIndex = args.indexOf('--key');
const useTestKey = args.includes('--test-key');
if ((keyIndex === -1) === !useTestKey) fail('Give exactly one of --key <file> and --test-key.');
const keyFile = keyIndex === -1 ? undefined : args[keyIndex + 1];
if (keyIndex !== -1 && !keyFile) fail('--key needs a file.');

const payload = JSON.parse(readFileSync(payloadFile, 'utf8'));
for (const field of ['id', 'customer', 'type', 'valid_until']) if (!payload[field]) fail(`The payload has no "${field}".`);
if (!['subscription', 'offline'].includes(payload.type)) fail('"type" is subscription or offline.');
if (Number.isNaN(Date.parse(payload.valid_until))) fail('"valid_until" is not an ISO 8601 time.');

const privateKey = createPrivateKey(useTestKey ? TEST_PRIVATE_KEY : readFileSync(keyFile));
if (privateKey.asymmetricKeyType !== 'ed25519') fail('The private key is not an Ed25519 key.');
const encoded = Buffer.from(JSON.stringify({ v: 1, ...payload })).toString('base64url');
const signature = sign(null, Buffer.from(encoded, 'ascii'), privateKey).toString('base64url');
process.stdout.write(`${encoded}.${signature}\n`);
