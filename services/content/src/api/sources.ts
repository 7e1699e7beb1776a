/** `@sources/<field>`: the terms of a field's source on this context, filtered and batched as vocabularies are. */
import { encodeComponent, urlOf } from '@cms/shared';
import { z } from 'zod';
import { using } from './declarations';
import { termsQuery, termsResponse, vocabularyRequest } from './vocabularies';

const { endpoint, operation } = using('sources');

export const sources = endpoint({
  name: 'sources',
  service: 'content',
  context: 'content',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: "The terms of a field's source (filtered by title, token or tokens; batched)",
      paths: [':field'],
      permission: {
        permissionOf: (call, { sources: fieldSources }) => fieldSources.permissionFor(call.params.field, call.context),
        why: 'the field’s vocabulary’s own: a protected one asks more than View',
      },
      params: z.object({ field: z.string().max(200) }),
      query: termsQuery,
      handle: async (call, { sources: fieldSources }) => {
        const terms = await fieldSources.terms(call.params.field, vocabularyRequest(call, call.query.title));
        const url = `${urlOf(call.publicUrl, call.contextPath)}/@sources/${encodeComponent(call.params.field)}`;
        return termsResponse(call, url, terms, call.query);
      },
    }),
  },
});
