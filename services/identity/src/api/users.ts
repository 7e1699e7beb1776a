import {
  BASIC_CHALLENGE,
  badRequest,
  notFound,
  type EndpointHandler,
  type EndpointTable,
  type HttpResult,
  type RequestContext,
} from '@cms/shared';
import { z } from 'zod';
import { NullDenial, USER_ID, type UserCaller, type UserCommands } from '../domain/users';
import { userJson } from '../domain/users-serialize';

const DEFAULT_LIMIT = 25;

const text = (max: number) => z.string().max(max).nullable().optional();
const email = z
  .union([z.literal(''), z.string().max(254).email()])
  .nullable()
  .optional();
const password = z.string().min(5, 'at least 5 characters').max(1000);

const newUserBody = z
  .object({
    username: z
      .string()
      .regex(USER_ID, 'letters, digits and ._@+- only, starting with a letter or digit, at most 100')
      .optional(),
    password: password.optional(),
    email,
    fullname: text(1000),
    description: text(10_000),
    home_page: text(2000),
    location: text(1000),
    roles: z.array(z.string()).optional(),
    groups: z.array(z.string()).optional(),
    sendPasswordReset: z.boolean().optional(),
  })
  .strict();

const portraitBody = z
  .object({
    data: z.string(),
    encoding: z.literal('base64'),
    filename: z.string().max(255).optional(),
    'content-type': z.string().max(255),
    scale: z.boolean().optional(),
  })
  .strict();

const userChangesBody = z
  .object({
    email,
    fullname: text(1000),
    description: text(10_000),
    home_page: text(2000),
    location: text(1000),
    password: password.optional(),
    old_password: z.string().max(1000).optional(),
    roles: z.record(z.string(), z.boolean()).optional(),
    portrait: portraitBody.nullable().optional(),
  })
  .strict();

export function callerOf(ctx: RequestContext): UserCaller {
  return { principal: ctx.principal, requestId: ctx.requestId };
}

/** The URL as requested (query included, `b_start` and the like kept), for the `@id` of nested listings. */
export function requestUrl(ctx: RequestContext): string {
  const path = ['@' + ctx.request.endpoint, ...ctx.request.sub_path].join('/');
  const query = new URLSearchParams(ctx.request.query.map((p): [string, string] => [p.key, p.value])).toString();
  return `${ctx.publicUrl}/${path}${query ? `?${query}` : ''}`;
}

function positiveInt(ctx: RequestContext, key: string, fallback: number): number {
  const raw = ctx.query.get(key);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw badRequest(`${key} must be a positive integer`, [{ field: key, message: 'not a positive integer' }]);
  }
  return Number(raw);
}

/** At most one path segment after the endpoint: the user id. */
function userIdOf(ctx: RequestContext): string | undefined {
  const [id, ...rest] = ctx.request.sub_path;
  if (rest.length > 0) throw notFound(`No such resource: ${requestUrl(ctx)}`);
  return id;
}

/** Spec, authentication rule 4: a refusal on the user endpoints is 401 with the body `null`. */
function nullOnDenial(handler: EndpointHandler): EndpointHandler {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (error) {
      if (!(error instanceof NullDenial)) throw error;
      return { status: 401, body: null, headers: ctx.principal ? {} : { ...BASIC_CHALLENGE } };
    }
  };
}

/** `@users` (the accounts) and `@portrait` (their pictures). */
export function userEndpoints(users: UserCommands): EndpointTable {
  return {
    users: {
      GET: nullOnDenial(async (ctx) => {
        const id = userIdOf(ctx);
        if (id !== undefined) {
          const view = await users.get(callerOf(ctx), id);
          return { status: 200, body: userJson(view, ctx.publicUrl, requestUrl(ctx)) };
        }
        const { items, total } = await users.list(callerOf(ctx), {
          query: ctx.query.get('query'),
          search: ctx.query.get('search'),
          groups: ctx.query.getAll('groups-filter'),
          limit: positiveInt(ctx, 'limit', DEFAULT_LIMIT),
        });
        const url = requestUrl(ctx);
        return {
          status: 200,
          body: {
            '@id': `${ctx.publicUrl}/@users`,
            items: items.map((view) => userJson(view, ctx.publicUrl, url)),
            items_total: total,
          },
        };
      }),
      POST: nullOnDenial(async (ctx) => {
        if (userIdOf(ctx) !== undefined) throw notFound(`No such resource: ${requestUrl(ctx)}`);
        const view = await users.create(callerOf(ctx), () => ctx.body(newUserBody));
        const location = `${ctx.publicUrl}/@users/${view.user._id}`;
        return {
          status: 201,
          headers: { Location: location },
          body: userJson(view, ctx.publicUrl, requestUrl(ctx)),
        };
      }),
      PATCH: nullOnDenial(async (ctx) => {
        const id = requiredId(ctx);
        await users.update(callerOf(ctx), id, () => ctx.body(userChangesBody));
        return { status: 204 };
      }),
      DELETE: nullOnDenial(async (ctx) => {
        await users.remove(callerOf(ctx), requiredId(ctx));
        return { status: 204 };
      }),
    },
    portrait: {
      GET: async (ctx): Promise<HttpResult> => {
        const portrait = await users.portrait(callerOf(ctx), userIdOf(ctx));
        return {
          status: 200,
          headers: { 'Content-Type': portrait.contentType, 'X-Content-Type-Options': 'nosniff' },
          raw: portrait.bytes,
        };
      },
    },
  };
}

function requiredId(ctx: RequestContext): string {
  const id = userIdOf(ctx);
  if (id === undefined) {
    throw badRequest(`Name the user: ${ctx.method} @users/<user_id>`);
  }
  return id;
}
