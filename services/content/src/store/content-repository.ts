import { DuplicateKeyError, withEvents, type Collection, type DocumentStore, type EventEnvelope } from '@cms/shared';
import type { ContentDoc } from '../domain/model';
import type { ContentRepository } from '../domain/repository';

/** Writes only apply to live objects. Reads need no such filter: tombstones have no path and no parent. */
const LIVE = { _deleted: { $ne: true } };

export class StoreContentRepository implements ContentRepository {
  readonly docs: Collection<ContentDoc>;

  constructor(store: DocumentStore) {
    this.docs = store.collection<ContentDoc>('content');
  }

  /** Look-ups by path and listings are indexed, never scans. */
  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ path: 1 }, { unique: true, sparse: true });
    await this.docs.createIndex({ parent_uid: 1, position: 1 });
    await this.docs.createIndex({ ancestors: 1 });
    await this.docs.createIndex({ allowed: 1 });
    await this.docs.createIndex({ 'local_roles.principal': 1 });
  }

  byPath(path: string): Promise<ContentDoc | null> {
    // Tombstones have no path.
    return this.docs.findOne({ path });
  }

  async byUid(uid: string): Promise<ContentDoc | null> {
    const doc = await this.docs.findOne({ _id: uid });
    return doc && !doc._deleted ? doc : null;
  }

  children(parentUid: string, viewerTokens: string[], skip: number, limit: number): Promise<ContentDoc[]> {
    return this.docs.find(
      { parent_uid: parentUid, allowed: { $in: viewerTokens } },
      { sort: { position: 1 }, skip, limit },
    );
  }

  countChildren(parentUid: string, viewerTokens: string[]): Promise<number> {
    return this.docs.countDocuments({ parent_uid: parentUid, allowed: { $in: viewerTokens } });
  }

  async grantedTo(principal: string): Promise<ContentDoc[]> {
    const found = await this.docs.find({ 'local_roles.principal': principal }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted).sort((a, b) => a.ancestors.length - b.ancestors.length);
  }

  async descendants(uid: string): Promise<ContentDoc[]> {
    const found = await this.docs.find({ ancestors: uid }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted).sort((a, b) => a.ancestors.length - b.ancestors.length);
  }

  async setFields(
    uid: string,
    expectedVersion: number,
    fields: Partial<ContentDoc>,
    event: EventEnvelope,
  ): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: uid, version: expectedVersion, ...LIVE },
      withEvents({ $set: fields }, [event]),
    );
    return result.matchedCount === 1;
  }

  async descendantUids(uid: string): Promise<string[]> {
    const found = await this.docs.find({ ancestors: uid }, { projection: { _id: 1 } });
    return found.map((d) => d._id);
  }

  async takeChildPosition(parentUid: string): Promise<number> {
    const before = await this.docs.findOneAndUpdate(
      { _id: parentUid },
      { $inc: { next_position: 1 } },
      { returnDocument: 'before', projection: { next_position: 1 } },
    );
    return before?.next_position ?? 0;
  }

  async insertNew(doc: ContentDoc, event: EventEnvelope): Promise<boolean> {
    try {
      await this.docs.insertOne({ ...doc, _outbox: [event], _pending: true });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  updateFields(uid: string, expectedVersion: number, changes: Partial<ContentDoc>, event: EventEnvelope) {
    return this.docs.findOneAndUpdate(
      { _id: uid, version: expectedVersion, ...LIVE },
      withEvents({ $set: changes }, [event]),
      { returnDocument: 'after', projection: { _outbox: 0 } },
    );
  }

  async tombstone(uid: string, expectedVersion: number, event: EventEnvelope): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: uid, version: expectedVersion, ...LIVE },
      withEvents({ $set: { _deleted: true, version: expectedVersion + 1 }, $unset: { path: '', parent_uid: '' } }, [
        event,
      ]),
    );
    return result.matchedCount === 1;
  }

  async deleteDescendants(uid: string): Promise<void> {
    await this.docs.deleteMany({ ancestors: uid });
  }

  /** Every live object, paged by UID, for reindexing. */
  async *scan(pageSize: number): AsyncGenerator<ContentDoc> {
    let after = '';
    for (;;) {
      const page = await this.docs.find(
        { _id: { $gt: after } },
        { sort: { _id: 1 }, limit: pageSize, projection: { _outbox: 0 } },
      );
      for (const doc of page) if (!doc._deleted) yield doc;
      if (page.length < pageSize) return;
      after = page[page.length - 1]._id;
    }
  }
}
