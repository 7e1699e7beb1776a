import type { Collection } from '@cms/shared';
import type { AliasIndex } from '../domain/tree';
import type { ContentDoc } from '../domain/content';

/** The aliases of the content collection, indexed (a path is looked up on every alias write). */
export class StoreAliasIndex implements AliasIndex {
  constructor(private readonly docs: Collection<ContentDoc>) {}

  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ aliases: 1 });
  }

  async ownerOf(path: string): Promise<ContentDoc | null> {
    const found = await this.docs.findOne({ aliases: path }, { projection: { _outbox: 0 } });
    return found && !found._deleted ? found : null;
  }

  byPath(path: string): Promise<ContentDoc | null> {
    // Tombstones have no path.
    return this.docs.findOne({ path }, { projection: { _outbox: 0 } });
  }

  async withAliases(): Promise<ContentDoc[]> {
    // A range rather than `$exists`: indexed, and an empty list matches nothing.
    const found = await this.docs.find({ aliases: { $gt: '' } }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted);
  }
}
