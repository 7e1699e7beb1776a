/** `@groups`: list (full views, or summaries when filtered by `query`), create, read, update, delete. */
import { param } from '@cms/shared';
import { z } from 'zod';
import { GROUP_ID } from '../domain/groups';
import { groupJson } from '../domain/groups-serialize';
import { endpoint, operation } from './declarations';
import { groupCallerOf, requestUrl } from './calls';

const DEFAULT_LIMIT = 25;

const text = (max: number) => z.string().max(max).nullable().optional();
const email = z
  .union([z.literal(''), z.string().max(254).email()])
  .nullable()
  .optional();
const ids = z.array(z.string().max(200)).max(10_000);

const newGroupBody = z
  .object({
    groupname: z
      .string()
      .regex(GROUP_ID, 'letters, digits, spaces and ._@+- only, starting with a letter or digit, at most 100'),
    title: text(1000),
    description: text(10_000),
    email,
    roles: z.array(z.string().max(200)).max(100).optional(),
    users: ids.optional(),
    groups: ids.optional(),
  })
  .strict();

const groupChangesBody = z
  .object({
    title: text(1000),
    description: text(10_000),
    email,
    roles: z.array(z.string().max(200)).max(100).optional(),
    users: z.record(z.string().max(200), z.boolean()).optional(),
    groups: ids.optional(),
  })
  .strict();

export const groups = endpoint({
  name: 'groups',
  service: 'identity',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The groups (`query` filters by id or title; `limit`), or one group with its members',
      paths: ['', ':id'],
      permission: 'Manage users',
      query: z.object({ query: param.string().optional(), limit: param.int({ min: 1 }).optional() }),
      handle: async (call, { groups }) => {
        if (call.params.id !== undefined) {
          const group = await groups.get(groupCallerOf(call), call.params.id);
          return { status: 200, body: groupJson(group, call.publicUrl, requestUrl(call)) };
        }
        const { query, limit = DEFAULT_LIMIT } = call.query;
        const found = await groups.list(groupCallerOf(call), query, limit);
        // As the reference: the plain listing shows members, a filtered one summaries.
        const membersUrl = query === undefined ? requestUrl(call) : undefined;
        return { status: 200, body: found.map((g) => groupJson(g, call.publicUrl, membersUrl)) };
      },
    }),
    POST: operation({
      summary: 'Creates a group',
      permission: 'Manage users',
      body: newGroupBody,
      handle: async (call, { groups }) => {
        const group = await groups.create(groupCallerOf(call), () => call.body);
        return {
          status: 201,
          headers: { Location: `${call.publicUrl}/@groups/${group.id}` },
          body: groupJson(group, call.publicUrl, requestUrl(call)),
        };
      },
    }),
    PATCH: operation({
      summary: 'Changes a group: texts, roles, members',
      paths: [':id'],
      permission: 'Manage users',
      body: groupChangesBody,
      handle: async (call, { groups }) => {
        await groups.update(groupCallerOf(call), call.params.id, () => call.body);
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: 'Deletes a group',
      paths: [':id'],
      permission: 'Manage users',
      handle: async (call, { groups }) => {
        await groups.remove(groupCallerOf(call), call.params.id);
        return { status: 204 };
      },
    }),
  },
});
