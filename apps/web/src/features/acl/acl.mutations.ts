import { unwrap } from '@palisade/api-client';
import type { AclAlias, AclAliasBody, AclRule, AclRuleBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { aclKeys } from './acl.queries';

const path = (id: number) => ({ params: { path: { id } } });
// An alias change shows in the rules that use it, a rule change in the aliases' "used by".
const invalidate = { invalidate: [aclKeys.all] };

export const useCreateAclRule = () =>
  useMutation({
    mutationFn: async (body: AclRuleBody): Promise<AclRule> => unwrap(api.POST('/api/v1/acl/rule', { body })),
    meta: invalidate,
  });

/** On a deployed rule this creates (or replaces) its pending change. */
export const useUpdateAclRule = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: number; body: AclRuleBody }): Promise<AclRule> =>
      unwrap(api.PUT('/api/v1/acl/rule/{id}', { ...path(id), body })),
    meta: invalidate,
  });

/** A new rule goes at once; a deployed one gets a pending deletion. */
export const useDeleteAclRule = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/acl/rule/{id}', path(id)));
    },
    meta: invalidate,
  });

/** Deploy or discard pending rules (spec §7 PUT /acl/rule/apply; discard alike). */
export const useSettleAclRules = () =>
  useMutation({
    mutationFn: async ({ action, rules }: { action: 'apply' | 'discard'; rules: number[] }) => {
      const body = { rules };
      await unwrap(action === 'apply' ? api.PUT('/api/v1/acl/rule/apply', { body }) : api.PUT('/api/v1/acl/rule/discard', { body }));
    },
    meta: invalidate,
  });

export const useCreateAclAlias = () =>
  useMutation({
    mutationFn: async (body: AclAliasBody): Promise<AclAlias> => unwrap(api.POST('/api/v1/acl/alias', { body })),
    meta: invalidate,
  });

export const useUpdateAclAlias = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: number; body: AclAliasBody }): Promise<AclAlias> =>
      unwrap(api.PUT('/api/v1/acl/alias/{id}', { ...path(id), body })),
    meta: invalidate,
  });

export const useDeleteAclAlias = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/acl/alias/{id}', path(id)));
    },
    meta: invalidate,
  });

/** Deploy or discard pending alias changes (spec §7 PUT /acl/alias/apply; discard alike). */
export const useSettleAclAliases = () =>
  useMutation({
    mutationFn: async ({ action, aliases }: { action: 'apply' | 'discard'; aliases: number[] }) => {
      const body = { aliases };
      await unwrap(action === 'apply' ? api.PUT('/api/v1/acl/alias/apply', { body }) : api.PUT('/api/v1/acl/alias/discard', { body }));
    },
    meta: invalidate,
  });
