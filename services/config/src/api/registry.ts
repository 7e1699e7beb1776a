/** `@registry`: the configuration registry, read and written by site managers (cms.ManagePortal). */
import {
  batchingLinks,
  batchParams,
  DEFAULT_BATCH_SIZE,
  param,
  stripTypeSuffix,
  type QueryParam__Output,
} from '@cms/shared';
import { z } from 'zod';
import { fieldDefinition } from '../domain/records';
import { endpoint, operation } from './declarations';

/** Query parameters that select a batch; the canonical `@id` of a listing leaves them out. */
const BATCH_PARAMS = new Set(['b_start', 'b_size']);

function withQuery(url: string, query: readonly QueryParam__Output[]): string {
  if (query.length === 0) return url;
  return `${url}?${query.map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(p.value)}`).join('&')}`;
}

export const registry = endpoint({
  name: 'registry',
  service: 'config',
  // The registry belongs to the site.
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'The records (batched, `q` filters by name prefix), or one record’s value',
      paths: ['', ':name'],
      permission: 'cms.ManagePortal',
      query: z.object({ ...batchParams, q: param.string().optional() }),
      handle: async (call, { registry }) => {
        if (call.params.name !== undefined) return { status: 200, body: await registry.value(call.params.name) };
        const batch = { start: call.query.b_start ?? 0, size: call.query.b_size ?? DEFAULT_BATCH_SIZE };
        const page = await registry.list(call.query.q ?? '', batch.start, batch.size);
        const url = `${call.publicUrl}/@registry`;
        const query = call.request.query;
        const batching = batchingLinks(url, query, batch, page.total);
        return {
          status: 200,
          body: {
            '@id': withQuery(
              url,
              query.filter((p) => !BATCH_PARAMS.has(stripTypeSuffix(p.key))),
            ),
            ...(batching ? { batching } : {}),
            items: page.items.map(({ record, value }) => ({
              name: record.name,
              schema: { properties: fieldDefinition(record.field, call.publicUrl) },
              value,
            })),
            items_total: page.total,
          },
        };
      },
    }),
    PATCH: operation({
      summary: 'Sets records from a body mapping names to values; all or nothing',
      permission: 'cms.ManagePortal',
      body: z.unknown(),
      handle: async (call, { registry }) => {
        await registry.update(call.body, call.requestId);
        return { status: 204 };
      },
    }),
  },
});
