/**
 * Moved content (addendum §8): the old path of a renamed or moved object answers a redirect to its new place, the
 * rest of the path and the query kept. Content's context resolver finds the alias and raises a NotFound that names
 * the new path (so it crosses `ContextService.Resolve` to the other services as any error does); the dispatcher of
 * every service, and content's file hop, answer it as the redirect instead.
 */
import { AppError, clip } from '../errors/app-error';
import type { HttpResult } from './endpoint';
import { encodeComponent, urlOf } from './urls';

/** The member of the NotFound's `extra` that names the new path; never shown (the redirect replaces the body). */
const MOVED_TO = 'moved_to';

/** The refusal of a path that moved to `newPath` (`context`: the 404 body's member, should it not cross whole). */
export function movedError(oldPath: string, newPath: string, context: string): AppError {
  return new AppError('NotFound', `Moved: ${clip(oldPath, 300)} is now elsewhere`, undefined, {
    context,
    [MOVED_TO]: newPath,
  });
}

/** The request that met a moved context: what follows the context in its path, and its query. */
export interface MovedRequest {
  method: string;
  publicUrl: string;
  /** Path segments after the context (`@endpoint` and its sub-path), as sent. */
  rest: readonly string[];
  query: readonly { key: string; value: string }[];
}

/** The redirect a refusal stands for when it names a moved context (302 for GET and HEAD, 307 otherwise), or null. */
export function redirectOfMoved(error: unknown, request: MovedRequest): HttpResult | null {
  if (!(error instanceof AppError) || error.type !== 'NotFound') return null;
  const moved = error.extra?.[MOVED_TO];
  if (typeof moved !== 'string' || !moved.startsWith('/')) return null;
  const base = urlOf(request.publicUrl, moved);
  // `@` may stand unencoded in a path segment (RFC 3986 pchar), as the `@endpoint` segments are written.
  const rest = request.rest.map((s) => encodeComponent(s).replace(/%40/g, '@')).join('/');
  const query = new URLSearchParams(request.query.map((p): [string, string] => [p.key, p.value])).toString();
  const location = (rest ? `${base.replace(/\/$/, '')}/${rest}` : base) + (query ? `?${query}` : '');
  const status = request.method === 'GET' || request.method === 'HEAD' ? 302 : 307;
  return { status, headers: { Location: location } };
}
