/**
 * Context paths resolved from the content store: for the content service's own endpoints (the whole object),
 * and for the other services through `ContextService.Resolve` (what they need to check permissions there).
 */
import {
  clip,
  movedError,
  notFound,
  unary,
  urlOf,
  type ContextResolver,
  type ContextServiceHandlers,
  type Logger,
} from '@cms/shared';
import { accessOf } from '../domain/content';
import { parentPathOf, type ContentDoc } from '../domain/content';
import type { TypeRegistry } from '../domain/types';

export interface PathLookup {
  byPath(path: string): Promise<ContentDoc | null>;
  /** The live object that has `path` among its aliases (a path it had before a move or rename), or null. */
  ownerOf(path: string): Promise<ContentDoc | null>;
}

/**
 * The object at a path; else, when the path or one of its ancestors is an alias, the moved context that the
 * dispatcher answers with a redirect (addendum §8); else 404 naming the nearest existing ancestor as `context` (as
 * the reference does).
 */
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
  let gone = path;
  while (gone !== '/') {
    const owner = await docs.ownerOf(gone);
    const ancestor = parentPathOf(gone);
    if (owner?.path) return movedError(path, owner.path + path.slice(gone.length), urlOf(publicUrl, ancestor));
    if (ancestor === '/' || (await docs.byPath(ancestor))) {
      return notFound(`Resource not found: ${clip(urlOf(publicUrl, path), 300)}`, {
        context: urlOf(publicUrl, ancestor),
      });
    }
    gone = ancestor;
  }
  return notFound(`Resource not found: ${clip(urlOf(publicUrl, path), 300)}`, { context: urlOf(publicUrl, '/') });
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
