import {
  DuplicateKeyError,
  withEvents,
  type Collection,
  type DocumentStore,
  type EventEnvelope,
  type Update,
} from '@cms/shared';
import type { ContentDoc, NavDoc } from '../domain/content';
import type { ContentRepository, ContentWriteStore, StoredChange } from '../domain/content';

/** Writes only apply to live objects. Reads need no such filter: tombstones have no path and no parent. */
const LIVE = { _deleted: { $ne: true } };

export class StoreContentRepository implements ContentRepository, ContentWriteStore {
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
    await this.docs.createIndex({ subtree_stale: 1 }, { sparse: true });
    await this.docs.createIndex({ order_pending: 1 }, { sparse: true });
    await this.docs.createIndex({ 'transition_pending.at': 1 }, { sparse: true });
  }

  byPath(path: string): Promise<ContentDoc | null> {
    // Tombstones have no path.
    return this.docs.findOne({ path });
  }

  async takenPaths(paths: string[]): Promise<Set<string>> {
    const found = await this.docs.find({ path: { $in: paths } }, { projection: { path: 1 } });
    return new Set(found.map((doc) => doc.path as string));
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

  countOfType(portalType: string): Promise<number> {
    return this.docs.countDocuments({ portal_type: portalType });
  }

  countChildren(parentUid: string, viewerTokens: string[]): Promise<number> {
    return this.docs.countDocuments({ parent_uid: parentUid, allowed: { $in: viewerTokens } });
  }

  sibling(
    parentUid: string,
    position: number,
    direction: 'previous' | 'next',
    viewerTokens: string[],
  ): Promise<ContentDoc | null> {
    const before = direction === 'previous';
    return this.docs.findOne(
      {
        parent_uid: parentUid,
        position: before ? { $lt: position } : { $gt: position },
        allowed: { $in: viewerTokens },
      },
      { sort: { position: before ? -1 : 1 }, projection: { _outbox: 0 } },
    );
  }

  async grantedTo(principal: string): Promise<ContentDoc[]> {
    const found = await this.docs.find({ 'local_roles.principal': principal }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted).sort((a, b) => a.ancestors.length - b.ancestors.length);
  }

  async descendants(uid: string): Promise<ContentDoc[]> {
    const found = await this.docs.find({ ancestors: uid }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted).sort((a, b) => a.ancestors.length - b.ancestors.length);
  }

  async takeChildPosition(parentUid: string): Promise<number> {
    const before = await this.docs.findOneAndUpdate(
      { _id: parentUid },
      { $inc: { next_position: 1 } },
      { returnDocument: 'before', projection: { next_position: 1 } },
    );
    return before?.next_position ?? 0;
  }

  async insertNew(doc: ContentDoc, events: EventEnvelope[]): Promise<boolean> {
    try {
      await this.docs.insertOne({ ...doc, _outbox: events, _pending: true });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async applyChange(
    uid: string,
    expectedVersion: number,
    change: StoredChange,
    events: EventEnvelope[],
  ): Promise<boolean> {
    const update: Update = { $set: change.set };
    if (change.unset?.length) update.$unset = Object.fromEntries(change.unset.map((name) => [name, '']));
    const result = await this.docs.updateOne(
      { _id: uid, version: expectedVersion, ...LIVE },
      events.length ? withEvents(update, events) : update,
    );
    return result.matchedCount === 1;
  }

  async deleteDescendants(uid: string): Promise<void> {
    await this.docs.deleteMany({ ancestors: uid });
  }

  allChildren(parentUid: string): Promise<ContentDoc[]> {
    return this.docs.find({ parent_uid: parentUid }, { sort: { position: 1 }, projection: { _outbox: 0 } });
  }

  async staleSubtrees(before: string): Promise<ContentDoc[]> {
    const found = await this.docs.find({ subtree_stale: { $lt: before } }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted);
  }

  async clearStale(uid: string, stamp: string): Promise<void> {
    await this.docs.updateOne({ _id: uid, subtree_stale: stamp }, { $unset: { subtree_stale: '' } });
  }

  async clearOrderPending(folderUid: string, version: number): Promise<void> {
    await this.docs.updateOne({ _id: folderUid, version }, { $unset: { order_pending: '' } });
  }

  async pendingOrders(): Promise<ContentDoc[]> {
    // A range on the indexed UIDs rather than `$exists`, which the embedded store answers by a scan.
    const found = await this.docs.find({ order_pending: { $gt: '' } }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted);
  }

  async pendingTransitions(before: string): Promise<ContentDoc[]> {
    const found = await this.docs.find({ 'transition_pending.at': { $lt: before } }, { projection: { _outbox: 0 } });
    return found.filter((d) => !d._deleted);
  }

  async clearTransitionPending(uid: string, at: string): Promise<void> {
    await this.docs.updateOne({ _id: uid, 'transition_pending.at': at }, { $unset: { transition_pending: '' } });
  }

  async byUids(uids: string[]): Promise<ContentDoc[]> {
    if (uids.length === 0) return [];
    const found = await this.docs.find({ _id: { $in: uids } });
    return found.filter((d) => !d._deleted);
  }

  async visibleChildrenOf(parentUids: string[], viewerTokens: string[]): Promise<NavDoc[]> {
    if (parentUids.length === 0) return [];
    // Sorted here rather than by the store: every match is read anyway, and the embedded engine's sorting and
    // projection cost more than the whole query (measured with expand=navigation).
    // `parent_uid` goes last: the embedded engine serves a query from the index of its last `$in` condition, and
    // this one is selective where `allowed` (a Manager matches everything) is not. One parent is an equality.
    const parent = parentUids.length === 1 ? parentUids[0] : { $in: parentUids };
    const found = await this.docs.find({ allowed: { $in: viewerTokens }, parent_uid: parent });
    return found.sort((a, b) =>
      a.parent_uid === b.parent_uid ? a.position - b.position : (a.parent_uid ?? '') < (b.parent_uid ?? '') ? -1 : 1,
    );
  }

  /**
   * Every object in the tree, paged by path: a container comes before what it holds (its path is a prefix of
   * theirs), as an export needs.
   */
  async *inPathOrder(pageSize: number): AsyncGenerator<ContentDoc> {
    let after = '';
    for (;;) {
      const page = await this.docs.find(
        { path: { $gt: after } },
        { sort: { path: 1 }, limit: pageSize, projection: { _outbox: 0 } },
      );
      for (const doc of page) if (!doc._deleted) yield doc;
      if (page.length < pageSize) return;
      after = page[page.length - 1].path ?? after;
    }
  }

  /** How many objects the tree holds (tombstones have no path). */
  countInTree(): Promise<number> {
    return this.docs.countDocuments({ path: { $exists: true } });
  }

  /** The live objects with a translation group up to `uid` (a resumed translations rebuild's earlier part). */
  async linkedUpTo(uid: string): Promise<ContentDoc[]> {
    const found = await this.docs.find(
      { _id: { $lte: uid }, translation_group: { $gt: '' } },
      { sort: { _id: 1 }, projection: { _outbox: 0 } },
    );
    return found.filter((d) => !d._deleted);
  }

  /** Every live object, paged by UID, for reindexing; after `afterUid` only when a rebuild resumes. */
  async *scan(pageSize: number, afterUid = ''): AsyncGenerator<ContentDoc> {
    let after = afterUid;
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
