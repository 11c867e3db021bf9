import { CreateNetworkDeviceBodySchema, StartCliBodySchema } from '@palisade/contracts';
import { generateKeyPair, type KeyPair } from '@palisade/wireguard';
import { type FieldIssues, issuesFromZod } from '@/lib/field-errors';
import { splitIps } from './AssignedIpField';
import type { CreateNetworkDeviceBody, StartCliBody } from './network-devices.mutations';

export type NetworkKeyMode = 'generate' | 'own' | 'cli';

export interface NetworkDeviceFormValues {
  name: string;
  locationId: string;
  ips: string;
  keyMode: NetworkKeyMode;
  publicKey: string;
  description: string;
}

export type NetworkDeviceRequest =
  | { kind: 'create'; body: CreateNetworkDeviceBody; keyPair: KeyPair | undefined }
  | { kind: 'cli'; body: StartCliBody }
  | { kind: 'invalid'; errors: FieldIssues };

/** Builds the request for the add dialog, validated with the API's own schemas. */
export function buildNetworkDeviceRequest(v: NetworkDeviceFormValues, makeKeys: () => KeyPair = generateKeyPair): NetworkDeviceRequest {
  const ips = splitIps(v.ips);
  const common = {
    name: v.name,
    location_id: v.locationId ? Number(v.locationId) : undefined,
    ...(ips.length ? { assigned_ips: ips } : {}),
    ...(v.description.trim() ? { description: v.description } : {}),
  };
  if (v.keyMode === 'cli') {
    const parsed = StartCliBodySchema.safeParse(common);
    return parsed.success ? { kind: 'cli', body: parsed.data } : { kind: 'invalid', errors: issuesFromZod(parsed.error) };
  }
  const keyPair = v.keyMode === 'generate' ? makeKeys() : undefined;
  const parsed = CreateNetworkDeviceBodySchema.safeParse({ ...common, wireguard_pubkey: keyPair?.publicKey ?? v.publicKey });
  return parsed.success ? { kind: 'create', body: parsed.data, keyPair } : { kind: 'invalid', errors: issuesFromZod(parsed.error) };
}
