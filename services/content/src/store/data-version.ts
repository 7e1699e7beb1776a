import type { Collection, DocumentStore } from '@cms/shared';
import type { DataVersionStore } from '../domain/site';

interface DataVersionRecord {
  _id: string;
  version: number;
  [key: string]: unknown;
}

const ID = 'content';

/** The content store's data version (collection `data_version`, one record). */
export class StoreDataVersion implements DataVersionStore {
  private readonly records: Collection<DataVersionRecord>;

  constructor(store: DocumentStore) {
    this.records = store.collection<DataVersionRecord>('data_version');
  }

  async current(): Promise<number | null> {
    return (await this.records.findOne({ _id: ID }))?.version ?? null;
  }

  async set(version: number): Promise<void> {
    await this.records.updateOne({ _id: ID }, { $set: { version } }, { upsert: true });
  }
}
