/**
 * `@querystring-search`: a query-builder search. `POST` takes the query in its body; `GET` takes the same body
 * JSON-encoded in the `query` parameter (addendum §7). On a Collection, an empty query is the Collection's own.
 */
import {
  badRequest,
  batchingLinks,
  clip,
  DEFAULT_BATCH_SIZE,
  flagValue,
  param,
  urlOf,
  validationError,
  type ContentContext,
  type EndpointCall,
} from '@cms/shared';
import { z } from 'zod';
import { requestedColumns } from '../domain/metadata';
import { endpoint, operation, type SearchDeps } from './declarations';
import { DEFAULT_LIMIT, queryBuilderSearch } from './query-builder';
import { freshnessHeaders } from './read-your-writes';
import { resultItems } from './results';

/** A count: a number or a numeric string (addendum §7); an empty string or null (a cleared form field) is none. */
const count = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v === '' || v === null ? undefined : v),
  z.number().int().min(0).max(1_000_000_000).optional(),
);

const criterion = z.object({
  i: z.string().min(1).max(200),
  o: z.string().min(1).max(200),
  v: z.unknown().optional(),
});

const body = z
  .object({
    query: z.array(criterion).max(100).optional(),
    b_start: count.optional(),
    b_size: count.pipe(z.number().min(1).optional()),
    limit: count.pipe(z.number().min(1).optional()),
    sort_on: z.string().max(200).nullable().optional(),
    sort_order: z.string().max(50).nullable().optional(),
    fullobjects: z
      .union([z.boolean(), z.number(), z.string().max(10)])
      .nullable()
      .optional(),
    metadata_fields: z.union([z.string().max(200), z.array(z.string().max(200)).max(200)]).optional(),
  })
  .passthrough();

type Body = z.infer<typeof body>;

async function answer(call: EndpointCall<ContentContext, unknown, unknown, unknown>, input: Body, deps: SearchDeps) {
  const own = (input.query?.length ?? 0) === 0 ? await collectionOf(call, deps) : null;
  const criteria = input.query?.length ? input.query : (own?.query ?? []);
  if (criteria.length === 0) {
    throw badRequest('The query is empty: give at least one criterion', [{ field: 'query', message: 'empty' }]);
  }
  // Clients send empty strings for "no sort".
  const sortOn = input.sort_on || own?.sort_on || null;
  const sortOrder = input.sort_order || (own?.sort_reversed ? 'descending' : 'ascending');
  const fields = input.metadata_fields;
  const columns = requestedColumns(fields === undefined ? [] : Array.isArray(fields) ? fields : [fields]);
  const batch = { start: input.b_start ?? 0, size: input.b_size ?? DEFAULT_BATCH_SIZE };
  const freshness = await deps.readYourWrites.check(call.requestId, call.log);
  const { items, total } = await queryBuilderSearch(deps.catalog, {
    criteria,
    contextPath: call.contextPath,
    sortOn,
    sortOrder,
    limit: input.limit ?? own?.limit ?? DEFAULT_LIMIT,
    start: batch.start,
    size: batch.size,
    principal: call.principal,
  });
  const self = urlOf(call.publicUrl, call.contextPath) + '/@querystring-search';
  const result: Record<string, unknown> = {
    '@id': self,
    items: await resultItems(
      items,
      {
        fullobjects: flagValue(input.fullobjects),
        columns,
        principal: call.principal,
        publicUrl: call.publicUrl,
        requestId: call.requestId,
      },
      { content: deps.content, comments: deps.comments },
    ),
    items_total: total,
  };
  const batching = batchingLinks(self, call.request.query, batch, total);
  if (batching) result.batching = batching;
  return { status: 200, body: result, headers: freshnessHeaders(freshness) };
}

const collectionSettings = z.object({
  query: z.array(criterion).nullable().catch(null),
  sort_on: z.string().nullable().catch(null),
  sort_reversed: z.boolean().nullable().catch(null),
  limit: z.number().int().min(1).nullable().catch(null),
});

/** The context's own query settings when it is a Collection (content keeps them), else null. */
async function collectionOf(call: EndpointCall<ContentContext, unknown, unknown, unknown>, deps: SearchDeps) {
  const uid = call.context.uid;
  if (!uid) return null;
  const snapshot = await deps.snapshots.current(uid, call.requestId);
  if (!snapshot?.collection_json) return null;
  const parsed = collectionSettings.safeParse(JSON.parse(snapshot.collection_json));
  return parsed.success ? parsed.data : null;
}

/** The body a GET carries in its `query` parameter; some clients encode it twice. */
function bodyOfQueryParameter(raw: string): Body {
  let value: unknown;
  for (const text of [raw, safeDecode(raw)]) {
    try {
      value = JSON.parse(text);
      break;
    } catch {
      value = undefined;
    }
  }
  if (value === undefined) {
    throw badRequest(`The query parameter is not JSON: ${clip(raw, 100)}`, [{ field: 'query', message: 'not JSON' }]);
  }
  const parsed = body.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const querystringSearch = endpoint({
  name: 'querystring-search',
  service: 'search',
  context: 'content',
  cache: 'listing',
  operations: {
    POST: operation({
      summary: 'Query-builder search: criteria {i, o, v}, sort, limit, batching, fullobjects',
      permission: 'View',
      body,
      handle: (call, deps) => answer(call, call.body, deps),
    }),
    GET: operation({
      summary: 'Query-builder search with the POST body JSON-encoded in the `query` parameter',
      permission: 'View',
      query: z.object({ query: param.string() }).passthrough(),
      handle: (call, deps) => answer(call, bodyOfQueryParameter(call.query.query), deps),
    }),
  },
});
