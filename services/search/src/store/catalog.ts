import { DuplicateKeyError, type Collection, type DocumentStore } from '@cms/shared';
import { REMOVED_VERSION, type CatalogEntry } from '../domain/catalog-entry';
import type { CatalogQuery } from '../domain/search-query';

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
  }

  /**
   * Writes an entry unless the catalog already holds this version or a newer
   * one (events arrive at least once and possibly out of order). Returns
   * whether it was written.
   */
  async put(entry: CatalogEntry): Promise<boolean> {
    try {
      const { _id, ...fields } = entry;
      const result = await this.entries.updateOne(
        { _id, version: { $lt: entry.version } },
        { $set: fields },
        { upsert: true },
      );
      return result.matchedCount + (result.upsertedId ? 1 : 0) > 0;
    } catch (error) {
      // The entry exists with this version or a newer one: nothing to do.
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Marks objects removed for good; a removal wins over any later-arriving older event. */
  async markRemoved(uids: string[], at: string): Promise<void> {
    for (const uid of uids) {
      await this.entries.updateOne(
        { _id: uid },
        { $set: { deleted: true, version: REMOVED_VERSION, indexed_at: at }, $unset: { words: '', path_parents: '' } },
        { upsert: true },
      );
    }
  }

  async search(query: CatalogQuery): Promise<{ items: CatalogEntry[]; total: number }> {
    const [items, total] = await Promise.all([
      this.entries.find(query.filter, {
        sort: query.sort,
        skip: query.batch.start,
        limit: query.batch.size,
        projection: { words: 0, path_parents: 0 },
      }),
      this.entries.countDocuments(query.filter),
    ]);
    return { items, total };
  }

  /** Live entries last written before `before` and not in `seen`: what a reindex found gone from the content store. */
  async removeStale(seen: Set<string>, before: string): Promise<number> {
    const candidates = await this.entries.find(
      { deleted: { $ne: true }, indexed_at: { $lt: before } },
      { projection: { _id: 1 } },
    );
    const stale = candidates.map((c) => c._id).filter((uid) => !seen.has(uid));
    await this.markRemoved(stale, new Date().toISOString());
    return stale.length;
  }
}
