import { AppError, badRequest, clip, notFound } from '@cms/shared';

export interface ParsedPath {
  /** Segments of the context path (before the first `@` segment). */
  context: string[];
  /** The `@` segment without its `@`s; `''` when the request addresses the context itself. */
  endpoint: string;
  /** Segments after the `@` segment. */
  subPath: string[];
}

/**
 * Splits a request path at its first `@` segment (addendum §1, §7): empty
 * segments are ignored, a leading `++api++` is dropped, and `.`, `..` and
 * `_`-prefixed segments are refused. `basePath` is the path part of PUBLIC_URL. A comment's address as search
 * returns it (`<content>/++conversation++default/<id>`) is read as `@comments/<id>` where the moderation panel
 * uses it (see conversationPath); `method`, when given, restricts that to the methods it uses there.
 */
export function parsePath(rawPath: string, basePath = '', method?: string): ParsedPath {
  let path = rawPath;
  if (basePath) {
    if (path !== basePath && !path.startsWith(basePath + '/')) throw notFound(`Resource not found: ${clip(rawPath)}`);
    path = path.slice(basePath.length);
  }
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (!raw) continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw badRequest(`Malformed percent-encoding in path segment "${clip(raw)}"`);
    }
    if (segments.length === 0 && segment === '++api++') continue;
    if (segment === '.' || segment === '..' || segment.startsWith('_') || segment.includes('/')) {
      throw notFound(`Resource not found: ${clip(rawPath)}`);
    }
    segments.push(segment);
  }
  const at = segments.findIndex((s) => s.startsWith('@'));
  const conversation = conversationPath(segments, at, method);
  if (conversation) return conversation;
  if (at === -1) return { context: segments, endpoint: '', subPath: [] };
  const endpoint = segments[at].replace(/^@+/, '');
  if (!endpoint) throw notFound(`Resource not found: ${clip(rawPath)}`);
  return { context: segments.slice(0, at), endpoint, subPath: segments.slice(at + 1) };
}

const CONVERSATION = '++conversation++default';

/**
 * Addendum §8 (comments): `POST <content>/++conversation++default/<id>/@workflow/<transition>` and
 * `DELETE <content>/++conversation++default/<id>` are `@comments/<id>/@workflow/<transition>` and `@comments/<id>`;
 * any other use of the segment is left to the content walk, which finds nothing there (404).
 */
function conversationPath(segments: string[], at: number, method: string | undefined): ParsedPath | null {
  const index = segments.indexOf(CONVERSATION);
  if (index <= 0 || (at !== -1 && at < index)) return null;
  const context = segments.slice(0, index);
  const id = segments[index + 1];
  const rest = segments.slice(index + 2);
  if (id === undefined || id.startsWith('@')) return null;
  if (rest.length === 0 && (method === undefined || method === 'DELETE')) {
    return { context, endpoint: 'comments', subPath: [id] };
  }
  const transition = rest.length === 2 && rest[0].replace(/^@+/, '') === 'workflow' ? rest[1] : undefined;
  if (rest[0]?.startsWith('@') && transition !== undefined && (method === undefined || method === 'POST')) {
    return { context, endpoint: 'comments', subPath: [id, '@workflow', transition] };
  }
  return null;
}

export { AppError };
