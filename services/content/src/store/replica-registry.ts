import type { Collection, DocumentStore } from '@cms/shared';
import type { ReplicaRecord, ReplicaRegistry } from '../events/replica-membership';

type StoredReplica = ReplicaRecord & { [key: string]: unknown };

/**
 * The content replicas sharing this store (collection `content_replicas`, one record per process, keyed by its
 * change feed's epoch): each renews its own record, and reads the others', every beat.
 */
export class StoreReplicaRegistry implements ReplicaRegistry {
  private readonly records: Collection<StoredReplica>;

  constructor(store: DocumentStore) {
    this.records = store.collection<StoredReplica>('content_replicas');
  }

  async ensureIndexes(): Promise<void> {
    await this.records.createIndex({ alive_until: 1 });
  }

  async beat(record: ReplicaRecord): Promise<void> {
    const { _id, ...fields } = record;
    await this.records.updateOne({ _id }, { $set: fields }, { upsert: true });
  }

  async alive(now: number): Promise<ReplicaRecord[]> {
    return this.records.find({ alive_until: { $gt: now } }, { sort: { _id: 1 } });
  }

  async recent(since: number): Promise<ReplicaRecord[]> {
    return this.records.find({ alive_until: { $gt: since } }, { sort: { _id: 1 } });
  }

  async remove(epoch: string): Promise<void> {
    await this.records.deleteOne({ _id: epoch });
  }

  /** Records of processes gone for good (long past their expiry): nothing reads them any more. */
  async purge(before: number): Promise<void> {
    await this.records.deleteMany({ alive_until: { $lt: before } });
  }
}
