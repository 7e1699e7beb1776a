import type { Collection, Document, DocumentStore } from '@cms/shared';
import type { JsonValue } from '../domain/records';
import type { RegistryValueStore } from '../domain/repository';

/** One document per record that was ever set: `_id` is the record name. */
export interface RegistryDoc extends Document {
  _id: string;
  value: unknown;
}

export class StoreRegistryValues implements RegistryValueStore {
  readonly docs: Collection<RegistryDoc>;

  constructor(store: DocumentStore) {
    this.docs = store.collection<RegistryDoc>('registry');
  }

  async read(names: readonly string[]): Promise<Map<string, unknown>> {
    if (names.length === 0) return new Map();
    const found = await this.docs.find({ _id: { $in: [...names] } });
    return new Map(found.map((doc) => [doc._id, doc.value]));
  }

  async write(values: ReadonlyMap<string, JsonValue>): Promise<void> {
    await Promise.all(
      [...values].map(([name, value]) => this.docs.updateOne({ _id: name }, { $set: { value } }, { upsert: true })),
    );
  }
}
