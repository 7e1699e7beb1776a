import {
  DuplicateKeyError,
  type Collection,
  type ContentTypeDef,
  type Document,
  type DocumentStore,
} from '@cms/shared';
import type { StoredType, TypeDefinitionStore } from '../domain/content-types';

/** One document per content type: `_id` is the type name; `version` counts its writes (optimistic locking). */
interface TypeDoc extends Document {
  _id: string;
  position: number;
  version: number;
  definition: ContentTypeDef;
}

export class StoreContentTypes implements TypeDefinitionStore {
  private readonly docs: Collection<TypeDoc>;

  constructor(store: DocumentStore) {
    this.docs = store.collection<TypeDoc>('content_types');
  }

  async list(): Promise<StoredType[]> {
    const docs = await this.docs.find({}, { sort: { position: 1 } });
    return docs.map(({ definition, version }) => ({ definition, version }));
  }

  async find(name: string): Promise<StoredType | null> {
    const doc = await this.docs.findOne({ _id: name });
    return doc ? { definition: doc.definition, version: doc.version } : null;
  }

  async seed(definitions: readonly ContentTypeDef[]): Promise<boolean> {
    if ((await this.docs.countDocuments({})) > 0) return false;
    for (const [position, definition] of definitions.entries()) await this.insertAt(definition, position);
    return true;
  }

  async insert(definition: ContentTypeDef): Promise<boolean> {
    const last = await this.docs.find({}, { sort: { position: -1 }, limit: 1 });
    return this.insertAt(definition, (last[0]?.position ?? -1) + 1);
  }

  async replace(definition: ContentTypeDef, version: number): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: definition.name, version },
      { $set: { definition, version: version + 1 } },
    );
    return result.matchedCount === 1;
  }

  async remove(name: string): Promise<boolean> {
    return (await this.docs.deleteOne({ _id: name })).deletedCount === 1;
  }

  /** False when a type of that name exists (a concurrent seed or create). */
  private async insertAt(definition: ContentTypeDef, position: number): Promise<boolean> {
    try {
      await this.docs.insertOne({ _id: definition.name, position, version: 0, definition });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }
}
