/** `@querysources/<field>?query=`: searches a field's source (no enumeration); relation fields search content. */
import { encodeComponent, param, urlOf } from '@cms/shared';
import { z } from 'zod';
import { using } from './declarations';
import { termsQuery, termsResponse, vocabularyRequest } from './vocabularies';

const { endpoint, operation } = using('sources');

export const querysources = endpoint({
  name: 'querysources',
  service: 'content',
  context: 'content',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: "Searches a field's source for the terms matching `query`",
      paths: [':field'],
      permission: {
        permissionOf: (call, { sources: fieldSources }) =>
          fieldSources.permissionFor(call.params.field, call.context, true),
        why: 'the field’s vocabulary’s own (a protected one asks more than View); content searched: View',
      },
      params: z.object({ field: z.string().max(200) }),
      query: termsQuery.extend({ query: param.string() }),
      handle: async (call, { sources: fieldSources }) => {
        const { field } = call.params;
        const terms = await fieldSources.search(field, call.query.query, vocabularyRequest(call));
        const url = `${urlOf(call.publicUrl, call.contextPath)}/@querysources/${encodeComponent(field)}`;
        return termsResponse(call, url, terms, { ...call.query, title: undefined });
      },
    }),
  },
});
