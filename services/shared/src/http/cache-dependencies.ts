/**
 * What a service tells the gateway's cache about an answer beyond its context path (gateway/src/http-cache.ts):
 * response headers between the two, which the gateway drops before the answer leaves.
 */

/** `1` when the answer shows its context's neighbours in the folder (`next_item`/`previous_item`). */
export const NEIGHBOURS_HEADER = 'x-cms-neighbours';

/**
 * The site paths of other objects the answer shows outside its context's subtree and parent (relation targets,
 * linked objects), as a JSON array: a write at any of them, or above one, changes the answer.
 */
export const SHOWS_HEADER = 'x-cms-shows';

/** At most this many paths are told; an answer showing more is marked as showing the whole site (`/`). */
export const MAX_SHOWN_PATHS = 200;

/** The SHOWS_HEADER value for these paths (none: no header). */
export function showsHeaderOf(paths: Iterable<string>): Record<string, string> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return {};
  return { [SHOWS_HEADER]: JSON.stringify(unique.length > MAX_SHOWN_PATHS ? ['/'] : unique) };
}

/** The paths a SHOWS_HEADER value tells; anything not a list of site paths tells the whole site (`/`). */
export function shownPathsOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  try {
    const paths: unknown = JSON.parse(value);
    if (Array.isArray(paths) && paths.every((p) => typeof p === 'string' && p.startsWith('/'))) return paths;
  } catch {
    // Not JSON: the safe reading below.
  }
  return ['/'];
}
