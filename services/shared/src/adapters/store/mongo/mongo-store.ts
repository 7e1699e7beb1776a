/**
 * The MongoDB adapter of the store port: a thin wrapper over the driver that
 * keeps the embedded adapter's conventions (string ids generated when absent,
 * DuplicateKeyError, the same update and index restrictions).
 */
import {
  type Collection as DriverCollection,
  type Db,
  type Filter as DriverFilter,
  type FindOptions as DriverFindOptions,
  MongoClient,
  type UpdateFilter,
} from 'mongodb';
import { assertSupportedIndex, assertSupportedUpdate, filterSetsId, newDocumentId } from '../../../ports/store-rules';
import { assertCount } from '../document-ops';
import {
  type Collection,
  type CountOptions,
  type CollectionStats,
  type Document,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexOptions,
  type StoreStats,
  type Update,
  type UpdateResult,
} from '../../../ports/store';

/** Documents as stored: string ids (the adapter generates them when absent). */
type Stored = { _id: string; [key: string]: unknown };

function toDuplicateKeyError(collection: string, err: unknown): DuplicateKeyError | undefined {
  if (typeof err !== 'object' || err === null || (err as { code?: unknown }).code !== 11000) return undefined;
  const { keyValue, message } = err as { keyValue?: unknown; message?: unknown };
  return new DuplicateKeyError(collection, keyValue !== undefined ? JSON.stringify(keyValue) : String(message));
}

/** Without an `_id` in the filter the server would generate an ObjectId; give upserts a string id instead. */
function withUpsertId(filter: Filter, update: Update, upsert: boolean | undefined): UpdateFilter<Stored> {
  const driverUpdate = update as UpdateFilter<Stored>;
  if (!upsert || filterSetsId(filter) || (update.$set !== undefined && '_id' in update.$set)) return driverUpdate;
  return { ...driverUpdate, $setOnInsert: { _id: newDocumentId() } };
}

function definedOnly<O extends object>(options: O): O {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as O;
}

class MongoCollection<T extends Document> implements Collection<T> {
  constructor(private readonly driver: DriverCollection<Stored>) {}

  get name(): string {
    return this.driver.collectionName;
  }

  private async guard<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (err) {
      throw toDuplicateKeyError(this.name, err) ?? err;
    }
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sort, skip, limit, projection } = options;
    const findOptions: DriverFindOptions = definedOnly({ sort, skip, limit, projection });
    return (await this.driver.find(filter as DriverFilter<Stored>, findOptions).toArray()) as unknown as T[];
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    const { sort, projection } = options;
    return (await this.driver.findOne(
      filter as DriverFilter<Stored>,
      definedOnly({ sort, projection }),
    )) as unknown as T | null;
  }

  async countDocuments(filter: Filter, options: CountOptions = {}): Promise<number> {
    assertCount('limit', options.limit);
    return this.driver.countDocuments(filter as DriverFilter<Stored>, options.limit ? { limit: options.limit } : {});
  }

  async insertOne(doc: T): Promise<{ insertedId: string }> {
    const { _id, ...rest } = doc;
    // A copy: the driver would otherwise write the _id into the caller's object.
    const prepared: Stored = { _id: _id ?? newDocumentId(), ...rest };
    const result = await this.guard(() => this.driver.insertOne(prepared));
    return { insertedId: String(result.insertedId) };
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    assertSupportedUpdate(update);
    const result = await this.guard(() =>
      this.driver.updateOne(
        filter as DriverFilter<Stored>,
        withUpsertId(filter, update, options.upsert),
        definedOnly({ upsert: options.upsert }),
      ),
    );
    return {
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
    };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertSupportedUpdate(update);
    const result = await this.guard(() =>
      this.driver.updateMany(filter as DriverFilter<Stored>, update as UpdateFilter<Stored>),
    );
    return { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount, upsertedId: null };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertSupportedUpdate(update);
    const { upsert, sort, projection } = options;
    const result = await this.guard(() =>
      this.driver.findOneAndUpdate(filter as DriverFilter<Stored>, withUpsertId(filter, update, upsert), {
        ...definedOnly({ upsert, sort, projection }),
        // The driver's default is 'before'; the port's is 'after'.
        returnDocument: options.returnDocument ?? 'after',
        includeResultMetadata: false,
      }),
    );
    return result as unknown as T | null;
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const { deletedCount } = await this.driver.deleteOne(filter as DriverFilter<Stored>);
    return { deletedCount };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    const { deletedCount } = await this.driver.deleteMany(filter as DriverFilter<Stored>);
    return { deletedCount };
  }

  async createIndex(keys: Record<string, 1 | -1>, options: IndexOptions = {}): Promise<void> {
    assertSupportedIndex(keys, options);
    const { unique, sparse, name } = options;
    await this.guard(() => this.driver.createIndex(keys, definedOnly({ unique, sparse, name })));
  }
}

class MongoStore implements DocumentStore {
  readonly kind = 'mongodb' as const;
  private readonly collections = new Map<string, MongoCollection<Document>>();

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  collection<T extends Document = Document>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MongoCollection<Document>(this.db.collection(name));
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  /** The database's collections; sizes from `dbStats` for the whole database only (storage and indexes). */
  async stats(): Promise<StoreStats> {
    const listed = await this.db.listCollections({ type: 'collection' }, { nameOnly: true }).toArray();
    const collections: CollectionStats[] = [];
    for (const { name } of listed.sort((a, b) => a.name.localeCompare(b.name))) {
      const driver = this.db.collection(name);
      const indexes = await driver.indexes();
      collections.push({
        name,
        documents: await driver.countDocuments({}),
        indexes: indexes.filter((index) => index.name !== '_id_').length,
        sizeBytes: null,
      });
    }
    const db = (await this.db.stats()) as { storageSize?: number; indexSize?: number };
    const size = typeof db.storageSize === 'number' ? db.storageSize + (db.indexSize ?? 0) : null;
    return { engine: 'mongodb', name: this.db.databaseName, sizeBytes: size, collections };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Connects to MongoDB; `dbName` defaults to the database named in the URL. */
export async function openMongoStore(url: string, dbName?: string): Promise<DocumentStore> {
  const client = new MongoClient(url);
  await client.connect();
  return new MongoStore(client, client.db(dbName));
}
