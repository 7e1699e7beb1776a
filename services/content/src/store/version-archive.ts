import type { Collection, DocumentStore } from '@cms/shared';
import type { ContentDoc, VersionRecord } from '../domain/content';
import type { VersionArchive } from '../domain/history';

/** Versions in their own collection, keyed by UID and number, so a long history never weighs on reading the object. */
export class StoreVersionArchive implements VersionArchive {
  private readonly versions: Collection<VersionRecord>;
  private readonly docs: Collection<ContentDoc>;

  constructor(store: DocumentStore) {
    this.versions = store.collection<VersionRecord>('versions');
    this.docs = store.collection<ContentDoc>('content');
  }

  async ensureIndexes(): Promise<void> {
    await this.versions.createIndex({ uid: 1, version: 1 });
    await this.docs.createIndex({ 'version_pending.version': 1 }, { sparse: true });
  }

  async keep(record: VersionRecord): Promise<void> {
    const { _id, ...rest } = record;
    await this.versions.updateOne({ _id }, { $set: rest }, { upsert: true });
  }

  async settled(uid: string, version: number): Promise<void> {
    // No version bump: the pending record is bookkeeping, and a write racing this one keeps its own.
    await this.docs.updateOne({ _id: uid, 'version_pending.version': version }, { $unset: { version_pending: '' } });
  }

  versionsOf(uid: string): Promise<VersionRecord[]> {
    return this.versions.find({ uid }, { sort: { version: 1 } });
  }

  versionOf(uid: string, version: number): Promise<VersionRecord | null> {
    return this.versions.findOne({ _id: `${uid}:${version}` });
  }

  unsettled(): Promise<ContentDoc[]> {
    return this.docs.find({ 'version_pending.version': { $gte: 0 } });
  }

  async forget(uids: string[]): Promise<VersionRecord[]> {
    if (!uids.length) return [];
    const records = await this.versions.find({ uid: { $in: uids } });
    await this.versions.deleteMany({ uid: { $in: uids } });
    return records;
  }
}
