import { LdapTestResultSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { testLdapConnection } from './ldap-client.js';
import { loadLdapConfig } from './ldap-config.js';

export const ldapRoutes: FastifyPluginAsyncZod<{ db: Db; secrets: SecretBox }> = async (app, { db, secrets }) => {
  app.get(
    '/api/v1/ldap/test',
    {
      schema: {
        tags: ['settings'],
        summary: 'Test the LDAP connection',
        description:
          'Connects to the stored LDAP URL (StartTLS and certificate checks as configured), binds as the bind user and reads the user search base. 400 `ldap.connection_rejected` ("LDAP connection rejected: <reason>") when the server cannot be reached, TLS fails, the credentials are refused or the base does not exist. Works whether or not LDAP is enabled, so a connection can be checked before turning it on.',
        response: { 200: LdapTestResultSchema, ...problems(400, 401, 403) },
      },
    },
    async () => {
      await testLdapConnection(await loadLdapConfig(db, secrets));
      return { success: true as const };
    },
  );
};
