import { DuplicateKeyError, type Collection, type DocumentStore } from '@cms/shared';
import { MAX_OBJECTS, type TransactionObject, type TransactionRecord, type TransactionStore } from '../domain/history';

/** The transaction log (`@transactions`) in collection `transactions`, one document per request. */
export class StoreTransactionLog implements TransactionStore {
  private readonly transactions: Collection<TransactionRecord>;

  constructor(store: DocumentStore) {
    this.transactions = store.collection<TransactionRecord>('transactions');
  }

  async ensureIndexes(): Promise<void> {
    await this.transactions.createIndex({ order: 1 });
    // One transaction per request: the first write makes it, the others join it.
    await this.transactions.createIndex({ request_key: 1 }, { unique: true });
  }

  async append(record: TransactionRecord, object: TransactionObject): Promise<boolean> {
    if (await this.join(record.request_key, object)) return false;
    try {
      await this.transactions.insertOne({ ...record, objects: [object], count: 1 });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    // It exists: made by another write of the request meanwhile, or full.
    if (!(await this.join(record.request_key, object))) {
      await this.transactions.updateOne({ request_key: record.request_key }, { $set: { incomplete: true } });
    }
    return false;
  }

  /** Adds the object to the request's transaction if it is there and not full. */
  private async join(key: string, object: TransactionObject): Promise<boolean> {
    const joined = await this.transactions.updateOne(
      { request_key: key, count: { $lt: MAX_OBJECTS } },
      { $push: { objects: object }, $inc: { count: 1 } },
    );
    return joined.matchedCount > 0;
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
