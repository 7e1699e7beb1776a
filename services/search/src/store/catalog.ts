import { DuplicateKeyError, type Collection, type DocumentStore } from '@cms/shared';
import { REMOVED_VERSION, type CatalogEntry } from '../domain/catalog-entry';
import type { CatalogQuery } from '../domain/search-query';

/** Entries read for the query builder's vocabularies (a term only beyond them is not offered). */
const MAX_TERM_ENTRIES = 50_000;

export class Catalog {
  readonly entries: Collection<CatalogEntry>;

  constructor(store: DocumentStore) {
    this.entries = store.collection<CatalogEntry>('catalog');
  }

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndex({ path_parents: 1 });
    await this.entries.createIndex({ words: 1 });
    await this.entries.createIndex({ path: 1 });
    await this.entries.createIndex({ allowed: 1 });
    // Tombstones only: the purge finds them without a scan.
    await this.entries.createIndex({ deleted: 1 }, { sparse: true });
  }

  /** The version the catalog holds for `uid` (REMOVED_VERSION for a tombstone), 0 when none. */
  async versionOf(uid: string): Promise<number> {
    const found = await this.entries.findOne({ _id: uid }, { projection: { version: 1 } });
    return found?.version ?? 0;
  }

  /**
   * Writes an entry unless the catalog already holds this version or a newer
   * one (events arrive at least once and possibly out of order). Returns
   * whether it was written.
   */
  async put(entry: CatalogEntry): Promise<boolean> {
    return this.upsert(entry, { version: { $lt: entry.version } });
  }

  /**
   * A reindex's write: the entry as the content store has it, over whatever the catalog held before the reindex
   * began (`since`), a newer version or a tombstone included; only what an event wrote since then is kept when it
   * is newer. Returns whether it was written.
   */
  async refresh(entry: CatalogEntry, since: string): Promise<boolean> {
    return this.upsert(entry, { $or: [{ version: { $lt: entry.version } }, { indexed_at: { $lt: since } }] });
  }

  private async upsert(entry: CatalogEntry, unless: Record<string, unknown>): Promise<boolean> {
    try {
      const { _id, ...fields } = entry;
      const result = await this.entries.updateOne(
        { _id, ...unless },
        { $set: fields, $unset: { deleted: '' } },
        { upsert: true },
      );
      return result.matchedCount + (result.upsertedId ? 1 : 0) > 0;
    } catch (error) {
      // The entry exists and is to be kept: nothing to do.
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /**
   * Marks objects removed; a removal wins over any later-arriving older event. The tombstone is kept until
   * `purgeTombstones` (a late event for a removed object is dropped anyway: content no longer confirms it).
   */
  async markRemoved(uids: string[], at: string): Promise<void> {
    for (const uid of uids) {
      await this.entries.updateOne(
        { _id: uid },
        { $set: { deleted: true, version: REMOVED_VERSION, indexed_at: at }, $unset: { words: '', path_parents: '' } },
        { upsert: true },
      );
    }
  }

  /** Deletes the tombstones written before `before`; returns how many. */
  async purgeTombstones(before: string): Promise<number> {
    const { deletedCount } = await this.entries.deleteMany({ deleted: true, indexed_at: { $lt: before } });
    return deletedCount;
  }

  /** One batch of the matches and how many match; with `limit`, only the first `limit` matches count. */
  async search(query: CatalogQuery, limit?: number): Promise<{ items: CatalogEntry[]; total: number }> {
    const { start } = query.batch;
    const size = limit === undefined ? query.batch.size : Math.min(query.batch.size, Math.max(0, limit - start));
    const [items, count] = await Promise.all([
      size === 0
        ? Promise.resolve([])
        : this.entries.find(query.filter, {
            sort: query.sort,
            skip: start,
            limit: size,
            projection: { words: 0, path_parents: 0, title_words: 0, description_words: 0 },
          }),
      this.entries.countDocuments(query.filter),
    ]);
    return { items, total: limit === undefined ? count : Math.min(count, limit) };
  }

  /** The path of a live entry, or null. */
  async pathOf(uid: string): Promise<string | null> {
    const found = await this.entries.findOne({ _id: uid, deleted: { $ne: true } }, { projection: { path: 1 } });
    return found?.path ?? null;
  }

  /**
   * The types (name → title) and tags of what a viewer holding `viewerTokens` may see, for the query builder's
   * vocabularies; read from at most `MAX_TERM_ENTRIES` entries.
   */
  async distinctTerms(viewerTokens: string[]): Promise<{ types: Map<string, string>; subjects: Set<string> }> {
    const all = await this.entries.find(
      { deleted: { $ne: true }, allowed: { $in: viewerTokens } },
      { projection: { portal_type: 1, type_title: 1, subjects: 1 }, limit: MAX_TERM_ENTRIES },
    );
    const types = new Map<string, string>();
    const subjects = new Set<string>();
    for (const entry of all) {
      types.set(entry.portal_type, entry.type_title);
      for (const subject of entry.subjects ?? []) subjects.add(subject);
    }
    return { types, subjects };
  }

  /**
   * Live entries last written before `before` and not in `seen`: what a reindex found gone from the content
   * store. Marked removed at `at`; returns how many.
   */
  async removeStale(seen: Set<string>, before: string, at: string): Promise<number> {
    const candidates = await this.entries.find(
      { deleted: { $ne: true }, indexed_at: { $lt: before } },
      { projection: { _id: 1 } },
    );
    const stale = candidates.map((c) => c._id).filter((uid) => !seen.has(uid));
    await this.markRemoved(stale, at);
    return stale.length;
  }
}
