/**
 * The embedded adapter of the store port: one in-memory NeDB datastore per
 * collection, persisted by an append-only log `<dataDir>/<collection>.db`
 * (./append-log.ts: NeDB's file format, group-committed appends, compaction
 * off the hot path).
 *
 * NeDB's own query language differs from MongoDB's in places (arrays with
 * `$ne`/`$nin`, `{ a: null }`, compound conditions on arrays, missing operators
 * such as `$all` or `$nor`). Filters are therefore split: the conditions NeDB
 * evaluates exactly like MongoDB are passed to NeDB (so its indexes are used),
 * the rest is evaluated by mingo through NeDB's `$where`. Updates, sorting and
 * projection are done by mingo, which implements MongoDB's semantics. Counts and
 * sorted pages of the common filter forms take the fast paths of
 * ./embedded-query.ts (a compiled predicate, an index walk) first.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { types } from 'node:util';
import Datastore from '@seald-io/nedb';
import { find as mingoFind } from 'mingo';
import {
  AppendLog,
  type IndexDefinition,
  deletionRecord,
  documentRecord,
  indexCreatedRecord,
  indexRemovedRecord,
  readLog,
} from './append-log';
import type { Logger } from '../../../logging/logger';
import { fastCount, fastPage, type NedbView } from './embedded-query';
import { lockFolder, type FolderLock } from './folder-lock';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../../store/private-files';
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
  type Projection,
  type SortSpec,
  type StoreStats,
  type Update,
  type UpdateResult,
} from '../../../ports/store';
import {
  applyUpdate,
  assertCount,
  buildUpsertDocument,
  deepClone,
  hasKeys,
  idFirst,
  includedFields,
  isOperatorObject,
  matcher,
  pickFields,
  project,
} from '../document-ops';
import { assertSupportedIndex, assertSupportedUpdate, isPlainObject, newDocumentId } from '../../../ports/store-rules';

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

/** Values NeDB compares for equality exactly like MongoDB does. */
function isScalar(value: unknown): value is string | number | boolean | Date {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && !Number.isNaN(value)) ||
    (types.isDate(value) && !Number.isNaN(value.getTime()))
  );
}

/** Values NeDB orders exactly like MongoDB does (NeDB refuses to compare booleans). */
function isRangeBound(value: unknown): boolean {
  return isScalar(value) && typeof value !== 'boolean';
}

// ---------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------

type NedbQuery = Record<string, unknown>;

interface SplitFilter {
  /** One condition per field, the one most useful to NeDB's indexes. */
  native: NedbQuery;
  /** Further native conditions, `$and`-ed. */
  nativeAnd: NedbQuery[];
  /** Conditions for mingo. */
  residual: Filter[];
}

/**
 * Paths NeDB resolves like MongoDB. A numeric segment is an array index for
 * NeDB but may also be a field name for MongoDB, so those go to mingo.
 */
function isNativePath(key: string): boolean {
  return key.split('.').every((segment) => segment !== '' && !segment.startsWith('$') && !/^\d+$/.test(segment));
}

/** `{ $regex, $options }` as a JS RegExp, or undefined when NeDB cannot evaluate it (e.g. the `x` option). */
function toRegExp(pattern: unknown, options: unknown): RegExp | undefined {
  if (options !== undefined && typeof options !== 'string') return undefined;
  const extra = options ?? '';
  if (/[^imsu]/.test(extra)) return undefined;
  let source: string;
  let flags: string;
  if (types.isRegExp(pattern)) {
    // `g` and `y` make RegExp#test stateful; MongoDB has no such flags.
    source = pattern.source;
    flags = pattern.flags.replace(/[gy]/g, '') + extra;
  } else if (typeof pattern === 'string') {
    source = pattern;
    flags = extra;
  } else {
    return undefined;
  }
  try {
    return new RegExp(source, [...new Set(flags)].join(''));
  } catch {
    return undefined;
  }
}

/**
 * A condition on one field. Each operator of an operator object is an
 * independent predicate in MongoDB (on an array field, different elements may
 * satisfy different operators), so each native operator becomes its own NeDB
 * condition: NeDB would require one element to satisfy all of them.
 */
