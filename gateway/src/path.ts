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
 * `_`-prefixed segments are refused. `basePath` is the path part of PUBLIC_URL.
 */
export function parsePath(rawPath: string, basePath = ''): ParsedPath {
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
  if (at === -1) return { context: segments, endpoint: '', subPath: [] };
  const endpoint = segments[at].replace(/^@+/, '');
  if (!endpoint) throw notFound(`Resource not found: ${clip(rawPath)}`);
  return { context: segments.slice(0, at), endpoint, subPath: segments.slice(at + 1) };
}

export { AppError };
