import { type EnterpriseInfo, LICENCE_RESOURCES, type LicenceResource } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

export const RESOURCE_LABELS: Record<LicenceResource, MessageKey> = {
  users: 'licence.resource.users',
  devices: 'licence.resource.devices',
  locations: 'licence.resource.locations',
  gateways: 'licence.resource.gateways',
};

export const STATUS_LABELS: Record<EnterpriseInfo['status'], MessageKey> = {
  no_licence: 'licence.status.no_licence',
  active: 'licence.status.active',
  expired: 'licence.status.expired',
  limits_exceeded: 'licence.status.limits_exceeded',
};

/** "Users 7 / 5, Locations 2 / 1": what is over which limit, for the card and the upgrade prompt. */
export function describeExceeded(info: EnterpriseInfo, t: (key: MessageKey) => string): string {
  return LICENCE_RESOURCES.filter((r) => info.exceeded.includes(r))
    .map((r) => `${t(RESOURCE_LABELS[r])} ${info.usage[r]} / ${info.limits[r]}`)
    .join(', ');
}