function splitFieldCondition(key: string, value: unknown): { native: unknown[]; residual?: unknown } {
  if (isScalar(value)) return { native: [value] };
  if (types.isRegExp(value)) {
    const regex = toRegExp(value, undefined);
    return regex ? { native: [regex] } : { native: [], residual: value };
  }
  if (!isOperatorObject(value)) return { native: [], residual: value };

  const native: unknown[] = [];
  const residual: Record<string, unknown> = {};
  for (const [op, arg] of Object.entries(value)) {
    switch (op) {
      case '$eq':
        if (isScalar(arg)) native.push(arg);
        else residual[op] = arg;
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (isRangeBound(arg)) native.push({ [op]: arg });
        else residual[op] = arg;
        break;
      case '$in':
        if (Array.isArray(arg) && arg.every(isScalar)) native.push({ $in: arg });
        else residual[op] = arg;
        break;
      case '$exists':
        // NeDB tests `$exists` on each element of an array (an empty array has
        // none), unlike MongoDB; only a missing top-level field is unambiguous.
        if (arg === false && !key.includes('.')) native.push({ $exists: false });
        else residual[op] = arg;
        break;
      case '$regex': {
        const regex = toRegExp(arg, value.$options);
        if (regex) native.push(regex);
        else {
          residual.$regex = arg;
          if ('$options' in value) residual.$options = value.$options;
        }
        break;
      }
      case '$options':
        if (!('$regex' in value)) residual[op] = arg;
        break;
      default:
        residual[op] = arg;
    }
  }
  return Object.keys(residual).length > 0 ? { native, residual } : { native };
}

/** Lower is more useful to NeDB's candidate selection: equality, then `$in`, then ranges. */
function indexRank(condition: unknown): number {
  if (isScalar(condition)) return 0;
  if (isPlainObject(condition)) {
    if ('$in' in condition) return 1;
    if ('$gt' in condition || '$gte' in condition || '$lt' in condition || '$lte' in condition) return 2;
  }
  return 3;
}

function splitFilter(filter: unknown, into: SplitFilter): void {
  if (!isPlainObject(filter)) throw new Error('a filter must be a document');
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject)) {
      for (const sub of value) splitFilter(sub, into);
      continue;
    }
    if (!isNativePath(key)) {
      // Top-level operators other than $and ($or, $nor, ...) and unusual paths.
      into.residual.push({ [key]: value });
      continue;
    }
    const { native, residual } = splitFieldCondition(key, value);
    native.sort((a, b) => indexRank(a) - indexRank(b));
    for (const condition of native) {
      if (!(key in into.native)) into.native[key] = condition;
      else into.nativeAnd.push({ [key]: condition });
    }
    if (residual !== undefined) into.residual.push({ [key]: residual });
  }
}

/** Translates a MongoDB filter into an NeDB query with the same results. */
function toNedbQuery(filter: Filter): NedbQuery {
  const split: SplitFilter = { native: {}, nativeAnd: [], residual: [] };
  splitFilter(filter, split);
  const query: NedbQuery = { ...split.native };
  if (split.nativeAnd.length > 0) query.$and = split.nativeAnd;
  if (split.residual.length > 0) {
    const mingoQuery = matcher(split.residual.length === 1 ? split.residual[0] : { $and: split.residual });
    query.$where = function (this: Document): boolean {
      return mingoQuery.test(this);
    };
  }
  return query;
}

// ---------------------------------------------------------------------------
// Updates
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/** What the fast paths (./embedded-query.ts) read of a datastore. */
function fastView(db: Datastore): NedbView {
  return db as unknown as NedbView;
}

/** A copy of one of NeDB's own documents, as NeDB's cursors copy them. */
function copyOf(doc: Document): Document {
  return nedbModel.deepCopy(doc);
}

