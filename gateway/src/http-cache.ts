/**
 * The gateway's cache of rendered answers (anonymous GETs of the content service; per principal when the
 * caching settings allow it), bounded in bytes, least recently used first out.
 *
 * No stale read. Content pushes the paths of every committed write to each gateway process over its
 * `WatchChanges` stream (services/content/src/events/change-feed.ts), and the write answers only once every
 * gateway subscribed has dropped the entries it touched and acked it (change-subscription.ts). So when a reader
 * has received a write's answer, no cache holds an answer older than it; a hit needs no call at all. An answer
 * being rendered while a write commits is kept only if no change was applied since its request left (`ticket`).
 * A gateway that does not ack in time is cut off, and content answers its writes only once that gateway's lease
 * has run out: a gateway serves from its cache only within a lease of sending a ping content answered, measured
 * on its own clock from before the answer, so by then it has stopped, even if it never heard it was cut off.
 * A new stream starts with a `reset` (everything goes, and answers fetched before it are not kept); while content
 * does not follow its sources of change (`blind`), nothing is served from the cache.
 *
 * What an entry depends on is told by its context path: a write at path P drops the entries whose context is P,
 * below P (P's title, state and roles show in, or govern, what is below), P's parent (its listing) or, for the
 * answers content marked as showing their neighbours (`next_item`/`previous_item`, NEIGHBOURS_HEADER), a sibling
 * of P; the answers that show other objects (relation and link targets, SHOWS_HEADER) go on a write at or above
 * any of them; entries of the `tree` scope (navigation, any expansion) go on every write.
 * A registry or type change is a change of `/` (content records it, events/config-changes.ts): everything goes.
 *
 * The feed is per content process: the cache is for one content process (GATEWAY_CACHE_BYTES, off by default);
 * every gateway worker (GATEWAY_WORKERS) keeps a cache and a stream of its own.
 */
import type { CacheScope } from '@cms/shared';

// The scopes are declared with the endpoints (`gatewayCache`); the routing table carries them here.
export type { CacheScope };

export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  lastModified?: string;
  /** UIDs the answer shows (for Cache-Tag). */
  tags: string[];
}

interface Entry {
  answer: CachedAnswer;
  /** Site path of the context, `/` for the site root. */
  context: string;
  scope: CacheScope;
  /** It shows its context's neighbours: a sibling's write changes it. */
  neighbours: boolean;
  /** Paths of the other objects it shows: a write at or above one changes it. */
  shows: readonly string[];
  bytes: number;
}

/** Overhead counted for an entry besides its body and key. */
const ENTRY_OVERHEAD_BYTES = 512;

export class ResponseCache {
  /** Map order is recency: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /** The entry, now the most recently used; `countMiss: false` for a look that another will follow on a miss. */
  get(key: string, { countMiss = true } = {}): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      if (countMiss) this.misses += 1;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits += 1;
    return entry.answer;
  }

  set(
    key: string,
    context: string,
    scope: CacheScope,
    answer: CachedAnswer,
    { neighbours = false, shows = [] as readonly string[] } = {},
  ): void {
    const bytes =
      answer.body.length +
      key.length * 2 +
      shows.reduce((sum, path) => sum + path.length * 2, 0) +
      ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, { answer, context, scope, neighbours, shows, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  /** Drops what a write at each of `paths` may have changed (see the module comment). */
  invalidate(paths: readonly string[]): void {
    if (paths.length === 0 || this.entries.size === 0) return;
    const touched = paths.map(touchedBy);
    const shownTouched = paths.map(shownTouchedBy);
    for (const [key, entry] of this.entries) {
      if (
        entry.scope === 'tree' ||
        touched.some((touches) => touches(entry.context, entry.neighbours)) ||
        entry.shows.some((shown) => shownTouched.some((touches) => touches(shown)))
      ) {
        this.remove(key, entry);
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry);
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** Whether a write at `path` may change what an answer shows of the object at `shown` (at it or above it). */
export function shownTouchedBy(path: string): (shown: string) => boolean {
  if (path === '/') return () => true;
  const below = path + '/';
  return (shown) => shown === '/' || shown === path || shown.startsWith(below);
}

/** Whether a write at `path` may change an answer about `context` (showing its `neighbours` or not). */
export function touchedBy(path: string): (context: string, neighbours?: boolean) => boolean {
  if (path === '/') return () => true;
  const below = path + '/';
  const parent = parentOf(path);
  return (context, neighbours = false) =>
    context === path || context.startsWith(below) || context === parent || (neighbours && parentOf(context) === parent);
}
