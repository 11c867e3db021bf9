import { z } from 'zod';

/**
 * Directory sync from Google Workspace, Microsoft Entra ID, Okta and JumpCloud (spec §3 External
 * OpenID provider: directory-sync fields; §7 `GET /test_directory_sync`; docs/directory-sync.md).
 */

/** `GET /test_directory_sync`: the provider answered; what it holds (groups: those matching group_match). */
export const DirectorySyncTestResultSchema = z
  .object({ success: z.literal(true), users: z.number().int(), groups: z.number().int() })
  .meta({ id: 'DirectorySyncTestResult' });
export type DirectorySyncTestResult = z.infer<typeof DirectorySyncTestResultSchema>;

/** The provider kinds directory sync reads from (a Custom provider signs in only). */
export const DIRECTORY_SYNC_KINDS = ['Google', 'Microsoft', 'Okta', 'JumpCloud'] as const;
