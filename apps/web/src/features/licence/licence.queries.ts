import { unwrap } from '@palisade/api-client';
import type { EnterpriseInfo } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const licenceKeys = {
  enterpriseInfo: ['enterprise-info'] as const,
};

/**
 * A wrong answer (not enterprise info) becomes an error state instead of a broken card. The API
 * client drops nulls, so "no licence", an unlimited limit and "no grace period" arrive as absent
 * fields: the console tests them with `== null`.
 */
function checked(body: unknown): EnterpriseInfo {
  const info = body as Partial<EnterpriseInfo>;
  if (typeof info.status !== 'string' || !Array.isArray(info.exceeded) || !info.usage || !info.limits || !info.free_limits) {
    throw new Error('The API answered GET /enterprise_info with something else than enterprise info.');
  }
  return body as EnterpriseInfo;
}

/** GET /enterprise_info (admins): the licence, its state, usage against the limits. */
export const enterpriseInfoQueryOptions = queryOptions({
  queryKey: licenceKeys.enterpriseInfo,
  queryFn: async ({ signal }): Promise<EnterpriseInfo> => checked(await unwrap(api.GET('/api/v1/enterprise_info', { signal }))),
});
