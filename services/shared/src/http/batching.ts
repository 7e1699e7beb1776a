import { badRequest } from '../errors/app-error';
import type { QueryParam__Output } from '../generated/cms/common/v1/QueryParam';
import type { QueryParams } from './query';
import { encodeComponent } from './urls';

/** Addendum §8: listings return 25 items per batch by default. */
export const DEFAULT_BATCH_SIZE = 25;

export interface Batch {
  start: number;
  size: number;
}

function nonNegativeInt(query: QueryParams, key: string): number | undefined {
  const raw = query.get(key);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw))
    throw badRequest(`${key} must be a non-negative integer`, [{ field: key, message: 'not a non-negative integer' }]);
  return Number(raw);
}

/** `b_start` and `b_size` from the query; a malformed value is 400. */
export function readBatch(query: QueryParams, defaultSize = DEFAULT_BATCH_SIZE): Batch {
  const start = nonNegativeInt(query, 'b_start') ?? 0;
  const size = nonNegativeInt(query, 'b_size') ?? defaultSize;
  if (size === 0) throw badRequest('b_size must be at least 1', [{ field: 'b_size', message: 'must be at least 1' }]);
  return { start, size };
}

/**
 * The `batching` links of convention 6, or undefined when everything fits in
 * one batch. `@id` is the URL as requested; the others put `b_start` first.
 */
export function batchingLinks(url: string, query: readonly QueryParam__Output[], batch: Batch, total: number) {
  if (total <= batch.size) return undefined;
  const others = query.filter((p) => p.key !== 'b_start');
  const link = (start: number) => `${url}?${encode([{ key: 'b_start', value: String(start) }, ...others])}`;
  const lastStart = Math.floor((total - 1) / batch.size) * batch.size;
  const links: Record<string, string> = {
    '@id': query.length ? `${url}?${encode(query)}` : url,
    first: link(0),
    last: link(lastStart),
  };
  if (batch.start + batch.size < total) links.next = link(batch.start + batch.size);
  if (batch.start > 0) links.prev = link(Math.max(0, batch.start - batch.size));
  return links;
}

function encode(params: readonly { key: string; value: string }[]): string {
  return params.map((p) => `${encodeComponent(p.key)}=${encodeComponent(p.value)}`).join('&');
}
