import { describe, expect, it } from 'vitest';
import { ipIssue, type MapRow, rowErrorsFromServer, rowsFromImport, rowsToBody, validateRows } from './map-devices';

const ADDRESSES = ['10.8.0.1/24', 'fd00::1/64'];
const row = (over: Partial<MapRow> = {}): MapRow => ({
  wireguard_pubkey: 'K1',
  name: 'laptop',
  ips: '10.8.0.2',
  userId: '3',
  isExisting: false,
  ...over,
});

describe('ipIssue', () => {
  it('accepts host addresses inside one of the networks', () => {
    expect(ipIssue('10.8.0.2', ADDRESSES)).toBeUndefined();
    expect(ipIssue('10.8.0.2/32', ADDRESSES)).toBeUndefined();
    expect(ipIssue('fd00::5', ADDRESSES)).toBeUndefined();
  });
  it('flags invalid text, other prefixes, outside and reserved addresses', () => {
    expect(ipIssue('10.8.0', ADDRESSES)).toBe('network.ip_invalid');
    expect(ipIssue('10.8.0.0/24', ADDRESSES)).toBe('network.ip_invalid');
    expect(ipIssue('192.168.1.2', ADDRESSES)).toBe('network.ip_outside');
    expect(ipIssue('10.8.0.1', ADDRESSES)).toBe('network.ip_outside');
    expect(ipIssue('10.8.0.255', ADDRESSES)).toBe('network.ip_outside');
  });
});

describe('validateRows', () => {
  it('passes complete rows and skips existing devices', () => {
    expect(validateRows([row(), row({ wireguard_pubkey: 'K2', ips: '', name: '', userId: '', isExisting: true })], ADDRESSES).size).toBe(0);
  });
  it('flags unfilled fields and bad addresses per row', () => {
    const errors = validateRows(
      [row({ name: ' ', userId: '' }), row({ wireguard_pubkey: 'K2', ips: '' }), row({ wireguard_pubkey: 'K3', ips: '1.2.3.4' })],
      ADDRESSES,
    );
    expect(errors.get(0)).toEqual({ name: { code: 'required' }, userId: { code: 'required' } });
    expect(errors.get(1)).toEqual({ ips: { code: 'required' } });
    expect(errors.get(2)).toEqual({ ips: { code: 'network.ip_outside' } });
  });
  it('flags the same IP given to two peers, naming the peer that has it', () => {
    const errors = validateRows([row(), row({ wireguard_pubkey: 'K2' })], ADDRESSES);
    expect(errors.get(1)).toEqual({ ips: { code: 'network.ip_in_use', params: { ip: '10.8.0.2', key: 'laptop' } } });
    const unnamed = validateRows(
      [row({ name: '', wireguard_pubkey: 'AAAAAAAAAAAAAAAAAAAAAAAA' }), row({ wireguard_pubkey: 'K2' })],
      ADDRESSES,
    );
    expect(unnamed.get(1)?.ips?.params).toEqual({ ip: '10.8.0.2', key: 'AAAAAAAA…AAAAAA' });
  });
  it('flags an address an existing device of the import keeps', () => {
    const errors = validateRows(
      [row({ isExisting: true, name: 'old', wireguard_pubkey: 'K0' }), row({ wireguard_pubkey: 'K2' })],
      ADDRESSES,
    );
    expect(errors.get(1)?.ips).toEqual({ code: 'network.ip_in_use', params: { ip: '10.8.0.2', key: 'old' } });
  });
});

describe('import rows', () => {
  it('pre-fills from the import response and builds the body of the rows to send', () => {
    const rows = rowsFromImport([
      { wireguard_pubkey: 'A', wireguard_ips: ['10.8.0.2/32', '10.8.0.3/32'] },
      { wireguard_pubkey: 'B', wireguard_ips: ['10.8.0.4'], device_id: 9, user_id: 2, name: 'old' },
    ]);
    expect(rows[0]).toEqual({ wireguard_pubkey: 'A', name: '', ips: '10.8.0.2, 10.8.0.3', userId: '', isExisting: false });
    expect(rows[1]).toMatchObject({ name: 'old', userId: '2', isExisting: true });
    const filled = [{ ...rows[0], name: ' phone ', userId: '5' } as MapRow, rows[1] as MapRow];
    expect(rowsToBody(filled)).toEqual([{ name: 'phone', wireguard_pubkey: 'A', wireguard_ips: ['10.8.0.2', '10.8.0.3'], user_id: 5 }]);
  });
  it('maps server errors at devices.<i>.<field> back to the table rows', () => {
    const rows = [row({ isExisting: true }), row({ wireguard_pubkey: 'K2' })];
    const issue = { code: 'network.ip_in_use', params: { ip: '10.8.0.2', device: 'nas' } };
    const errors = rowErrorsFromServer(rows, { 'devices.0.wireguard_ips': issue });
    expect(errors.get(1)).toEqual({ ips: issue });
  });
});