/** Finds documents; they are copies, never NeDB's own objects. */
async function findIn(db: Datastore, filter: Filter, options: FindOptions = {}): Promise<Document[]> {
  const { sort, skip, limit, projection } = options;
  assertCount('skip', skip);
  assertCount('limit', limit);
  const sorted = hasKeys(sort);
  if (sorted && limit) {
    const page = await fastPage(fastView(db), filter, sort, skip ?? 0, limit);
    if (page) return page.map((doc) => (hasKeys(projection) ? project(doc, projection) : copyOf(doc)));
    return findPage(db, filter, sort, skip ?? 0, limit, projection);
  }
  const cursor = db.findAsync<Document>(toNedbQuery(filter));
  if (!sorted) {
    // NeDB stops scanning once it has skip + limit matches.
    if (skip) cursor.skip(skip);
    if (limit) cursor.limit(limit);
  }
  // NeDB's typings describe the awaited value wrongly; findAsync resolves to the copied documents.
  const docs = (await cursor) as unknown as Document[];
  if (!sorted && !hasKeys(projection)) return docs;
  const fields = !sorted && hasKeys(projection) ? includedFields(projection) : undefined;
  if (fields) return docs.map((doc) => pickFields(doc, fields));
  // mingo orders mixed types and arrays like MongoDB (NeDB does not).
  let result = mingoFind<Document>(docs, {}, hasKeys(projection) ? projection : undefined);
  if (sorted) {
    result = result.sort(sort);
    if (skip) result = result.skip(skip);
    if (limit) result = result.limit(limit);
  }
  const found = result.all();
  return hasKeys(projection) ? found.map(idFirst) : found;
}

/**
 * One sorted page. NeDB copies every matching document it returns, so
 * sorting a large match (a folder of thousands) in full costs a copy of each;
 * instead, sort the matches by their sort keys alone (a projection NeDB
 * copies cheaply), then fetch just the page by `_id`. A write between the two
 * steps may change a document: the page is matched against the filter again,
 * so it never holds one that no longer matches.
 */
async function findPage(
  db: Datastore,
  filter: Filter,
  sort: SortSpec,
  skip: number,
  limit: number,
  projection: Projection | undefined,
): Promise<Document[]> {
  const keys = Object.fromEntries([['_id', 1], ...Object.keys(sort).map((key) => [key, 1])]);
  const slim = (await db.findAsync<Document>(toNedbQuery(filter)).projection(keys)) as unknown as Document[];
  const ids = mingoFind<Document>(slim, {})
    .sort(sort)
    .skip(skip)
    .limit(limit)
    .all()
    .map((d) => d._id);
  if (ids.length === 0) return [];
  const fetched = (await db.findAsync<Document>({ _id: { $in: ids } })) as unknown as Document[];
  const matches = matcher(filter);
  const byId = new Map<unknown, Document>(fetched.filter((d) => matches.test(d)).map((d) => [d._id, d]));
  const page: Document[] = [];
  for (const id of ids) {
    const doc = byId.get(id);
    if (doc) page.push(doc);
  }
  return hasKeys(projection) ? page.map((doc) => project(doc, projection)) : page;
}

// ---------------------------------------------------------------------------
// Engine: one NeDB datastore and its write lock
// ---------------------------------------------------------------------------

interface NedbIndex {
  fieldName: string;
  unique: boolean;
  sparse: boolean;
  getMatching(value: unknown): unknown[];
}

interface UniqueViolation {
  errorType: 'uniqueViolated';
  key: unknown;
}

function isUniqueViolation(err: unknown): err is UniqueViolation {
  return typeof err === 'object' && err !== null && (err as { errorType?: unknown }).errorType === 'uniqueViolated';
}

// The typings omit the datastore's index table.
function indexesOf(db: Datastore): Record<string, NedbIndex> {
  return (db as unknown as { indexes: Record<string, NedbIndex> }).indexes;
}

/** The parts of NeDB's index this adapter patches (lib/indexes.js). */
interface NedbIndexInternals {
  fieldName: string;
  sparse: boolean;
  tree: { search(key: unknown): unknown[] };
  update(oldDoc: unknown, newDoc?: unknown): void;
  getBetweenBounds(query: unknown): unknown[];
}

interface DocPair {
  oldDoc: Document;
  newDoc: Document;
}

const PATCHED = Symbol('unchanged keys swapped in place');
const nedbRequire = createRequire(__filename);
const nedbModel = nedbRequire('@seald-io/nedb/lib/model.js') as {
  getDotValue(doc: unknown, field: string): unknown;
  match(doc: unknown, query: unknown): boolean;
  deepCopy<T>(value: T): T;
};
const NedbIndex = nedbRequire('@seald-io/nedb/lib/indexes.js') as new (definition: IndexDefinition) => NedbIndex;

/** The indexes to record in the file (NeDB always has the one on `_id`). */
function indexDefinitions(db: Datastore): IndexDefinition[] {
  return Object.values(indexesOf(db))
    .filter((index) => index.fieldName !== '_id')
    .map(({ fieldName, unique, sparse }) => ({ fieldName, unique, sparse }));
}

