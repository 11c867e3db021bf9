import { unwrap } from '@palisade/api-client';
import type { SupportConfiguration } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { unwrapText } from '@/lib/text-response';

export const supportKeys = {
  configuration: ['support', 'configuration'] as const,
};

export const fetchSupportConfiguration = (signal?: AbortSignal): Promise<SupportConfiguration> =>
  unwrap(api.GET('/api/v1/support/configuration', { signal }));

export const fetchSupportLogs = (signal?: AbortSignal): Promise<string> =>
  unwrapText(api.GET('/api/v1/support/logs', { parseAs: 'text', signal }));

/** The support data, read when the page opens for the support address it names. */
export const supportConfigurationQueryOptions = queryOptions({
  queryKey: supportKeys.configuration,
  queryFn: ({ signal }) => fetchSupportConfiguration(signal),
});
