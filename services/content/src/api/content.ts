/**
 * The context itself (no `@` segment): `GET` serializes it, `POST` adds an object inside it, `PATCH` changes
 * it (fields, a new `id`, the order of a folder's items — all or nothing), `DELETE` removes it and its subtree.
 */
import {
  NEIGHBOURS_HEADER,
  showsHeaderOf,
  badRequest,
  batchParams,
  forbidden,
  hasPermission,
  param,
  urlOf,
  validationError,
} from '@cms/shared';
import { z } from 'zod';
import { orderingSchema, sortSchema } from '../domain/tree';
import { callerOf } from './caller';
import { using, type ContentDeps } from './declarations';
import type { ContentDoc } from '../domain/content';
import { RENDERING, renderContent, renderContentAnswer } from './render';

const { endpoint, operation } = using(...RENDERING, 'translations');

/** `expand` and its `expand.<component>.<option>` settings are read by the expansion (expansion.ts). */
const readQuery = z.object({
  ...batchParams,
  metadata_fields: param.strings().optional(),
  expand: param.list().optional(),
  // A folder's items: left out with `include_items=false`. A folder's or a Collection's items as full objects (as
  // `@search` gives them), not summaries, with `fullobjects`.
  include_items: param.boolean().optional(),
  fullobjects: param.flag().optional(),
});

/** The object a new one is a translation of (checked before anything is written), or null. */
async function translationOriginal(
  reference: unknown,
  call: { requestId: string; publicUrl: string },
  deps: Pick<ContentDeps, 'translations'>,
): Promise<ContentDoc | null> {
  if (reference === undefined || reference === null || reference === '') return null;
  if (typeof reference !== 'string' || reference.length > 2000) {
    throw badRequest('translation_of must be the UID, URL or path of the content translated', [
      { field: 'translation_of', message: 'Expected a string' },
    ]);
  }
  await deps.translations.requireMultilingual(call.requestId);
  return deps.translations.resolve(reference, call.publicUrl);
}

/** A UID as the platform makes them: 32 hexadecimal digits. */
const UID_FORM = /^[0-9a-f]{32}$/;

/**
 * The `UID` a POST asks the new object to have (migrations keep their objects' UIDs): for those who manage the
 * site only, as the original allows it; 403 for others, 400 when it is no UID.
 */
function requestedUid(given: unknown, principal: Parameters<typeof hasPermission>[0]): string | undefined {
  if (given === undefined) return undefined;
  if (!hasPermission(principal, 'cms.ManagePortal'))
    throw forbidden('Only site managers may set the UID of new content');
  if (typeof given !== 'string' || !UID_FORM.test(given)) {
    throw badRequest('UID must be 32 lowercase hexadecimal digits', [{ field: 'UID', message: 'not a UID' }]);
  }
  return given;
}

/** What a POST must name before the rest of its body can be checked against that type's schema. */
const typeNamed = z.object({ '@type': z.string().max(200) }).passthrough();

/** A PATCH body: the type's fields, plus the members that re-order a folder's items. */
const patchBody = z.record(z.unknown());

/** Members of a folder PATCH that re-order its items instead of changing fields. */
const treeMembers = z.object({ ordering: orderingSchema.optional(), sort: sortSchema.optional() });

export const content = endpoint({
  name: '',
  service: 'content',
  context: 'content',
  cache: 'content',
  gatewayCache: 'object',
  // Its body is the user's content: only `@type` is an identifier.
  identifiers: { contentBody: true },
  operations: {
    GET: operation({
      summary: 'The object, with its items (folders), components and the components named in `expand`',
      permission: 'View',
      query: readQuery,
      handle: async (call, deps) => {
        const { body, neighbours, shows } = await renderContentAnswer(call, call.context, deps);
        const headers = { ...(neighbours ? { [NEIGHBOURS_HEADER]: '1' } : {}), ...showsHeaderOf(shows) };
        return { status: 200, body, ...(Object.keys(headers).length ? { headers } : {}) };
      },
    }),
    POST: operation({
      summary: 'Adds an object of the named `@type` inside the context; 201 with its Location',
      permission: 'Add portal content',
      query: readQuery,
      body: typeNamed,
      handle: async (call, deps) => {
        const type = deps.types.find(call.body['@type']);
        if (!type?.addable) {
          const reason = type ? 'cannot be added by users' : 'unknown content type';
          throw badRequest(`Content type "${call.body['@type']}": ${reason}`, [{ field: '@type', message: reason }]);
        }
        // Multilingual sites: `translation_of` (or `translationOf`) links the new object to that one.
        const { translation_of: translationOfField, translationOf, UID: givenUid, ...fields } = call.body;
        const uid = requestedUid(givenUid, call.principal);
        const original = await translationOriginal(translationOfField ?? translationOf, call, deps);
        const inherited = fields.language === undefined;
        const language = inherited ? await deps.translations.languageForNew(call.context, call.requestId) : undefined;
        const values = deps.types.createSchema(type).safeParse(language ? { ...fields, language } : fields);
        if (!values.success) throw validationError(values.error);
        if (original) await deps.translations.checkLink(original, values.data.language, undefined, callerOf(call));
        const { doc, parent } = await deps.commands.create(call.context, type, values.data, callerOf(call), uid);
        if (original) await deps.translations.link(original, doc, callerOf(call), call.requestId);
        const url = urlOf(call.publicUrl, doc.path ?? '/');
        return { status: 201, headers: { Location: url }, body: await renderContent(call, doc, deps, parent) };
      },
    }),
    PATCH: operation({
      summary: 'Changes the object; `Prefer: return=representation` answers it (200), else 204',
      permission: 'Modify portal content',
      query: readQuery,
      body: patchBody,
      handle: async (call, deps) => {
        const { ordering, sort, ...fields } = call.body;
        const doc = call.context;
        // Every part is checked before anything is written, and all their errors are reported together.
        const order = treeMembers.safeParse({ ordering, sort });
        const values = deps.types.patchSchema(deps.types.get(doc.portal_type)).safeParse(fields);
        const issues = [...(order.success ? [] : order.error.issues), ...(values.success ? [] : values.error.issues)];
        if (issues.length || !order.success || !values.success) throw validationError(new z.ZodError(issues));

        const { id, ...changed } = values.data;
        const update = { values: changed, id: typeof id === 'string' ? id : undefined, ...order.data };
        const current = await deps.commands.update(doc, update, callerOf(call));
        if (call.header('prefer')?.includes('return=representation')) {
          return { status: 200, body: await renderContent(call, current, deps) };
        }
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: 'Removes the object and everything inside it (a working copy: its check-out is cancelled)',
      permission: 'Delete objects',
      handle: async (call, { commands, workingCopies }) => {
        // Deleting a working copy cancels its check-out: the original is released with it.
        if (await workingCopies.isWorkingCopy(call.context)) await workingCopies.cancel(call.context, callerOf(call));
        else await commands.remove(call.context, callerOf(call));
        return { status: 204 };
      },
    }),
  },
});