/**
 * Two corrections to NeDB's indexes, applied to each index once.
 *
 * NeDB re-indexes an updated document by removing it from each key of each
 * index and inserting it again, and removing copies the key's whole list. A
 * key most documents share (a role in `allowed`, the site root in
 * `ancestors`) thus made every update cost time in proportion to the
 * collection: ~0.4 s per write at 100,000 objects. Where an update leaves a
 * document's keys in an index as they were, it is enough to put the new
 * document object where the old one was. Other updates go NeDB's way, and a
 * failure there puts the swapped references back before it is rethrown.
 */
function swapUnchangedKeysInPlace(db: Datastore): void {
  for (const index of Object.values(indexesOf(db)) as unknown as (NedbIndexInternals & { [PATCHED]?: true })[]) {
    if (index[PATCHED] || index.fieldName.includes(',')) continue;
    const original = index.update.bind(index);
    index.update = (oldDoc: unknown, newDoc?: unknown) => {
      const pairs = Array.isArray(oldDoc) ? (oldDoc as DocPair[]) : [{ oldDoc, newDoc } as DocPair];
      const swapped: DocPair[] = [];
      const rest: DocPair[] = [];
      for (const pair of pairs) (swapReferences(index, pair.oldDoc, pair.newDoc) ? swapped : rest).push(pair);
      if (rest.length === 0) return;
      try {
        original(rest);
      } catch (error) {
        for (const pair of swapped) swapReferences(index, pair.newDoc, pair.oldDoc);
        throw error;
      }
    };
    // A range over an array field's index finds a document once per element in range; MongoDB returns it once.
    const between = index.getBetweenBounds.bind(index);
    index.getBetweenBounds = (query: unknown) => [...new Set(between(query))];
    index[PATCHED] = true;
  }
}

/** Replaces `from` by `to` under each of its keys when both have the same primitive keys; false otherwise. */
function swapReferences(index: NedbIndexInternals, from: Document, to: Document): boolean {
  const before = indexKeys(index, from);
  const after = indexKeys(index, to);
  if (!before || !after || before.length !== after.length || !before.every((key) => after.includes(key))) return false;
  const done: unknown[][] = [];
  for (const key of before) {
    const entries = index.tree.search(key);
    const at = positionOf(entries, from);
    if (at === -1) {
      for (const list of done) list[list.indexOf(to)] = from;
      return false;
    }
    entries[at] = to;
    done.push(entries);
  }
  return true;
}

/** How many of a key's newest entries are looked through first. */
const NEWEST_ENTRIES = 1024;

/**
 * `list.indexOf(item)`, the newest entries first: the documents written most are the oldest (the site root, top
 * folders), which a scan from the start finds at once, and the newest, at the end of a key most documents share,
 * whose list is as long as the collection. Both scans are the engine's own `indexOf`.
 */
function positionOf(list: readonly unknown[], item: unknown): number {
  const newest = list.indexOf(item, Math.max(0, list.length - NEWEST_ENTRIES));
  return newest !== -1 ? newest : list.indexOf(item);
}

/** The keys NeDB files a document under, when they are primitives (null: let NeDB decide). */
function indexKeys(index: NedbIndexInternals, doc: Document): unknown[] | null {
  const value = nedbModel.getDotValue(doc, index.fieldName);
  if (value === undefined) return index.sparse ? [] : [undefined];
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return null;
  return [...new Set(values)];
}

/**
 * The NeDB internals a write runs through so that it can be undone in memory (lib/datastore.js): the methods that
 * `insertAsync`, `updateAsync` and `removeAsync` queue, the queue itself, and the in-memory indexes.
 */
interface NedbInternals {
  executor: { pushAsync<R>(task: () => Promise<R>): Promise<R> };
  indexes: { _id: { getMatching(id: unknown): Document[] } };
  /** NeDB's own objects that may match (by an index), not copies. */
  _getCandidatesAsync(query: NedbQuery, dontExpireStaleDocs: boolean): Promise<Document[]>;
  _insertAsync(doc: Document): Promise<Document>;
  _updateAsync(query: NedbQuery, replacement: Document, options: object): Promise<unknown>;
  _removeAsync(query: NedbQuery, options: { multi: boolean }): Promise<number>;
  _addToIndexes(doc: Document): void;
  _removeFromIndexes(doc: Document): void;
  _updateIndexes(oldDoc: Document, newDoc: Document): void;
}

