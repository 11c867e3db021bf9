import {
  AclAliasBodySchema,
  AclAliasIdsBodySchema,
  AclAliasInUseProblemSchema,
  AclAliasListSchema,
  AclAliasSchema,
  AclIdParamsSchema,
  AclRuleBodySchema,
  AclRuleIdsBodySchema,
  AclRuleListSchema,
  AclRuleSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { titleFor } from '#src/lib/problem.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { AclAliasesService, AliasInUseProblem } from './acl-aliases.service.js';
import { AclRulesService } from './acl-rules.service.js';

export interface AclRoutesOptions {
  db: Db;
}

/** ACL rules and aliases (spec §7, plus bulk discard); enterprise-only (spec §6), admins only. */
export const aclRoutes: FastifyPluginAsyncZod<AclRoutesOptions> = async (app, options) => {
  const tags = ['acl'];
  const rules = new AclRulesService(options.db);
  const aliases = new AclAliasesService(options.db);

  app.get(
    '/api/v1/acl/rule',
    {
      schema: {
        tags,
        summary: 'List ACL rules: deployed ones and pending changes',
        response: { 200: AclRuleListSchema, ...problems(401, 403) },
      },
    },
    () => rules.list(),
  );

  app.post(
    '/api/v1/acl/rule',
    {
      schema: {
        tags,
        summary: 'Create an ACL rule (pending until deployed)',
        body: AclRuleBodySchema,
        response: { 201: AclRuleSchema, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await rules.create(actorOf(request), request.body)),
  );

  app.put(
    '/api/v1/acl/rule/apply',
    {
      schema: {
        tags,
        summary: 'Deploy pending rules (new rules and pending changes), all or none',
        body: AclRuleIdsBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await rules.apply(actorOf(request), request.body.rules);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/acl/rule/discard',
    {
      schema: {
        tags,
        summary: 'Discard pending rules (new rules and pending changes), all or none',
        body: AclRuleIdsBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await rules.discard(actorOf(request), request.body.rules);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/acl/rule/:id',
    {
      schema: {
        tags,
        summary: 'An ACL rule',
        params: AclIdParamsSchema,
        response: { 200: AclRuleSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => rules.get(request.params.id),
  );

  app.put(
    '/api/v1/acl/rule/:id',
    {
      schema: {
        tags,
        summary: 'Change an ACL rule: a deployed rule gets a pending change (answered), a pending one is edited',
        params: AclIdParamsSchema,
        body: AclRuleBodySchema,
        response: { 200: AclRuleSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => rules.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/acl/rule/:id',
    {
      schema: {
        tags,
        summary: 'Delete an ACL rule: a deployed rule gets a pending deletion, a pending one is discarded',
        params: AclIdParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await rules.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/acl/alias',
    {
      schema: {
        tags,
        summary: 'List ACL aliases (deployed ones and pending changes), each with the deployed rules using it',
        response: { 200: AclAliasListSchema, ...problems(401, 403) },
      },
    },
    () => aliases.list(),
  );

  app.post(
    '/api/v1/acl/alias',
    {
      schema: {
        tags,
        summary: 'Create an ACL alias (deployed at once: no deployed rule uses it yet)',
        body: AclAliasBodySchema,
        response: { 201: AclAliasSchema, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await aliases.create(actorOf(request), request.body)),
  );

  app.put(
    '/api/v1/acl/alias/apply',
    {
      schema: {
        tags,
        summary: 'Deploy pending alias changes, all or none',
        body: AclAliasIdsBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await aliases.apply(actorOf(request), request.body.aliases);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/acl/alias/discard',
    {
      schema: {
        tags,
        summary: 'Discard pending alias changes, all or none',
        body: AclAliasIdsBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await aliases.discard(actorOf(request), request.body.aliases);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/acl/alias/:id',
    {
      schema: {
        tags,
        summary: 'An ACL alias with the deployed rules using it',
        params: AclIdParamsSchema,
        response: { 200: AclAliasSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => aliases.get(request.params.id),
  );

  app.put(
    '/api/v1/acl/alias/:id',
    {
      schema: {
        tags,
        summary: 'Change an ACL alias: one a deployed rule uses gets a pending change (answered), others change in place',
        params: AclIdParamsSchema,
        body: AclAliasBodySchema,
        response: { 200: AclAliasSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => aliases.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/acl/alias/:id',
    {
      schema: {
        tags,
        summary: 'Delete an ACL alias (refused while a rule uses it, listing those rules), or discard its pending change',
        params: AclIdParamsSchema,
        response: { 204: z.null(), 409: AclAliasInUseProblemSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      try {
        await aliases.delete(actorOf(request), request.params.id);
      } catch (error) {
        if (!(error instanceof AliasInUseProblem)) throw error;
        return reply
          .code(409)
          .type('application/problem+json')
          .send({
            type: 'about:blank',
            title: titleFor(409),
            status: 409,
            detail: error.detail ?? '',
            code: 'acl.alias_in_use' as const,
            request_id: String(request.id),
            rules: error.rules,
          });
      }
      return reply.code(204).send(null);
    },
  );
};
