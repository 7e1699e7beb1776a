/**
 * The store port: the subset of the MongoDB driver's collection API that the
 * services use. Two adapters implement it with the same query semantics:
 * MongoDB (driver), PostgreSQL (documents as jsonb), SQLite (documents as JSON
 * text in one file) and an embedded engine persisted under DATA_DIR.
 *
 * Filters and updates use MongoDB's own language, so the code the tests run
 * against the embedded engine is the code that runs against MongoDB.
 */

export type Document = { _id?: string; [key: string]: unknown };

/** A MongoDB query filter, e.g. `{ path: { $in: [...] }, 'a.b': { $exists: true } }`. */
export type Filter = Record<string, unknown>;

/** Update operators supported by both adapters. */
export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, unknown>;
  $inc?: Record<string, number>;
  /** `{ field: value }` or `{ field: { $each: [...] } }`. */
  $push?: Record<string, unknown>;
  /** `{ field: value }` or `{ field: <condition on the element> }`. */
  $pull?: Record<string, unknown>;
}

export type SortSpec = Record<string, 1 | -1>;
/** Inclusion (`{a: 1}`) or exclusion (`{a: 0}`) projection; `_id` may be excluded from an inclusion. */
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface FindOneAndUpdateOptions {
  /** Which version of the document to return: before or after the update. Default `after`. */
  returnDocument?: 'before' | 'after';
  upsert?: boolean;
  sort?: SortSpec;
  projection?: Projection;
}

export interface IndexOptions {
  unique?: boolean;
  /** Index only documents that have the field. */
  sparse?: boolean;
  name?: string;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId: string | null;
}

export interface CountOptions {
  limit?: number;
}

export interface Collection<T extends Document = Document> {
  readonly name: string;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'projection' | 'sort'>): Promise<T | null>;
  /** How many documents match; with `limit`, no more than `limit` are counted (MongoDB's option of that name). */
  countDocuments(filter: Filter, options?: CountOptions): Promise<number>;
  /** Fails with DuplicateKeyError when a unique index would be violated. */
  insertOne(doc: T): Promise<{ insertedId: string }>;
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomic: no other write to the matched document happens between the match and the update. */
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter): Promise<{ deletedCount: number }>;
  deleteMany(filter: Filter): Promise<{ deletedCount: number }>;
  /** Idempotent. Compound keys are allowed; a compound unique index is not (the embedded engine cannot enforce it). */
  createIndex(keys: Record<string, 1 | -1>, options?: IndexOptions): Promise<void>;
}

/** The engines behind the port. */
export type StoreKind = 'embedded' | 'mongodb' | 'postgres' | 'sqlite';

/** One collection of a store, as `DocumentStore.stats` reports it. */
export interface CollectionStats {
  name: string;
  /** Documents in it, counted exactly. */
  documents: number;
  /** Its declared indexes (`createIndex`), the engine's own primary key not included. */
  indexes: number;
  /** Bytes it takes on disk with its indexes; null when the engine does not tell. */
  sizeBytes: number | null;
}

/** What a store holds, for an administrator (`@database`). */
export interface StoreStats {
  engine: StoreKind;
  /** The embedded engine's folder name, PostgreSQL's schema, MongoDB's database. */
  name: string;
  /** Bytes the whole store takes on disk, indexes included; null when the engine does not tell. */
  sizeBytes: number | null;
  collections: CollectionStats[];
}

export interface DocumentStore {
  /** Which adapter this is, for logs and health. */
  readonly kind: StoreKind;
  collection<T extends Document = Document>(name: string): Collection<T>;
  /**
   * Every collection of the store with its counts and sizes. Optional, so that a test's stand-in store need not
   * have it; the three adapters do.
   */
  stats?(): Promise<StoreStats>;
  /** Resolves when the store answers; rejects otherwise. Used by health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Raised by both adapters when a unique index would be violated. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly key: string,
  ) {
    super(`duplicate key in ${collection}: ${key}`);
    this.name = 'DuplicateKeyError';
  }
}
