import { z } from 'zod';
import { groupNameSchema, newGroupNameSchema } from './validation.js';

/** API.md §3 fixed shape. */
export const GroupSchema = z
  .object({
    name: z.string(),
    members: z.array(z.string()),
    is_admin: z.boolean(),
  })
  .meta({ id: 'Group' });
export type Group = z.infer<typeof GroupSchema>;

export const GroupInfoSchema = GroupSchema.extend({ id: z.number().int() }).meta({ id: 'GroupInfo' });
export type GroupInfo = z.infer<typeof GroupInfoSchema>;

const usernames = z.array(z.string().min(1).max(64), { error: 'invalid_type' }).max(10_000);

export const GroupNameParamsSchema = z.strictObject({ name: z.string().min(1).max(64) });
export const GroupParamsSchema = z.strictObject({ group: z.string().min(1).max(64) });
export const GroupMemberParamsSchema = z.strictObject({
  group: z.string().min(1).max(64),
  username: z.string().min(1).max(64),
});

export const CreateGroupBodySchema = z.strictObject({
  name: newGroupNameSchema,
  members: usernames.optional(),
  is_admin: z.boolean({ error: 'invalid_type' }).optional(),
});
export type CreateGroupBody = z.infer<typeof CreateGroupBodySchema>;

/**
 * PUT /group/{name}: rename, replace members, set the admin flag. Omitted fields stay. A rename
 * to a reserved name is refused by the API; an existing group keeps its name.
 */
export const UpdateGroupBodySchema = CreateGroupBodySchema.extend({ name: groupNameSchema });
export type UpdateGroupBody = z.infer<typeof UpdateGroupBodySchema>;

export const GroupsAssignBodySchema = z.strictObject({
  groups: z.array(z.string().min(1).max(64)).min(1, { error: 'required' }).max(1000),
  users: usernames.min(1, { error: 'required' }),
});
export type GroupsAssignBody = z.infer<typeof GroupsAssignBodySchema>;

export const AddGroupMemberBodySchema = z.strictObject({ username: z.string().min(1, { error: 'required' }).max(64) });
