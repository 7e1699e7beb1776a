import { badRequest, notFound, type EndpointTable, type RequestContext } from '@cms/shared';
import { z } from 'zod';
import { GROUP_ID, type GroupCommands } from '../domain/groups';
import { groupJson } from '../domain/groups-serialize';
import { callerOf, requestUrl } from './users';

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
    roles: z.array(z.string()).optional(),
    users: ids.optional(),
    groups: ids.optional(),
  })
  .strict();

const groupChangesBody = z
  .object({
    title: text(1000),
    description: text(10_000),
    email,
    roles: z.array(z.string()).optional(),
    users: z.record(z.string().max(200), z.boolean()).optional(),
    groups: ids.optional(),
  })
  .strict();

function groupIdOf(ctx: RequestContext): string | undefined {
  const [id, ...rest] = ctx.request.sub_path;
  if (rest.length > 0) throw notFound(`No such resource: ${requestUrl(ctx)}`);
  return id;
}

function requiredId(ctx: RequestContext): string {
  const id = groupIdOf(ctx);
  if (id === undefined) throw badRequest(`Name the group: ${ctx.method} @groups/<group_id>`);
  return id;
}

function limitOf(ctx: RequestContext): number {
  const raw = ctx.query.get('limit');
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw badRequest('limit must be a positive integer', [{ field: 'limit', message: 'not a positive integer' }]);
  }
  return Number(raw);
}

/** `@groups`: list (full views, or summaries when filtered by `query`), create, read, update, delete. */
export function groupEndpoints(groups: GroupCommands): EndpointTable {
  return {
    groups: {
      GET: async (ctx) => {
        const id = groupIdOf(ctx);
        if (id !== undefined) {
          const group = await groups.get(callerOf(ctx), id);
          return { status: 200, body: groupJson(group, ctx.publicUrl, requestUrl(ctx)) };
        }
        const query = ctx.query.get('query');
        const found = await groups.list(callerOf(ctx), query, limitOf(ctx));
        // As the reference: the plain listing shows members, a filtered one summaries.
        const membersUrl = query === undefined ? requestUrl(ctx) : undefined;
        return { status: 200, body: found.map((g) => groupJson(g, ctx.publicUrl, membersUrl)) };
      },
      POST: async (ctx) => {
        if (groupIdOf(ctx) !== undefined) throw notFound(`No such resource: ${requestUrl(ctx)}`);
        const group = await groups.create(callerOf(ctx), () => ctx.body(newGroupBody));
        return {
          status: 201,
          headers: { Location: `${ctx.publicUrl}/@groups/${group.id}` },
          body: groupJson(group, ctx.publicUrl, requestUrl(ctx)),
        };
      },
      PATCH: async (ctx) => {
        await groups.update(callerOf(ctx), requiredId(ctx), () => ctx.body(groupChangesBody));
        return { status: 204 };
      },
      DELETE: async (ctx) => {
        await groups.remove(callerOf(ctx), requiredId(ctx));
        return { status: 204 };
      },
    },
  };
}
