import type { Worker } from '@palisade/contracts';

export const PROVISIONER_FILTERS = ['all', 'available', 'unavailable'] as const;
export type ProvisionerFilter = (typeof PROVISIONER_FILTERS)[number];

/** Spec §2 Provisioners overview: filter all / available / unavailable. */
export function filterProvisioners(workers: readonly Worker[], filter: ProvisionerFilter): Worker[] {
  return workers.filter((w) => filter === 'all' || w.available === (filter === 'available'));
}

/** The station's container command (docs/provisioning.md) with this instance's URL and token. */
export function stationCommand(url: string, token: string): string {
  return [
    'docker run -d --name palisade-provisioner --restart unless-stopped --device /dev/bus/usb \\',
    `  -e PROVISIONER_URL=${url} \\`,
    `  -e PROVISIONER_TOKEN=${token} \\`,
    '  -e PROVISIONER_NAME=desk-1 \\',
    '  palisade/provisioner',
  ].join('\n');
}
