import { CreateDeviceBodySchema } from '@palisade/contracts';
import { generateKeyPair, type KeyPair } from '@palisade/wireguard';
import type { FieldIssues } from '@/lib/field-errors';
import { issuesFromZod } from '@/lib/field-errors';

export type KeyMode = 'generate' | 'own';

export interface DeviceFormValues {
  name: string;
  keyMode: KeyMode;
  publicKey: string;
}

export type DeviceFormResult =
  | { ok: true; body: { name: string; wireguard_pubkey: string }; keyPair: KeyPair | undefined }
  | { ok: false; errors: FieldIssues };

/**
 * Step 1 of the add-device wizard. With "generate", a key pair is made here and only its public
 * half goes into the body; with "use my own", the pasted key is checked like the API checks it.
 */
export function buildDeviceBody(values: DeviceFormValues, makeKeys: () => KeyPair = generateKeyPair): DeviceFormResult {
  const keyPair = values.keyMode === 'generate' ? makeKeys() : undefined;
  const candidate = { name: values.name, wireguard_pubkey: keyPair ? keyPair.publicKey : values.publicKey };
  const parsed = CreateDeviceBodySchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error);
    const { wireguard_pubkey, ...rest } = issues;
    return { ok: false, errors: wireguard_pubkey ? { ...rest, publicKey: wireguard_pubkey } : rest };
  }
  return { ok: true, body: parsed.data, keyPair };
}
