/** `@translation-locator?target_language=<code>`: where a new translation of the object is to be placed. */
import { param } from '@cms/shared';
import { z } from 'zod';
import { using } from './declarations';

const { endpoint, operation } = using('translations');

const locatorQuery = z.object({ target_language: param.string().pipe(z.string().trim().min(2).max(20)) });

export const translationLocator = endpoint({
  name: 'translation-locator',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The folder a new translation goes into: the translated parent, else the language root',
      permission: 'View',
      query: locatorQuery,
      handle: async (call, deps) => {
        await deps.translations.requireMultilingual(call.requestId);
        const url = await deps.translations.locate(
          call.context,
          call.query.target_language,
          call.principal,
          call.publicUrl,
        );
        return { status: 200, body: { '@id': url } };
      },
    }),
  },
});