function internals(db: Datastore): NedbInternals {
  return db as unknown as NedbInternals;
}

/** NeDB's own object for `_id` (it replaces, never mutates, a stored document). */
function storedDocument(nedb: NedbInternals, id: unknown): Document | undefined {
  return nedb.indexes._id.getMatching(id)[0];
}

/** Puts each document back as `before` had it; returns whether any had changed. */
function restoreInMemory(nedb: NedbInternals, before: Map<unknown, Document | undefined>): boolean {
  let changed = false;
  for (const [id, previous] of before) {
    const current = storedDocument(nedb, id);
    if (current === previous) continue;
    changed = true;
    if (current && previous) nedb._updateIndexes(current, previous);
    else if (current) nedb._removeFromIndexes(current);
    else if (previous) nedb._addToIndexes(previous);
  }
  return changed;
}

/** A write applied in memory: the documents it changed as they were before it. */
interface UndoEntry {
  before: Map<unknown, Document | undefined>;
}

/** What the write holding the lock has done: its records for the log, and how to undo it. */
interface PendingWrite {
  lines: string[];
  entries: UndoEntry[];
}

interface Loaded {
  db: Datastore;
  log: AppendLog;
}

function duplicateKeyError(collection: string, field: string | undefined, key: unknown): DuplicateKeyError {
  return new DuplicateKeyError(collection, JSON.stringify(field === undefined ? key : { [field]: key }) ?? 'null');
}

class Engine {
  private readonly loaded: Promise<Loaded>;
  /** Tail of the write lock: every write of the collection runs after the previous one settled. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The writes applied in memory whose records are not on disk yet, oldest first. */
  private readonly unconfirmed = new Set<UndoEntry>();
  /** What the write holding the lock has changed so far. */
  private running: PendingWrite | undefined;
  /** Set when a batch failed: resolves once every write it and later batches held is undone in memory. */
  private recovering: Promise<void> | undefined;

  constructor(
    readonly name: string,
    private readonly filename: string,
  ) {
    this.loaded = this.load();
    // Load failures surface on each operation; do not also report them as unhandled.
    this.loaded.catch(() => undefined);
  }

