import { DuplicateKeyError, type Collection, type DocumentStore } from '@cms/shared';
import type { TransactionObject, TransactionRecord, TransactionStore } from '../domain/transactions';

/** The transaction log (`@transactions`) in collection `transactions`, one document per request. */
export class StoreTransactionLog implements TransactionStore {
  private readonly transactions: Collection<TransactionRecord>;

  constructor(store: DocumentStore) {
    this.transactions = store.collection<TransactionRecord>('transactions');
  }

  async ensureIndexes(): Promise<void> {
    await this.transactions.createIndex({ order: 1 });
    // One transaction per request: the first write makes it, the others join it.
    await this.transactions.createIndex({ request_id: 1 }, { unique: true });
  }

  async append(record: TransactionRecord, object: TransactionObject): Promise<boolean> {
    const joined = await this.transactions.updateOne({ request_id: record.request_id }, { $push: { objects: object } });
    if (joined.matchedCount > 0) return false;
    try {
      await this.transactions.insertOne({ ...record, objects: [object] });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Another write of the same request made it meanwhile.
      await this.transactions.updateOne({ request_id: record.request_id }, { $push: { objects: object } });
      return false;
    }
  }

  newest(limit: number): Promise<TransactionRecord[]> {
    return this.transactions.find({}, { sort: { order: -1 }, limit });
  }

  byIds(ids: string[]): Promise<TransactionRecord[]> {
    return this.transactions.find({ _id: { $in: ids } });
  }

  after(order: string): Promise<TransactionRecord[]> {
    return this.transactions.find({ order: { $gt: order } }, { sort: { order: 1 } });
  }

  async trim(keep: number): Promise<void> {
    const total = await this.transactions.countDocuments({});
    if (total <= keep) return;
    const oldest = await this.transactions.find(
      {},
      { sort: { order: 1 }, limit: total - keep, projection: { _id: 1 } },
    );
    await this.transactions.deleteMany({ _id: { $in: oldest.map((t) => t._id) } });
  }
}
