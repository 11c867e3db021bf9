import type { Worker } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { filterProvisioners, stationCommand } from './provisioner-filter';

const worker = (id: number, available: boolean): Worker => ({ id, name: `desk-${id}`, available, created_at: '2026-01-01T00:00:00Z' });
const workers = [worker(1, true), worker(2, false), worker(3, true)];

describe('filterProvisioners', () => {
  it('keeps every station, only the available ones, or only the unavailable ones', () => {
    expect(filterProvisioners(workers, 'all').map((w) => w.id)).toEqual([1, 2, 3]);
    expect(filterProvisioners(workers, 'available').map((w) => w.id)).toEqual([1, 3]);
    expect(filterProvisioners(workers, 'unavailable').map((w) => w.id)).toEqual([2]);
  });
});

describe('stationCommand', () => {
  it('fills in the URL and the registration token', () => {
    const command = stationCommand('https://vpn.example.com', 'palr_abc');
    expect(command).toContain('-e PROVISIONER_URL=https://vpn.example.com');
    expect(command).toContain('-e PROVISIONER_TOKEN=palr_abc');
    expect(command).toMatch(/palisade\/provisioner$/);
  });
});
