/**
 * The gateway's cache of rendered answers (anonymous GETs of the content service; per principal when the
 * caching settings allow it), bounded in bytes, least recently used first out.
 *
 * No stale read. Content numbers every committed write in a change feed (services/content/src/events/
 * change-feed.ts) before the write answers. A cached answer is served only after a `Changes` call that
 * *started after the read arrived* has been applied (`ChangeValidator.validate`): that call names every path
 * written before it, so every write whose answer the reader had received is in it, and each entry that write
 * touched is gone before the lookup. The calls are coalesced: readers arriving while one is on its way wait for
 * the next one, which starts when it ends, so under load one small call serves a whole batch of reads, on every
 * worker and replica alike (each asks for itself; nothing has to reach them first). An answer being rendered
 * while a write commits is kept only if no change was applied since its request left (`ticket`). When a check
 * fails, nothing is served from the cache and it is emptied.
 *
 * What an entry depends on is told by its context path: a write at path P drops the entries whose context is P,
 * below P (P's title, state and roles show in, or govern, what is below), P's parent (its listing) or a sibling
 * of P (`next_item`/`previous_item`); entries of the `tree` scope (navigation, any expansion) go on every write.
 * A registry or type change is a change of `/` (content records it, events/config-changes.ts): everything goes.
 *
 * The feed is per content process: the cache is for one content process (GATEWAY_CACHE_BYTES, off by default).
 */

/** `site path → whether a write at it touches the entry`. */
export type CacheScope = 'object' | 'tree';

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

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses += 1;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits += 1;
    return entry.answer;
  }

  set(key: string, context: string, scope: CacheScope, answer: CachedAnswer): void {
    const bytes = answer.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, { answer, context, scope, bytes });
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
    for (const [key, entry] of this.entries) {
      if (entry.scope === 'tree' || touched.some((touches) => touches(entry.context))) this.remove(key, entry);
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

/** Whether a write at `path` may change an answer about `context`. */
export function touchedBy(path: string): (context: string) => boolean {
  if (path === '/') return () => true;
  const below = path + '/';
  const parent = parentOf(path);
  return (context) =>
    context === path || context.startsWith(below) || context === parent || parentOf(context) === parent;
}

/** `ContentService.Changes` as the validator calls it. */
export type ChangesCall = (
  epoch: string,
  since: string,
) => Promise<{ epoch: string; seq: string; paths: string[]; reset: boolean }>;

/**
 * Keeps the cache in step with content's change feed: `validate()` resolves true once a check that started
 * after the call has been applied, false when it failed (the cache is emptied and must not be used).
 */
export class ChangeValidator {
  private epoch = '';
  private seq = '0';
  /** Bumped whenever changes are applied; an answer fetched under an older ticket is not kept. */
  private generation = 0;
  private running: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;
  checks = 0;

  constructor(
    private readonly cache: ResponseCache,
    private readonly changes: ChangesCall,
  ) {}

  ticket(): number {
    return this.generation;
  }

  /** Whether an answer fetched under `ticket` may be kept. */
  current(ticket: number): boolean {
    return ticket === this.generation && this.epoch !== '';
  }

  validate(): Promise<boolean> {
    if (!this.running) return (this.running = this.check());
    // The running check may have started before this reader arrived: wait for the next one.
    return (this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return (this.running = this.check());
    }));
  }

  private async check(): Promise<boolean> {
    this.checks += 1;
    try {
      const answer = await this.changes(this.epoch, this.seq);
      if (answer.reset || answer.epoch !== this.epoch) {
        this.cache.clear();
        this.generation += 1;
      } else if (answer.paths.length > 0) {
        this.cache.invalidate(answer.paths);
        this.generation += 1;
      }
      this.epoch = answer.epoch;
      this.seq = answer.seq;
      return true;
    } catch {
      this.cache.clear();
      this.generation += 1;
      this.epoch = '';
      this.seq = '0';
      return false;
    } finally {
      if (!this.queued) this.running = undefined;
    }
  }
}
