/**
 * `@translations` (multilingual sites): `GET` the other translations of the object and the language roots,
 * `POST` links another object (`id`: a URL, a site path or a UID) as its translation, `DELETE` unlinks the
 * translation in `language`. 400 on a site that is not multilingual.
 */
import { urlOf } from '@cms/shared';
import { z } from 'zod';
import { callerOf } from './caller';
import { using } from './declarations';

const { endpoint, operation } = using('translations');

const linkBody = z.object({ id: z.string().trim().min(1).max(2000) }).strict();
const unlinkBody = z.object({ language: z.string().trim().min(2).max(20) }).strict();

export const translations = endpoint({
  name: 'translations',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The other translations of the object (`items`) and each language root (`root`)',
      permission: 'View',
      handle: async (call, deps) => {
        await deps.translations.requireMultilingual(call.requestId);
        const links = await deps.translations.linksOf(call.context, call.principal, call.publicUrl, call.requestId);
        return { status: 200, body: links };
      },
    }),
    POST: operation({
      summary: 'Links the content named by `id` (a URL, a site path or a UID) as a translation; 201',
      permission: 'Modify portal content',
      body: linkBody,
      handle: async (call, deps) => {
        await deps.translations.requireMultilingual(call.requestId);
        const target = await deps.translations.resolve(call.body.id, call.publicUrl);
        await deps.translations.link(call.context, target, callerOf(call), call.requestId);
        return { status: 201, headers: { Location: urlOf(call.publicUrl, call.context.path ?? '/') }, body: {} };
      },
    }),
    DELETE: operation({
      summary: 'Unlinks the translation in `language`; 204',
      permission: 'Modify portal content',
      body: unlinkBody,
      handle: async (call, deps) => {
        await deps.translations.requireMultilingual(call.requestId);
        await deps.translations.unlink(call.context, call.body.language, callerOf(call), call.requestId);
        return { status: 204 };
      },
    }),
  },
});