  private async load(): Promise<Loaded> {
    const stored = await readLog(this.filename);
    // A file written by a version before private modes is made owner-only too.
    await fs.chmod(this.filename, PRIVATE_FILE_MODE).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    // In memory only: the records are persisted by the log, not by NeDB.
    const db = new Datastore();
    const indexes = indexesOf(db);
    for (const definition of stored.indexes) indexes[definition.fieldName] = new NedbIndex(definition);
    try {
      (db as unknown as { _resetIndexes(docs?: Document[]): void })._resetIndexes(stored.docs);
    } catch (err) {
      throw new Error(`cannot load ${this.filename}: ${err instanceof Error ? err.message : JSON.stringify(err)}`, {
        cause: err,
      });
    }
    swapUnchangedKeysInPlace(db);
    const log = new AppendLog(this.filename, stored, {
      snapshot: () =>
        internals(db).executor.pushAsync(async () => ({ docs: db.getAllData(), indexes: indexDefinitions(db) })),
      onFailure: () => {
        this.recovering = this.undoUnconfirmed(db, log);
      },
    });
    return { db, log };
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`store is closed (collection ${this.name})`);
  }

  private exclusive<R>(task: () => Promise<R>): Promise<R> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Reads need no lock: NeDB runs each command whole, and writes change a document in one command. */
  async read<R>(task: (db: Datastore) => Promise<R>): Promise<R> {
    this.assertOpen();
    return task((await this.loaded).db);
  }

  /**
   * Writes are serialised in memory, so a read-modify-write is atomic with respect to every other write, but not
   * on disk: a write releases the lock once applied in memory and then waits for the batch that carries its
   * records, so concurrent writes share an fsync. When a batch fails, it and everything applied after it is
   * undone in memory before any of those writes reports the failure.
   */
  async write<R>(task: (db: Datastore) => Promise<R>): Promise<R> {
    this.assertOpen();
    const { outcome, durable } = await this.exclusive(async () => {
      const { db, log } = await this.loaded;
      const pending: PendingWrite = { lines: [], entries: [] };
      this.running = pending;
      let outcome: { value: R } | { error: unknown };
      try {
        outcome = { value: await task(db) };
      } catch (err) {
        outcome = { error: this.duplicateKeyError(db, err) ?? err };
      } finally {
        this.running = undefined;
      }
      // Like MongoDB, a write that failed half-way keeps (and persists) what it had done.
      for (const entry of pending.entries) this.unconfirmed.add(entry);
      const durable = log.append(pending.lines).then(() => {
        for (const entry of pending.entries) this.unconfirmed.delete(entry);
      });
      return { outcome, durable };
    });
    try {
      await durable;
    } catch (err) {
      await this.recovering;
      throw err;
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /**
   * Runs one NeDB write in NeDB's queue, so that no read sees it half done, and records what it did: the records
   * of the documents it affects (`affected`, their ids) as they are after it, and as they were before, to undo it
   * in memory should its batch fail to reach the disk.
   */
  undoable<R>(
    db: Datastore,
    affected: (nedb: NedbInternals) => Promise<unknown[]>,
    run: (nedb: NedbInternals, ids: unknown[]) => Promise<R>,
  ): Promise<R> {
    const nedb = internals(db);
    const pending = this.running;
    if (!pending) throw new Error('a write outside the write lock');
    return nedb.executor.pushAsync(async () => {
      const ids = await affected(nedb);
      const before = new Map(ids.map((id) => [id, storedDocument(nedb, id)]));
      try {
        const result = await run(nedb, ids);
        const lines = ids.map((id) => {
          const doc = storedDocument(nedb, id);
          return doc ? documentRecord(doc) : deletionRecord(id);
        });
        pending.lines.push(...lines);
        pending.entries.push({ before });
        return result;
      } catch (err) {
        restoreInMemory(nedb, before);
        throw err;
      }
    });
  }

  /** Records the index definitions that differ from `before` (index changes are not undone: the file follows memory). */
  recordIndexChanges(db: Datastore, before: IndexDefinition[]): void {
    const pending = this.running;
    if (!pending) throw new Error('a write outside the write lock');
    const after = indexDefinitions(db);
    const key = (index: IndexDefinition) => JSON.stringify([index.fieldName, index.unique, index.sparse]);
    const kept = new Set(after.map(key));
    const had = new Set(before.map(key));
    for (const index of before) if (!kept.has(key(index))) pending.lines.push(indexRemovedRecord(index.fieldName));
    for (const index of after) if (!had.has(key(index))) pending.lines.push(indexCreatedRecord(index));
  }

  /** After a failed batch: puts back, newest first, every document the unconfirmed writes changed. */
  private undoUnconfirmed(db: Datastore, log: AppendLog): Promise<void> {
    const nedb = internals(db);
    // In the write lock, so that no write is half-way through; it and the writes queued before this run first
    // (their appends are refused) and are undone with the rest.
    return this.exclusive(() =>
      nedb.executor.pushAsync(async () => {
        const entries = [...this.unconfirmed].reverse();
        this.unconfirmed.clear();
        for (const entry of entries) restoreInMemory(nedb, entry.before);
        log.recover();
      }),
    );
  }

  private duplicateKeyError(db: Datastore, err: unknown): DuplicateKeyError | undefined {
    if (!isUniqueViolation(err)) return undefined;
    // NeDB reports the value only; name the field whose unique index already holds it.
    const field = Object.values(indexesOf(db)).find(
      (index) => index.unique && index.getMatching(err.key).length > 0,
    )?.fieldName;
    return duplicateKeyError(this.name, field, err.key);
  }

  /** Waits for the writes under way, then leaves the file compacted. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.exclusive(async () => undefined);
    let loaded: Loaded;
    try {
      loaded = await this.loaded;
    } catch {
      return; // never loaded: nothing to compact
    }
    await this.recovering;
    await loaded.log.close();
  }
}

// ---------------------------------------------------------------------------
// Collection and store
// ---------------------------------------------------------------------------

class EmbeddedCollection<T extends Document> implements Collection<T> {
  constructor(private readonly engine: Engine) {}

  get name(): string {
    return this.engine.name;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.engine.read(async (db) => (await findIn(db, filter, options)) as T[]);
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async countDocuments(filter: Filter, options: CountOptions = {}): Promise<number> {
    assertCount('limit', options.limit);
    const count = await this.engine.read(
      async (db) =>
        (await fastCount(fastView(db), filter)) ?? ((await db.countAsync(toNedbQuery(filter))) as unknown as number),
    );
    // The documents are in memory: counting them all costs what stopping early would.
    return options.limit ? Math.min(count, options.limit) : count;
  }

  async insertOne(doc: T): Promise<{ insertedId: string }> {
    const { _id, ...rest } = doc;
    const prepared = { _id: _id ?? newDocumentId(), ...rest };
    return this.engine.write(async (db) => {
      const inserted = await this.insert(db, prepared);
      return { insertedId: String(inserted._id) };
    });
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    assertSupportedUpdate(update);
    return this.engine.write(async (db) => {
      const [doc] = await findIn(db, filter, { limit: 1 });
      if (!doc) {
        if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedId: null };
        const inserted = await this.insert(db, buildUpsertDocument(filter, update));
        return { matchedCount: 0, modifiedCount: 0, upsertedId: String(inserted._id) };
      }
      const modified = await this.replace(db, doc, update);
      return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedId: null };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertSupportedUpdate(update);
    return this.engine.write(async (db) => {
      const docs = await findIn(db, filter);
      let modifiedCount = 0;
      // Like MongoDB, not transactional: an error stops the loop, earlier documents stay updated.
      for (const doc of docs) if (await this.replace(db, doc, update)) modifiedCount += 1;
      return { matchedCount: docs.length, modifiedCount, upsertedId: null };
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertSupportedUpdate(update);
    const after = options.returnDocument !== 'before';
    return this.engine.write(async (db) => {
      const [doc] = await findIn(db, filter, { sort: options.sort, limit: 1 });
      if (!doc) {
        if (!options.upsert) return null;
        const inserted = await this.insert(db, buildUpsertDocument(filter, update));
        return after ? project(inserted as T, options.projection) : null;
      }
      const before = after ? undefined : deepClone(doc);
      await this.replace(db, doc, update);
      return project((before ?? doc) as T, options.projection);
    });
  }

  /** Inserts a prepared document (with its `_id`); NeDB returns a copy. */
  private insert(db: Datastore, doc: Document): Promise<Document> {
    return this.engine.undoable(
      db,
      async () => [doc._id],
      (nedb) => nedb._insertAsync(doc),
    );
  }

  /** Applies the update to a copy of a stored document and writes it back if it changed. */
  private async replace(db: Datastore, doc: Document, update: Update): Promise<boolean> {
    if (!applyUpdate(doc, update)) return false;
    // NeDB copies the replacement, so `doc` stays the caller's own object.
    await this.engine.undoable(
      db,
      async () => [doc._id],
      (nedb) => nedb._updateAsync({ _id: doc._id }, doc, {}),
    );
    return true;
  }

  /** Removes the matches of `filter` (the first one only with a limit), all or none. */
  private remove(db: Datastore, filter: Filter, limit?: number): Promise<number> {
    const query = toNedbQuery(filter);
    return this.engine.undoable(
      db,
      async (nedb) => {
        const matches = (await nedb._getCandidatesAsync(query, true)).filter((doc) => nedbModel.match(doc, query));
        return (limit ? matches.slice(0, limit) : matches).map((doc) => doc._id);
      },
      async (nedb, ids) => (ids.length ? nedb._removeAsync({ _id: { $in: ids } }, { multi: true }) : 0),
    );
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return this.engine.write(async (db) => ({ deletedCount: await this.remove(db, filter, 1) }));
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    return this.engine.write(async (db) => ({ deletedCount: await this.remove(db, filter) }));
  }

  async createIndex(keys: Record<string, 1 | -1>, options: IndexOptions = {}): Promise<void> {
    assertSupportedIndex(keys, options);
    const fields = Object.keys(keys);
    // NeDB uses one index per query; an index on the first key serves a
    // compound index's queries too (compound uniqueness was refused above).
    const fieldName = fields[0];
    const unique = fields.length === 1 && options.unique === true;
    const sparse = options.sparse === true;
    await this.engine.write(async (db) => {
      const before = indexDefinitions(db);
      try {
        await this.ensureIndex(db, fieldName, unique, sparse);
      } finally {
        this.engine.recordIndexChanges(db, before);
      }
    });
  }

  private async ensureIndex(db: Datastore, fieldName: string, unique: boolean, sparse: boolean): Promise<void> {
    const ensure = async (unique: boolean, sparse: boolean): Promise<void> => {
      try {
        await db.ensureIndexAsync({ fieldName, unique, sparse });
        swapUnchangedKeysInPlace(db);
      } catch (err) {
        throw isUniqueViolation(err) ? duplicateKeyError(this.name, fieldName, err.key) : err;
      }
    };
    const existing = indexesOf(db)[fieldName];
    if (!existing) return ensure(unique, sparse);
    if (existing.unique === unique && existing.sparse === sparse) return;
    if (existing.unique && !unique) return; // a unique index serves non-unique lookups too
    if (existing.unique) throw new Error(`a unique index on ${fieldName} already exists with other options`);
    // Upgrade the non-unique index to the requested unique one, or keep it if the data forbids.
    await db.removeIndexAsync(fieldName);
    try {
      await ensure(unique, sparse);
    } catch (err) {
      await ensure(existing.unique, existing.sparse);
      throw err;
    }
  }
}

class EmbeddedStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  private readonly engines = new Map<string, Engine>();
  private readonly collections = new Map<string, EmbeddedCollection<Document>>();
  private closed = false;

  constructor(
    private readonly dataDir: string,
    private readonly lock: FolderLock,
  ) {}

  collection<T extends Document = Document>(name: string): Collection<T> {
    if (this.closed) throw new Error('store is closed');
    let collection = this.collections.get(name);
    if (!collection) {
      if (!COLLECTION_NAME.test(name)) throw new Error(`invalid collection name: ${JSON.stringify(name)}`);
      const engine = new Engine(name, path.join(this.dataDir, `${name}.db`));
      this.engines.set(name, engine);
      collection = new EmbeddedCollection<Document>(engine);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('store is closed');
    await fs.access(this.dataDir, fsConstants.R_OK | fsConstants.W_OK);
  }

  /** Each collection is one file `<name>.db` in the folder: its size on disk, its documents and indexes in memory. */
  async stats(): Promise<StoreStats> {
    if (this.closed) throw new Error('store is closed');
    const names = (await fs.readdir(this.dataDir))
      .filter((file) => file.endsWith('.db'))
      .map((file) => file.slice(0, -'.db'.length))
      .filter((name) => COLLECTION_NAME.test(name))
      .sort();
    const collections: CollectionStats[] = [];
    for (const name of names) {
      this.collection(name);
      const counts = await this.engines
        .get(name)!
        .read((db) => Promise.resolve({ documents: db.getAllData().length, indexes: indexDefinitions(db).length }));
      // The file may be compacted (renamed over) meanwhile; its size is then unknown for this answer.
      const size = await fs.stat(path.join(this.dataDir, `${name}.db`)).then(
        (stat) => stat.size,
        () => null,
      );
      collections.push({ name, ...counts, sizeBytes: size });
    }
    const known = collections.every((c) => c.sizeBytes !== null);
    return {
      engine: 'embedded',
      name: path.basename(this.dataDir),
      sizeBytes: known ? collections.reduce((sum, c) => sum + c.sizeBytes!, 0) : null,
      collections,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const results = await Promise.allSettled([...this.engines.values()].map((engine) => engine.close()));
    // The folder is let go even when a file could not be closed: this process writes to it no more.
    results.push(...(await Promise.allSettled([this.lock.release()])));
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) throw failure.reason;
  }
}

/**
 * Opens the embedded store under `dataDir` (created if missing). Each write
 * resolves once its records are written and fsynced to the collection's file
 * (in a batch shared with the writes made meanwhile), so a killed process loses
 * no acknowledged write; one that cannot be appended fails and leaves the
 * documents in memory as they were. One process per data directory: it takes the folder's lock
 * (./folder-lock.ts), and throws FolderInUseError while a live process holds it.
 */
export async function openEmbeddedStore(dataDir: string, logger?: Logger): Promise<DocumentStore> {
  await makePrivateDir(dataDir);
  const lock = await lockFolder(dataDir, (previous, reason) =>
    logger?.warn({ folder: dataDir, previous, reason }, 'took over the lock of a data folder whose holder is gone'),
  );
  return new EmbeddedStore(dataDir, lock);
}
