/**
 * `@aliases`: the other paths an object answers to. On an object: `GET` its aliases (the `aliases` component),
 * `POST {items: [{path}]}` adds some, `DELETE {items: [{path}]}` removes some. On the site root: `GET` is the
 * site-wide list (`q`, `manual`, `start`, `end`, batched; Site Administrators), and an item of `POST` may name the
 * object it leads to (`redirect-to`), as the original platform's URL management panel sends.
 */
import { batchingLinks, batchParams, param, readBatch, requirePermission, urlOf } from '@cms/shared';
import { z } from 'zod';
import { accessOf } from '../domain/access';
import { MAX_ALIAS_PATH } from '../domain/aliases';
import { SITE_ROOT_TYPE } from '../domain/types';
import { callerOf } from './caller';
import { endpoint, operation } from './declarations';

const MAX_ITEMS = 1000;

const aliasPath = z.string().min(1).max(MAX_ALIAS_PATH);
const isoTime = z
  .string()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'not a date')
  .transform((v) => new Date(v).toISOString());

const addBody = z
  .object({
    items: z
      .array(
        z
          .object({
            path: aliasPath,
            'redirect-to': aliasPath.optional(),
            datetime: isoTime.optional(),
            manual: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_ITEMS),
  })
  .strict();

const removeBody = z
  .object({
    items: z
      .array(z.object({ path: aliasPath }).strict())
      .min(1)
      .max(MAX_ITEMS),
  })
  .strict();

const listQuery = z.object({
  q: param.string().optional(),
  manual: param.boolean().optional(),
  start: param.string().pipe(isoTime).optional(),
  end: param.string().pipe(isoTime).optional(),
  // The original platform's `datetime` filter and the component's options are taken and ignored.
  datetime: param.string().optional(),
  ...batchParams,
});

export const aliases = endpoint({
  name: 'aliases',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: "The object's aliases; on the site root, every alias of the site (filtered, batched)",
      permission: 'View',
      query: listQuery,
      handle: async (call, { expansion, aliases }) => {
        if (call.context.portal_type !== SITE_ROOT_TYPE) {
          return { status: 200, body: await expansion.expand('aliases', call, call.context) };
        }
        requirePermission(call.principal, 'cms.ManagePortal', accessOf(call.context));
        const { q, manual, start, end } = call.query;
        const all = await aliases.list({ q, manual, start, end });
        const batch = readBatch(call.queryParams);
        const url = `${urlOf(call.publicUrl, '/')}/@aliases`;
        const body: Record<string, unknown> = {
          '@id': url,
          items: all.slice(batch.start, batch.start + batch.size).map((e) => ({
            datetime: e.datetime,
            manual: e.manual,
            path: e.path,
            'redirect-to': e.redirectTo,
          })),
          items_total: all.length,
        };
        const batching = batchingLinks(url, call.request.query, batch, all.length);
        if (batching) body.batching = batching;
        return { status: 200, body };
      },
    }),
    POST: operation({
      summary: 'Adds aliases of the object (an item with `redirect-to`: of the object at that path)',
      permission: 'Modify portal content',
      body: addBody,
      handle: async (call, { aliases }) => {
        const caller = callerOf(call);
        const own = call.body.items.filter((i) => i['redirect-to'] === undefined);
        const elsewhere = call.body.items.flatMap((i) =>
          i['redirect-to'] === undefined ? [] : [{ ...i, redirectTo: i['redirect-to'] }],
        );
        if (own.length) await aliases.add(call.context, own, caller);
        if (elsewhere.length) await aliases.addSiteWide(elsewhere, caller);
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: "Removes aliases of the object; on the site root, any object's",
      permission: 'Modify portal content',
      body: removeBody,
      handle: async (call, { aliases }) => {
        const paths = call.body.items.map((i) => i.path);
        if (call.context.portal_type === SITE_ROOT_TYPE) await aliases.removeSiteWide(paths, callerOf(call));
        else await aliases.remove(call.context, paths, callerOf(call));
        return { status: 204 };
      },
    }),
  },
});
