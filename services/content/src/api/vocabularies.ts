/**
 * `@vocabularies`: the names of every vocabulary; `@vocabularies/<name>` its terms for this context, filtered
 * (`title`, `token`, `tokens`) and batched (`b_start`, `b_size`, 25 by default, `-1` for all).
 */
import { batchingLinks, encodeComponent, param, urlOf, type EndpointCall } from '@cms/shared';
import { z } from 'zod';
import type { ContentDoc } from '../domain/content';
import { filterTerms, type Term, type VocabularyRequest } from '../domain/vocabularies';
import { using } from './declarations';

const { endpoint, operation } = using('vocabularies');

const DEFAULT_BATCH = 25;

/** The filters and batching every term listing takes (`@vocabularies`, `@sources`). */
export const termsQuery = z.object({
  title: param.string().optional(),
  token: param.string().optional(),
  tokens: param.strings().optional(),
  b_start: param.int({ min: 0 }).optional(),
  b_size: param
    .int({ min: -1 })
    .refine((n) => n !== 0, 'must be -1 (all) or at least 1')
    .optional(),
});

export type TermsQuery = z.infer<typeof termsQuery>;

/** The request a context's vocabulary is computed for. */
export function vocabularyRequest(
  call: EndpointCall<ContentDoc, unknown, unknown, unknown>,
  text?: string,
): VocabularyRequest {
  return {
    doc: call.context,
    principal: call.principal,
    requestId: call.requestId,
    text,
    translate: call.translator.translate,
    granted: call.granted,
  };
}

/** `{@id, items, items_total}` (and `batching` when there is more than one batch): the URL as asked is `@id`. */
export function termsResponse(
  call: EndpointCall<ContentDoc, unknown, unknown, unknown>,
  url: string,
  terms: readonly Term[],
  query: TermsQuery,
): { status: number; body: Record<string, unknown> } {
  const shown = filterTerms(terms, query);
  const sent = call.request.query;
  const self = sent.length
    ? `${url}?${sent.map((p) => `${encodeComponent(p.key)}=${encodeComponent(p.value)}`).join('&')}`
    : url;
  const size = query.b_size === undefined ? DEFAULT_BATCH : query.b_size;
  if (size === -1) return { status: 200, body: { '@id': self, items: shown, items_total: shown.length } };
  const batch = { start: query.b_start ?? 0, size };
  const body: Record<string, unknown> = {
    '@id': self,
    items: shown.slice(batch.start, batch.start + batch.size),
    items_total: shown.length,
  };
  const batching = batchingLinks(url, sent, batch, shown.length);
  if (batching) body.batching = batching;
  return { status: 200, body };
}

export const vocabularies = endpoint({
  name: 'vocabularies',
  service: 'content',
  context: 'content',
  cache: 'site',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'The vocabularies, or the terms of one for this context (filtered by title, token or tokens; batched)',
      paths: ['', ':name'],
      permission: {
        permissionOf: (call, { vocabularies: registry }) =>
          call.params.name === undefined ? 'View' : registry.permissionFor(call.params.name),
        why: 'each vocabulary’s own: one of users or tags asks more than View',
      },
      params: z.object({ name: z.string().max(200).optional() }),
      query: termsQuery,
      handle: async (call, { vocabularies: registry }) => {
        const { name } = call.params;
        const site = urlOf(call.publicUrl, '/');
        if (name === undefined) {
          const body = registry.names().map((n) => ({ '@id': `${site}/@vocabularies/${n}`, title: n }));
          return { status: 200, body };
        }
        const terms = await registry.terms(name, vocabularyRequest(call, call.query.title));
        const url = `${urlOf(call.publicUrl, call.contextPath)}/@vocabularies/${encodeComponent(name)}`;
        return termsResponse(call, url, terms, call.query);
      },
    }),
  },
});
