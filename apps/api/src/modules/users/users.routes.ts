import {
  ChangePasswordBodySchema,
  CreateUserBodySchema,
  SetMyLanguageBodySchema,
  SetPasswordBodySchema,
  UpdateUserBodySchema,
  UserListQuerySchema,
  UserListSchema,
  UsernameAvailableBodySchema,
  UsernameAvailableSchema,
  UsernameParamsSchema,
  UserSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['users'];
  const users = app.services.users;

  app.get(
    '/api/v1/user',
    {
      schema: {
        tags,
        summary: 'List users (paged, searchable)',
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => users.list(request.query),
  );

  app.post(
    '/api/v1/user',
    { schema: { tags, summary: 'Create a user', body: CreateUserBodySchema, response: { 201: UserSchema, ...problems(400, 401, 403) } } },
    async (request, reply) => reply.code(201).send(await users.create(actorOf(request), request.body)),
  );

  app.post(
    '/api/v1/user/available',
    {
      schema: {
        tags,
        summary: 'Is a username free?',
        body: UsernameAvailableBodySchema,
        response: { 200: UsernameAvailableSchema, ...problems(400, 401, 403) },
      },
    },
    async (request) => ({ available: await users.isAvailable(request.body.username) }),
  );

  app.put(
    '/api/v1/user/change_password',
    {
      schema: {
        tags,
        summary: 'Change your own password',
        body: ChangePasswordBodySchema,
        response: { 204: z.null(), ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      await users.changeOwnPassword(actorOf(request), request.body.old_password, request.body.new_password);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/me/language',
    {
      schema: {
        tags,
        summary: "Set the signed-in user's language",
        description: 'The console reports the language its user chose or was given; mail to the user is written in it (docs/mail.md).',
        body: SetMyLanguageBodySchema,
        response: { 204: z.null(), ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      await users.setLanguage(actorOf(request), request.body.language);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/user/:username',
    { schema: { tags, summary: 'A user', params: UsernameParamsSchema, response: { 200: UserSchema, ...problems(401, 403, 404) } } },
    (request) => users.get(request.params.username),
  );

  app.put(
    '/api/v1/user/:username',
    {
      schema: {
        tags,
        summary: 'Update a user (self or admin; only admins change groups and status)',
        params: UsernameParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: UserSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    (request) => users.update(actorOf(request), request.params.username, request.body),
  );

  app.delete(
    '/api/v1/user/:username',
    {
      schema: {
        tags,
        summary: 'Delete a user',
        params: UsernameParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await users.delete(actorOf(request), request.params.username);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/user/:username/password',
    {
      schema: {
        tags,
        summary: "Set a user's password (admin)",
        params: UsernameParamsSchema,
        body: SetPasswordBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await users.setPassword(actorOf(request), request.params.username, request.body.new_password);
      return reply.code(204).send(null);
    },
  );
};
