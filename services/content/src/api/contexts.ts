/**
 * Context paths resolved from the content store: for the content service's own endpoints (the whole object),
 * and for the other services through `ContextService.Resolve` (what they need to check permissions there).
 */
import {
  clip,
  notFound,
  unary,
  urlOf,
  type ContextResolver,
  type ContextServiceHandlers,
  type Logger,
} from '@cms/shared';
import { accessOf } from '../domain/access';
import { parentPathOf, type ContentDoc } from '../domain/model';
import type { TypeRegistry } from '../domain/types';

export interface PathLookup {
  byPath(path: string): Promise<ContentDoc | null>;
}

/** The object at a path, or 404 naming the nearest existing ancestor as `context` (as the reference does). */
export function contentContexts(docs: PathLookup): ContextResolver<ContentDoc> {
  return {
    async resolve(path, _requestId, publicUrl) {
      const doc = await docs.byPath(path);
      if (!doc) throw await missing(docs, path, publicUrl);
      return { context: doc, scope: accessOf(doc) };
    },
  };
}

async function missing(docs: PathLookup, path: string, publicUrl: string) {
  let ancestor = parentPathOf(path);
  while (ancestor !== '/' && !(await docs.byPath(ancestor))) ancestor = parentPathOf(ancestor);
  return notFound(`Resource not found: ${clip(urlOf(publicUrl, path), 300)}`, { context: urlOf(publicUrl, ancestor) });
}

/** `ContextService`: the same resolution for the other services' endpoints. */
export function contextRpcs(docs: PathLookup, log: Logger, types?: TypeRegistry): ContextServiceHandlers {
  const contexts = contentContexts(docs);
  return {
    Resolve: unary(log, async (request: { path: string; public_url: string }, call) => {
      const { context, scope } = await contexts.resolve(request.path, call.requestId, request.public_url);
      return {
        uid: context._id,
        path: context.path ?? '/',
        portal_type: context.portal_type,
        ...(scope.state === null ? {} : { state: scope.state }),
        local_roles: scope.localRoles,
        // For the discussion service (addendum §3): the object's own choice, else its type's.
        ...(typeof context.fields?.allow_discussion === 'boolean'
          ? { allow_discussion: context.fields.allow_discussion }
          : {}),
        type_allows_discussion: types?.find(context.portal_type)?.allowDiscussion === true,
      };
    }),
  };
}
