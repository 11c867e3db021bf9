import {
  AddGroupMemberBodySchema,
  CreateGroupBodySchema,
  GroupInfoSchema,
  GroupMemberParamsSchema,
  GroupNameParamsSchema,
  GroupParamsSchema,
  GroupSchema,
  GroupsAssignBodySchema,
  UpdateGroupBodySchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';

export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['groups'];
  const groups = app.services.groups;

  app.get(
    '/api/v1/group-info',
    {
      schema: {
        tags,
        summary: 'Groups with ids, members and admin flag',
        response: { 200: z.array(GroupInfoSchema), ...problems(401, 403) },
      },
    },
    () => groups.listInfo(),
  );

  app.get(
    '/api/v1/group',
    { schema: { tags, summary: 'List groups', response: { 200: z.array(GroupSchema), ...problems(401, 403) } } },
    () => groups.list(),
  );

  app.post(
    '/api/v1/group',
    {
      schema: { tags, summary: 'Create a group', body: CreateGroupBodySchema, response: { 201: GroupSchema, ...problems(400, 401, 403) } },
    },
    async (request, reply) => reply.code(201).send(await groups.create(actorOf(request), request.body)),
  );

  app.get(
    '/api/v1/group/:name',
    { schema: { tags, summary: 'A group', params: GroupNameParamsSchema, response: { 200: GroupSchema, ...problems(401, 403, 404) } } },
    (request) => groups.get(request.params.name),
  );

  app.put(
    '/api/v1/group/:name',
    {
      schema: {
        tags,
        summary: 'Rename a group, replace its members or change its admin flag',
        params: GroupNameParamsSchema,
        body: UpdateGroupBodySchema,
        response: { 200: GroupSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    (request) => groups.update(actorOf(request), request.params.name, request.body),
  );

  app.delete(
    '/api/v1/group/:name',
    {
      schema: {
        tags,
        summary: 'Delete a group',
        params: GroupNameParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await groups.delete(actorOf(request), request.params.name);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/groups-assign',
    {
      schema: {
        tags,
        summary: 'Add users to groups',
        body: GroupsAssignBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => {
      await groups.assign(actorOf(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/group/:group',
    {
      schema: {
        tags,
        summary: 'Add a user to a group',
        params: GroupParamsSchema,
        body: AddGroupMemberBodySchema,
        response: { 200: GroupSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => groups.addMember(actorOf(request), request.params.group, request.body.username),
  );

  app.delete(
    '/api/v1/group/:group/user/:username',
    {
      schema: {
        tags,
        summary: 'Remove a user from a group',
        params: GroupMemberParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await groups.removeMember(actorOf(request), request.params.group, request.params.username);
      return reply.code(204).send(null);
    },
  );
};
