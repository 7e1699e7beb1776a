/**
 * `@aliases`: the other paths an object answers to. On an object: `GET` its aliases (the `aliases` component),
 * `POST {items: [{path}]}` adds some, `DELETE {items: [{path}]}` removes some. On the site root: `GET` is the
 * site-wide list (`q`, `manual`, `start`, `end`, batched; Site Administrators), and an item of `POST` may name the
 * object it leads to (`redirect-to`), as the original platform's URL management panel sends.
 */
import {
  badRequest,
  batchingLinks,
  batchParams,
  unlessEmpty,
  csvText,
  csvValues,
  param,
  parseCsv,
  DEFAULT_BATCH_SIZE,
  requirePermission,
  urlOf,
} from '@cms/shared';
import { z } from 'zod';
import { accessOf } from '../domain/content';
import { aliasEntriesOf, aliasListItem, aliasMatches, MAX_ALIAS_PATH, type AliasEntry } from '../domain/tree';
import { SITE_ROOT_TYPE } from '../domain/types';
import { callerOf } from './caller';
import { using } from './declarations';

const { endpoint, operation } = using('aliases');

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

/** The columns of the original platform's CSV of redirects (its export and its import). */
const CSV_COLUMNS = ['old path', 'new path', 'datetime', 'manual'] as const;
/** Largest CSV file of aliases taken (its records are bounded by MAX_ITEMS too). */
const MAX_CSV_BYTES = 1024 * 1024;

/** A record of an imported CSV: `old path` and `new path` required; `manual` True/False (True when empty). */
const csvRecord = z
  .object({
    'old path': aliasPath,
    'new path': aliasPath,
    datetime: z.union([z.literal(''), isoTime]).optional(),
    manual: z
      .string()
      .regex(/^(true|false|)$/i, 'True or False')
      .optional(),
  })
  .transform((r) => ({
    path: r['old path'],
    redirectTo: r['new path'],
    ...(r.datetime ? { datetime: r.datetime } : {}),
    manual: (r.manual ?? '').toLowerCase() !== 'false',
  }));

/** An alias as a row of the CSV export: times as the original writes them (`2022/05/05 00:00:00 GMT+0`). */
function csvRow(entry: AliasEntry): string[] {
  const time = entry.datetime.slice(0, 19).replace('T', ' ').replace(/-/g, '/');
  return [entry.path, entry.redirectTo, `${time} GMT+0`, entry.manual ? 'True' : 'False'];
}

const removeBody = z
  .object({
    items: z
      .array(z.object({ path: aliasPath }).strict())
      .min(1)
      .max(MAX_ITEMS),
  })
  .strict();

// Filters sent empty (`start=`, as Volto's URL management panel does) are no filters.
const listQuery = z.object({
  q: unlessEmpty(param.string()),
  // The original platform's other name of `q`.
  query: unlessEmpty(param.string()),
  manual: unlessEmpty(param.boolean()),
  start: unlessEmpty(param.string().pipe(isoTime)),
  end: unlessEmpty(param.string().pipe(isoTime)),
  // The original platform's `datetime` filter and the component's options are taken and ignored.
  datetime: param.string().optional(),
  // An object's URL management panel sends the batch empty too (`b_size=`): the default batch.
  b_start: unlessEmpty(batchParams.b_start),
  b_size: unlessEmpty(batchParams.b_size),
});

export const aliases = endpoint({
  name: 'aliases',
  service: 'content',
  context: 'content',
  cache: 'content',
  operations: {
    GET: operation({
      summary:
        "The object's aliases; on the site root, every alias of the site (filtered, batched), or with " +
        '`Accept: text/csv` all of them as the CSV file `redirects.csv`',
      permission: 'View',
      query: listQuery,
      handle: async (call, { aliases }) => {
        const { q, query, manual, start, end } = call.query;
        const wanted = { q: q ?? query, manual, start, end };
        const root = call.context.portal_type === SITE_ROOT_TYPE;
        if (root) requirePermission(call.principal, 'cms.ManagePortal', accessOf(call.context));
        const all = root
          ? await aliases.list(wanted)
          : aliasEntriesOf(call.context).filter((e) => aliasMatches(e, wanted));
        if (root && call.accepts('text/csv')) {
          return {
            status: 200,
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename=redirects.csv',
            },
            raw: Buffer.from(csvText(CSV_COLUMNS, all.map(csvRow))),
          };
        }
        const batch = { start: call.query.b_start ?? 0, size: call.query.b_size ?? DEFAULT_BATCH_SIZE };
        const url = `${urlOf(call.publicUrl, call.contextPath)}/@aliases`;
        const body: Record<string, unknown> = {
          '@id': url,
          items: all.slice(batch.start, batch.start + batch.size).map(aliasListItem),
          items_total: all.length,
        };
        const batching = batchingLinks(url, call.request.query, batch, all.length);
        if (batching) body.batching = batching;
        return { status: 200, body };
      },
    }),
    POST: operation({
      summary:
        'Adds aliases of the object (an item with `redirect-to`: of the object at that path); on the site root, a ' +
        'CSV file (`old path,new path,datetime,manual`) sent as `multipart/form-data` in the field `file` adds ' +
        'each of its lines, or none',
      permission: 'Modify portal content',
      body: addBody,
      upload: { field: 'file', types: ['text/csv', 'application/csv'], maxBytes: MAX_CSV_BYTES },
      handle: async (call, { aliases }) => {
        const caller = callerOf(call);
        if (call.upload) {
          if (call.context.portal_type !== SITE_ROOT_TYPE)
            throw badRequest('A CSV file of aliases is imported on the site root only');
          requirePermission(call.principal, 'cms.ManagePortal', accessOf(call.context));
          const records = parseCsv(call.upload.text, { maxRecords: MAX_ITEMS });
          const items = csvValues(records, csvRecord);
          if (!items.length) throw badRequest('The CSV file has no aliases');
          await aliases.addSiteWide(items, caller, { lines: records.map((r) => r.line) });
          return { status: 204 };
        }
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
