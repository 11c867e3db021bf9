import { isAssignable, parseCidr, parseIp } from '@palisade/wireguard';
import { shortKey } from '@/features/devices/config-text';
import type { ImportedPeer, MappedDevice } from './locations.mutations';

/** One imported peer in the mapping table; IPs are edited as comma-separated text. */
export interface MapRow {
  wireguard_pubkey: string;
  name: string;
  ips: string;
  userId: string;
  /** What the user picker shows for `userId` (the list is searched on the server, never held whole). */
  userLabel?: string;
  /** Already a device of a user (matched by key): shown, not sent again. */
  isExisting: boolean;
}

/** One field's problem: a field code and, for address conflicts, what it conflicts with. */
export interface RowIssue {
  code: string;
  params?: Record<string, string | number>;
}
export type RowErrors = Partial<Record<'name' | 'ips' | 'userId', RowIssue>>;

export const rowsFromImport = (peers: readonly ImportedPeer[]): MapRow[] =>
  peers.map((p) => ({
    wireguard_pubkey: p.wireguard_pubkey,
    name: p.name ?? '',
    ips: p.wireguard_ips.map((ip) => ip.replace(/\/(32|128)$/, '')).join(', '),
    userId: p.user_id ? String(p.user_id) : '',
    isExisting: p.device_id !== undefined,
  }));

const splitIps = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A field code for one IP: invalid text, or an address outside every network of the location. */
export function ipIssue(ip: string, addresses: readonly string[]): string | undefined {
  const host = parseCidr(ip, true);
  if (!host || host.prefix !== (host.address.version === 4 ? 32 : 128) || !parseIp(ip.split('/')[0] ?? '')) return 'network.ip_invalid';
  const networks = addresses.map((a) => parseCidr(a)).filter((c) => c !== undefined);
  return networks.some((n) => isAssignable(n, host.address)) ? undefined : 'network.ip_outside';
}

/** Spec §5 wizard: unfilled fields and invalid addresses are flagged before anything is sent. */
export function validateRows(rows: readonly MapRow[], addresses: readonly string[]): Map<number, RowErrors> {
  const out = new Map<number, RowErrors>();
  // Every address given so far, and to which peer (a second use names the first).
  const seen = new Map<string, MapRow>();
  for (const row of rows) for (const ip of row.isExisting ? splitIps(row.ips) : []) seen.set(ip, row);
  rows.forEach((row, index) => {
    if (row.isExisting) return;
    const errors: RowErrors = {};
    if (!row.name.trim()) errors.name = { code: 'required' };
    if (!row.userId) errors.userId = { code: 'required' };
    const ips = splitIps(row.ips);
    if (ips.length === 0) errors.ips = { code: 'required' };
    for (const ip of ips) {
      const invalid = ipIssue(ip, addresses);
      const other = seen.get(ip);
      if (!other) seen.set(ip, row);
      if (invalid || other) {
        errors.ips = invalid
          ? { code: invalid }
          : { code: 'network.ip_in_use', params: { ip, key: other?.name.trim() || shortKey(other?.wireguard_pubkey ?? '') } };
        break;
      }
    }
    if (Object.keys(errors).length) out.set(index, errors);
  });
  return out;
}

export const rowsToBody = (rows: readonly MapRow[]): MappedDevice[] =>
  rows
    .filter((r) => !r.isExisting)
    .map((r) => ({ name: r.name.trim(), wireguard_pubkey: r.wireguard_pubkey, wireguard_ips: splitIps(r.ips), user_id: Number(r.userId) }));

/** Server errors come back at `devices.<i>.<field>`; <i> counts only the rows that were sent. */
export function rowErrorsFromServer(rows: readonly MapRow[], issues: Record<string, RowIssue>): Map<number, RowErrors> {
  const sentIndexes = rows.flatMap((r, i) => (r.isExisting ? [] : [i]));
  const fieldOf: Record<string, keyof RowErrors> = { name: 'name', wireguard_ips: 'ips', user_id: 'userId', wireguard_pubkey: 'name' };
  const out = new Map<number, RowErrors>();
  for (const [path, issue] of Object.entries(issues)) {
    const match = /^devices\.(\d+)\.(\w+)/.exec(path);
    const rowIndex = match ? sentIndexes[Number(match[1])] : undefined;
    const field = match ? fieldOf[match[2] ?? ''] : undefined;
    if (rowIndex === undefined || !field) continue;
    out.set(rowIndex, { ...out.get(rowIndex), [field]: issue });
  }
  return out;
}
