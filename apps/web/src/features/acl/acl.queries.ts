import { unwrap } from '@palisade/api-client';
import type { AclAlias, AclRule, NetworkDevice } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const aclKeys = {
  all: ['acl'] as const,
  rules: () => [...aclKeys.all, 'rules'] as const,
  rule: (id: number) => [...aclKeys.rules(), id] as const,
  aliases: () => [...aclKeys.all, 'aliases'] as const,
  networkDevice: (id: number) => [...aclKeys.all, 'network-device', id] as const,
};

/** Every rule row: deployed ones and pending ones (new rules, and pending changes of deployed rules). */
export const aclRulesQueryOptions = queryOptions({
  queryKey: aclKeys.rules(),
  queryFn: async ({ signal }): Promise<AclRule[]> => unwrap(api.GET('/api/v1/acl/rule', { signal })),
});

export const aclRuleQueryOptions = (id: number) =>
  queryOptions({
    queryKey: aclKeys.rule(id),
    queryFn: async ({ signal }): Promise<AclRule> => unwrap(api.GET('/api/v1/acl/rule/{id}', { params: { path: { id } }, signal })),
  });

/** Every alias row: deployed ones and their pending changes. */
export const aclAliasesQueryOptions = queryOptions({
  queryKey: aclKeys.aliases(),
  queryFn: async ({ signal }): Promise<AclAlias[]> => unwrap(api.GET('/api/v1/acl/alias', { signal })),
});

/** One network device, to name the devices a rule holds by id. */
export const aclNetworkDeviceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: aclKeys.networkDevice(id),
    queryFn: async ({ signal }): Promise<NetworkDevice> =>
      unwrap(api.GET('/api/v1/device/network/{id}', { params: { path: { id } }, signal })),
    staleTime: 60_000,
  });
