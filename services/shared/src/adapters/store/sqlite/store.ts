/**
 * The SQLite adapter of the store port (better-sqlite3): one database file per store, a table per collection with
 * columns `id TEXT PRIMARY KEY, doc TEXT` (`doc` holds the whole document as JSON, `_id` included). Documents stay
 * on disk and in SQLite's page cache, not in the JS heap.
 *
 * Filters narrow in SQL (./filter-sql.ts); what SQL does not decide exactly is decided by mingo on the rows it
 * returns, like the PostgreSQL adapter's residual. Updates are applied by mingo (MongoDB's semantics) inside an
 * IMMEDIATE transaction: better-sqlite3 runs it synchronously, so nothing in this process comes between the match
 * and the write, and the write lock keeps other processes out.
 *
 * The database runs in WAL mode (readers do not wait for the writer) with synchronous=FULL: each commit is
 * fsynced before the write is acknowledged, so neither a killed process nor a power cut loses an acknowledged
 * write (NORMAL would keep them across a killed process only). Writes commit in groups: those that come in one turn
 * of the event loop run one after the other in one transaction, each in a savepoint of its own (one failing undoes
 * itself alone), and share its commit and fsync; each is acknowledged once that commit is done.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { find as mingoFind } from 'mingo';
import { z } from 'zod';
import { applyUpdate, assertCount, buildUpsertDocument, deepClone, hasKeys, matcher, project } from '../document-ops';
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
  type SortSpec,
  type StoreStats,
  type Update,
  type UpdateResult,
} from '../../../ports/store';
import { assertSupportedIndex, assertSupportedUpdate, newDocumentId } from '../../../ports/store-rules';
import { adapterOf } from '../timed';
import {
  arraysIndexName,
  compoundIndexName,
  createTableSql,
  indexPlans,
  multikeyField,
  quoteIdentifier,
  rankedIndexName,
  sideTableField,
  sideTablePlan,
} from './ddl';
import {
  type ChooseDriving,
  type DrivingCandidate,
  filterToSql,
  type Prefilter,
  type RankProbes,
  type SideTables,
  jsonPath,
  typedScalar,
  typeRank,
} from './filter-sql';
import { LoopSlices } from './loop-slices';
import { type ListSources, PostingLists, splitListed } from './posting-lists';
import { sortToSql, unsortableCondition } from './sort-sql';

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const STORE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}$/;
/** How long a write waits for another process's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
const STATEMENT_CACHE_SIZE = 500;
/** The first bound of the counts that choose which side table a query starts from (see `chooseDriving`). */
const FIRST_ESTIMATE_BOUND = 1_000;
/**
 * The last: when every field finds more, the query starts from none of them (SQLite tests each document in the order
 * of the table or of a sort field's index, and a page or a count with a limit stops early), counted as finding this
 * many (at least). Counting broad fields to their end read every entry of their indexes: ~150 ms at 100,000 objects,
 * ~1 s at a million, each time the choice was made again; and starting from one listed all its documents first.
 */
const LAST_ESTIMATE_BOUND = 16_000;
/**
 * A count whose query would start from a field listing at least this many documents builds the posting lists it
 * needs: below it, testing each of them costs less than building lists of the other fields (all documents, often).
 */
const POSTING_LISTS_FROM = 4_000;
/** How long a driving field chosen by counts is used for the same query before it is counted again. */
const DRIVING_CHOICE_TTL_MS = 1_000;
const DRIVING_CHOICES_KEPT = 500;
/** A page whose lists match more rows than this is not read by rowid (`listedRows`): the list would be megabytes. */
const LISTED_ROWS_MAX = 250_000;
/** A sorted page's walk reads at most this many times the rows it is expected to (`walkedPage`). */
const WALK_MARGIN = 4;
/**
 * How long the reads of one turn of the event loop may hold it before the next read waits for a later turn
 * (./loop-slices.ts): one slice for every store of the process, since they share its loop.
 */
const READ_SLICE_MS = 10;
const readSlices = new LoopSlices(READ_SLICE_MS);

/**
 * The posting lists a query may build (those it lacks of the others it may only use when kept): every one when the
 * field it starts from lists so many documents that building them costs less than testing each, else that field's.
 */
function listsToBuild(driving: DrivingChoice): (field: string) => boolean {
  const broad = driving.count >= POSTING_LISTS_FROM;
  return (field) => broad || field === driving.field;
}

/** The rows with the given rowids that `tested` holds for. */
function byRowid(rowids: readonly number[], tested: Prefilter): Prefilter {
  return {
    sql: `rowid IN (SELECT value FROM json_each(?)) AND ${tested.sql}`,
    values: [JSON.stringify(rowids), ...tested.values],
    exact: tested.exact,
  };
}

/** A count of the rows of `where` (`FROM ... WHERE ...`), no further than `limit` when given. */
function countSql(where: string, limit: number | undefined): string {
  return limit ? `SELECT count(*) AS n FROM (SELECT 1 ${where} LIMIT ${limit})` : `SELECT count(*) AS n ${where}`;
}

type Stored = Document & { _id: string };
type Row = { doc: string };

function parse(row: Row): Stored {
  return JSON.parse(row.doc) as Stored;
}

/** The value at a dotted path of a document (undefined when missing), for error messages. */
function valueAt(doc: Document, field: string): unknown {
  let value: unknown = doc;
  for (const segment of field.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return value;
}

/**
 * The SQLite error code of `err` (`SQLITE_CONSTRAINT_UNIQUE`...). Read from the object, not by instanceof: the
 * native addon keeps the SqliteError class of the first module instance that loaded it, and a module registry
 * loaded later (another jest test file in the same worker) has a class of its own.
 */
function sqliteCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * What a collection's queries are planned with, read from the database schema: the side tables of its multikey
 * indexes, the type-rank indexes of its fields, and the probes ./filter-sql.ts writes with them.
 */
interface CollectionSchema {
  sideTables: SideTables;
  /** The field's type-rank index (quoted name), the one a page sorted by the field walks, when it has one. */
  rankedIndex(field: string): string | undefined;
  /** The type-rank index of the compound key `fields` (quoted name), when the collection has one. */
  compoundIndex(fields: readonly string[]): string | undefined;
  probes: RankProbes;
  /** Where the posting lists of its fields are read from (./posting-lists.ts). */
  listSources: ListSources;
}

/**
 * The field a query starts from (null: none), and how many documents its indexes list for it (`chooseDriving`): at
 * most LAST_ESTIMATE_BOUND, which stands for that many or more.
 */
interface DrivingChoice {
  field: string | null;
  count: number;
}

class SqliteCollection<T extends Document> implements Collection<T> {
  private readonly table: string;
  /**
   * Read from the database on first use (another process may have made indexes and side tables) and after each
   * createIndex. One created later by another process is missed until then: queries on its field read the
   * documents instead, slower but with the same answers.
   */
  private schema: CollectionSchema | undefined;
  private postingLists: PostingLists | undefined;
  /** The driving fields chosen lately, by the candidates they were chosen among (see `chooseDriving`). */
  private readonly drivingChoices = new Map<string, DrivingChoice & { at: number }>();

  constructor(
    private readonly store: SqliteStore,
    readonly name: string,
  ) {
    this.table = quoteIdentifier(name);
  }

  /** Creates the collection's table on first use; the schema it is planned with. */
  private ready(): CollectionSchema {
    this.store.ensureTable(this.name, this.table);
    this.schema ??= this.readSchema();
    return this.schema;
  }

  private readSchema(): CollectionSchema {
    const rows = this.store
      .statement<{ name: string; type: string }>(
        "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'index')",
      )
      .all();
    const indexes = new Set(rows.filter((row) => row.type === 'index').map((row) => row.name));
    const rankedIndex = (field: string) => {
      const index = rankedIndexName(this.name, field);
      return indexes.has(index) ? quoteIdentifier(index) : undefined;
    };
    const sideTables = new Map<string, string>();
    const ranked = new Map<string, string>();
    for (const { name: table } of rows.filter((row) => row.type === 'table')) {
      const field = sideTableField(this.name, table);
      if (field === undefined) continue;
      sideTables.set(field, quoteIdentifier(table));
      const index = rankedIndex(field);
      if (index) ranked.set(field, index);
    }
    const probes: RankProbes = {
      table: this.table,
      ranked,
      arraysAt: (prefix) => {
        const index = arraysIndexName(this.name, prefix);
        return indexes.has(index) ? quoteIdentifier(index) : undefined;
      },
    };
    const compoundIndex = (fields: readonly string[]) => {
      const index = compoundIndexName(this.name, fields);
      return indexes.has(index) ? quoteIdentifier(index) : undefined;
    };
    return { sideTables, rankedIndex, compoundIndex, probes, listSources: { sideTables, ranked } };
  }

  /**
   * The filter as SQL on the collection's table and side tables, starting from the field `chooseDriving` picks
   * (by default the one that finds the fewest documents).
   */
  private prefilter(filter: Filter, chooseDriving: ChooseDriving = (c) => this.chooseDriving(c).field): Prefilter {
    const { sideTables, probes } = this.ready();
    return filterToSql(filter, sideTables, chooseDriving, probes);
  }

  /** The filter as SQL, and the field it starts from when it was chosen among two or more (by `chooseDriving`). */
  private plan(filter: Filter): { prefilter: Prefilter; driving?: DrivingChoice } {
    let driving: DrivingChoice | undefined;
    const prefilter = this.prefilter(filter, (candidates) => {
      driving = this.chooseDriving(candidates);
      return driving.field;
    });
    return { prefilter, driving };
  }

  /**
   * The field that finds the fewest documents and how many it finds, by counts on its indexes (its side table's and
   * its own), each bounded by the least count so far and by a bound that grows fourfold (1,000, 4,000, 16,000) until a
   * count is under it: about as many index entries read as the query then starts from, and no statistics to keep.
   * A choice is remembered for a moment: its counts cost about what a narrow query does, searches repeat, and a
   * choice made on slightly older counts gives the same answers (only, at worst, more slowly).
   */
  private chooseDriving(candidates: DrivingCandidate[]): DrivingChoice {
    const key = JSON.stringify(candidates.map(({ field, elements, itself }) => [field, elements, itself]));
    const now = performance.now();
    const remembered = this.drivingChoices.get(key);
    if (remembered && now - remembered.at < DRIVING_CHOICE_TTL_MS) return remembered;
    const choice = { ...this.countDriving(candidates), at: now };
    if (this.drivingChoices.size >= DRIVING_CHOICES_KEPT) this.drivingChoices.clear();
    this.drivingChoices.set(key, choice);
    return choice;
  }

  private countDriving(candidates: DrivingCandidate[]): DrivingChoice {
    const count = (candidate: DrivingCandidate, bound: number) => {
      const bounded = (table: string, condition: { sql: string; values: unknown[] }) =>
        this.store
          .statement<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${condition.sql} LIMIT ?)`)
          .get(...condition.values, bound)!.n;
      return bounded(candidate.side, candidate.elements) + bounded(this.table, candidate.itself);
    };
    for (let bound = FIRST_ESTIMATE_BOUND; ; bound *= 4) {
      let least = bound;
      let chosen: string | undefined;
      for (const candidate of candidates) {
        const found = count(candidate, least);
        if (found < least) [least, chosen] = [found, candidate.field];
      }
      if (chosen !== undefined) return { field: chosen, count: least };
      if (bound >= LAST_ESTIMATE_BOUND) return { field: null, count: bound };
    }
  }

  /** A unique violation as the port's DuplicateKeyError; other errors as they are. */
  private duplicateKey(err: unknown, doc?: Document): unknown {
    const code = sqliteCode(err);
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' && doc)
      return new DuplicateKeyError(this.name, `_id: ${JSON.stringify(doc._id)}`);
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return err;
    // "UNIQUE constraint failed: index 'name'"
    const index = /index '([^']+)'/.exec((err as Error).message)?.[1];
    const fields = (index ? this.store.indexFields.get(index) : undefined) ?? [];
    // The document's own value, bounded, as the other engines report it.
    const values = doc ? `: ${fields.map((field) => JSON.stringify(valueAt(doc, field)) ?? 'null').join(', ')}` : '';
    return new DuplicateKeyError(this.name, `${fields.join(', ') || index || 'key'}${values.slice(0, 200)}`);
  }

  // ---------------------------------------------------------------------------
  // Reading
  // ---------------------------------------------------------------------------

  /** The rows SQL narrows the filter to, with mingo deciding when SQL does not; `from` names the table's index to read. */
  private *candidates(filter: Filter, prefilter: Prefilter, orderBy = '', from = this.table): Generator<Stored> {
    const rows = this.store
      .statement<Row>(`SELECT doc FROM ${from} WHERE ${prefilter.sql}${orderBy}`)
      .iterate(...prefilter.values);
    if (prefilter.exact) {
      for (const row of rows) yield parse(row);
      return;
    }
    const matches = matcher(filter);
    for (const row of rows) {
      const doc = parse(row);
      if (matches.test(doc)) yield doc;
    }
  }

  /**
   * ` ORDER BY ...` for the sort when SQLite orders every candidate like MongoDB (no array or document at a sort
   * field), else undefined.
   */
  private sqlOrder(prefilter: Prefilter, sort: SortSpec): string | undefined {
    const terms = sortToSql(sort);
    if (terms === undefined) return undefined;
    const unsortable = this.store
      .statement<{ found: number }>(
        `SELECT EXISTS (SELECT 1 FROM ${this.table} WHERE ${prefilter.sql} AND (${unsortableCondition(sort)})) AS found`,
      )
      .get(...prefilter.values);
    return unsortable!.found ? undefined : ` ORDER BY ${terms}`;
  }

  /** The matches in order, with skip and limit applied. */
  private select(filter: Filter, options: { sort?: SortSpec; skip?: number; limit?: number } = {}): Stored[] {
    const { sort, skip = 0, limit } = options;
    const { prefilter, driving } = this.plan(filter);
    const orderBy = hasKeys(sort) ? this.sqlOrder(prefilter, sort) : undefined;
    if (hasKeys(sort) && orderBy === undefined) {
      // mingo orders arrays and mixed types like MongoDB.
      let cursor = mingoFind<Stored>([...this.candidates(filter, prefilter)], {}).sort(sort);
      if (skip) cursor = cursor.skip(skip);
      if (limit) cursor = cursor.limit(limit);
      return cursor.all();
    }
    const page = { orderBy, skip, limit };
    const bound = orderBy && limit ? this.boundWalk(filter, sort!, driving) : undefined;
    if (bound) return this.read(filter, bound.from, bound.prefilter, page);
    if (orderBy && limit && prefilter.exact && driving) {
      const walked = this.walkedPage(filter, { sort: sort!, skip, limit }, driving.count);
      if (walked) return walked;
    }
    const listed = limit && driving ? this.listedRows(filter, driving, orderBy !== undefined) : undefined;
    if (listed) {
      const rows = this.read(filter, this.table, listed.prefilter, page);
      // The rows were listed at that version: a commit of another process since may have changed them.
      if (this.store.othersVersion() === listed.version) return rows;
    }
    return this.read(filter, this.table, prefilter, page);
  }

  /** The rows of `from` the prefilter holds for, in order, tested by mingo unless it is exact; skip and limit applied. */
  private read(
    filter: Filter,
    from: string,
    prefilter: Prefilter,
    { orderBy, skip, limit }: { orderBy?: string; skip: number; limit?: number },
  ): Stored[] {
    if (prefilter.exact) {
      const page = limit || skip ? ` LIMIT ${limit || -1} OFFSET ${skip}` : '';
      return this.store
        .statement<Row>(`SELECT doc FROM ${from} WHERE ${prefilter.sql}${orderBy ?? ''}${page}`)
        .all(...prefilter.values)
        .map(parse);
    }
    const docs: Stored[] = [];
    let skipped = 0;
    for (const doc of this.candidates(filter, prefilter, orderBy, from)) {
      if (skipped < skip) skipped += 1;
      else docs.push(doc);
      if (limit && docs.length >= limit) break;
    }
    return docs;
  }

  /**
   * The rows a page reads, by rowid, when the part of its filter made of posting lists (./posting-lists.ts) can be
   * answered from them (kept, or to be built as a count would: `countDocuments`), and the version of the database
   * they are of: each then tested for the rest of the filter only. Without it each row the query started from was
   * tested by a probe of an index per condition, which grows with the collection: the first 25 of the 1,000 entries
   * holding a word took 9 ms at 100,000 objects and 5.7 ms at 1,000; by rowid 3 ms at both.
   *
   * Not inside a write: the lists hold what is committed, and the group commit's earlier writes are not yet. An
   * unsorted page uses kept lists only: SQL stops at its last match, so building lists (seconds at a million rows)
   * would cost more than it saves.
   */
  private listedRows(
    filter: Filter,
    driving: DrivingChoice,
    sorted: boolean,
  ): { prefilter: Prefilter; version: number } | undefined {
    if (this.store.db.inTransaction) return undefined;
    const sources = this.ready().listSources;
    const { listed, rest } = splitListed(filter, sources);
    if (!listed) return undefined;
    const matches = this.lists().matches(listed, sources, sorted ? listsToBuild(driving) : () => false);
    if (!matches) return undefined;
    if (matches.rows.count() > LISTED_ROWS_MAX) return undefined;
    const rowids = matches.rows.rowids();
    const tested = rest ? this.prefilter(rest, () => null) : { sql: '1', values: [], exact: true };
    return { prefilter: byRowid(rowids, tested), version: matches.version };
  }

  /**
   * A sorted page of the documents holding one value at a field, read in the order of the compound index of that
   * field and the sort field (`{ parent_uid: 1, position: 1 }`), each tested, stopping at the page's last match:
   * the table and condition to read it with. Without it the first 25 items of a folder were its every item read and
   * sorted: ~3.5 ms for 1,000 items at 100,000 objects, 0.05 ms with it.
   *
   * Taken when the query starts from that field (or from none), so that it never reads more rows than it would
   * have; not when an array at the field holds the value (the index lists that document under the array).
   */
  private boundWalk(
    filter: Filter,
    sort: SortSpec,
    driving: DrivingChoice | undefined,
  ): { from: string; prefilter: Prefilter } | undefined {
    const sortFields = Object.keys(sort);
    if (sortFields.length !== 1 || sortFields[0] === '_id') return undefined;
    const { sideTables, compoundIndex } = this.ready();
    for (const [field, value] of Object.entries(filter)) {
      const side = sideTables.get(field);
      const scalar = typedScalar(value);
      if (!side || !scalar || (driving && driving.field !== null && driving.field !== field)) continue;
      const index = compoundIndex([field, sortFields[0]]);
      if (!index) continue;
      const inArrays = this.store
        .statement<number>(`SELECT EXISTS (SELECT 1 FROM ${side} WHERE type IN ${scalar.type.types} AND value = ?)`)
        .pluck()
        .get(scalar.value);
      if (inArrays) return undefined;
      const path = jsonPath(field)!;
      // Every field tested row by row: the index's first columns find the rows.
      const rest = this.prefilter(filter, () => null);
      return {
        from: `${this.table} INDEXED BY ${index}`,
        prefilter: {
          sql: `${typeRank(path)} = ${scalar.type.rank} AND json_extract(doc, ${path}) = ? AND ${rest.sql}`,
          values: [scalar.value, ...rest.values],
          exact: rest.exact,
        },
      };
    }
    return undefined;
  }

  /**
   * A sorted page of a query most documents match, read by walking the sort field's index from the start of the order
   * and testing each document, when that reads fewer rows than the field the query starts from would list (and then
   * sort): the walk is expected to find `skip + limit` matches within `WALK_MARGIN x (skip + limit) x documents /
   * listed` rows, and is taken when that is fewer than `listed`. It reads no further than that; a walk that found too
   * few matches there (the matches lie later in the order than their share says) returns undefined and the page is
   * read from the list after all, the walk having cost less than that.
   *
   * Without it a page of the newest Documents, of the 98,888 of 100,000 documents that are Documents, was every
   * Document read and sorted: 945 ms.
   */
  private walkedPage(
    filter: Filter,
    page: { sort: SortSpec; skip: number; limit: number },
    listed: number,
  ): Stored[] | undefined {
    const { sort, skip, limit } = page;
    const [first] = Object.keys(sort);
    const index = first === '_id' ? undefined : this.ready().rankedIndex(first);
    if (!index) return undefined;
    const wanted = skip + limit;
    const documents = this.store.statement<{ n: number | null }>(`SELECT max(rowid) AS n FROM ${this.table}`).get()!.n;
    const budget = Math.ceil((WALK_MARGIN * wanted * (documents ?? 0)) / listed);
    if (budget >= listed) return undefined;
    // Every field tested document by document: no list to start from.
    const prefilter = this.prefilter(filter, () => null);
    const order = sortToSql(sort)!;
    // The outer query keeps the walk's order without sorting again (SQLite reads a subquery with a LIMIT as a
    // co-routine, row by row in its order), so it stops at the page's last match instead of reading the whole budget.
    const rows = this.store
      .statement<Row>(
        `SELECT doc FROM (SELECT id, doc FROM ${this.table} INDEXED BY ${index} ORDER BY ${order} LIMIT ?) ` +
          `AS ${this.table} WHERE ${prefilter.sql} LIMIT ? OFFSET ?`,
      )
      .all(budget, ...prefilter.values, limit, skip);
    return rows.length === limit ? rows.map(parse) : undefined;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sort, skip, limit, projection } = options;
    assertCount('skip', skip);
    assertCount('limit', limit);
    return readSlices.run(() => {
      this.ready();
      const docs = this.select(filter, { sort, skip, limit });
      return (hasKeys(projection) ? docs.map((doc) => project(doc, projection)) : docs) as unknown as T[];
    });
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async countDocuments(filter: Filter, options: CountOptions = {}): Promise<number> {
    const { limit } = options;
    assertCount('limit', limit);
    return readSlices.run(() => this.count(filter, limit));
  }

  private count(filter: Filter, limit: number | undefined): number {
    const { listSources } = this.ready();
    const { prefilter, driving } = this.plan(filter);
    // Counted from posting lists (./posting-lists.ts) when those it needs are kept, or when the field the query would
    // start from lists so many documents that building them costs less than testing each (only its own are built
    // for a query that lists fewer); a count no further than a limit below that is made in SQL.
    if (prefilter.exact && driving && !(limit && limit < POSTING_LISTS_FROM)) {
      const counted = this.lists().count(filter, listSources, listsToBuild(driving));
      if (counted !== undefined) return limit ? Math.min(counted, limit) : counted;
    }
    if (driving) {
      const counted = this.listedCount(filter, driving, limit);
      if (counted !== undefined) return counted;
    }
    if (prefilter.exact) {
      return this.store
        .statement<number>(countSql(`FROM ${this.table} WHERE ${prefilter.sql}`, limit))
        .pluck()
        .get(...prefilter.values)!;
    }
    let count = 0;
    for (const _doc of this.candidates(filter, prefilter)) {
      count += 1;
      if (count === limit) break;
    }
    return count;
  }

  /**
   * The count of a filter part of which is made of posting lists (and the rest not: a range, a field without an
   * index), from the rows those lists match, read by rowid and each tested for the rest; undefined when it is not
   * made so. Taken when the query would start from a field of that part (it then reads no more rows than in SQL, and
   * tests each for less), or, with a limit, from none: then the first `WALK_MARGIN x limit` rows of the lists are
   * read, and the count is left to SQL when they hold too few matches. Without it the `@querystring-search` of the
   * Documents modified since a date counted its first 1,000 by walking that range of `modified`'s index from the
   * oldest, through every Folder first (~12,000 rows at a million objects, 109 ms).
   */
  private listedCount(filter: Filter, driving: DrivingChoice, limit: number | undefined): number | undefined {
    const sources = this.ready().listSources;
    const { listed, rest } = splitListed(filter, sources);
    if (!listed || !rest) return undefined;
    const startsInLists = driving.field !== null && (listed.$and as Filter[]).some((part) => driving.field! in part);
    if (!startsInLists && !(driving.field === null && limit)) return undefined;
    const tested = this.prefilter(rest, () => null);
    if (!tested.exact) return undefined;
    const matches = this.lists().matches(listed, sources, listsToBuild(driving));
    if (!matches) return undefined;
    const matched = matches.rows.count();
    if (startsInLists && matched > LISTED_ROWS_MAX) return undefined;
    const read = matches.rows.rowids(startsInLists ? Infinity : WALK_MARGIN * limit!);
    const { sql, values } = byRowid(read, tested);
    const count = this.store
      .statement<number>(countSql(`FROM ${this.table} WHERE ${sql}`, limit))
      .pluck()
      .get(...values)!;
    // Read at that version: a commit of another process since may have changed the rows.
    if (this.store.othersVersion() !== matches.version) return undefined;
    return count === limit || read.length === matched ? count : undefined;
  }

  private lists(): PostingLists {
    this.postingLists ??= new PostingLists(this.store.db, this.table, () => this.store.othersVersion());
    return this.postingLists;
  }

  // ---------------------------------------------------------------------------
  // Writing
  // ---------------------------------------------------------------------------

  private insertInto(doc: Stored): void {
    const json = JSON.stringify(doc);
    try {
      const { lastInsertRowid } = this.store
        .statement(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`)
        .run(doc._id, json);
      this.store.changed(this, Number(lastInsertRowid), json);
    } catch (err) {
      throw this.duplicateKey(err, doc);
    }
  }

  private write(doc: Stored): void {
    const json = JSON.stringify(doc);
    try {
      const row = this.store
        .statement<{ rowid: number }>(`UPDATE ${this.table} SET doc = ? WHERE id = ? RETURNING rowid`)
        .get(json, doc._id);
      if (row) this.store.changed(this, row.rowid, json);
    } catch (err) {
      throw this.duplicateKey(err, doc);
    }
  }

  /** Deletes the rows the condition holds for; how many. */
  private deleteWhere(condition: string, values: unknown[]): number {
    const rows = this.store
      .statement<{ rowid: number }>(`DELETE FROM ${this.table} WHERE ${condition} RETURNING rowid`)
      .all(...values);
    for (const { rowid } of rows) this.store.changed(this, rowid, undefined);
    return rows.length;
  }

  /** The rows this process changed, once committed (the JSON each holds now, undefined when deleted). */
  applyCommitted(changes: readonly { rowid: number; json?: string }[]): void {
    this.postingLists?.apply(changes);
  }

  async insertOne(doc: T): Promise<{ insertedId: string }> {
    const { _id, ...rest } = doc;
    const prepared = { _id: String(_id ?? newDocumentId()), ...rest };
    this.ready();
    return this.store.commitWrite(() => {
      this.insertInto(prepared);
      return { insertedId: prepared._id };
    });
  }

  /** One document updated (or upserted) atomically; returns it before and after. */
  private updateFirst(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: SortSpec },
  ): Promise<{ before?: Document; after?: Document; modified: boolean; upserted?: string }> {
    assertSupportedUpdate(update);
    this.ready();
    return this.store.commitWrite(() => {
      const [doc] = this.select(filter, { sort: options.sort, limit: 1 });
      if (!doc) {
        if (!options.upsert) return { modified: false };
        const inserted = buildUpsertDocument(filter, update) as Stored;
        this.insertInto(inserted);
        return { after: inserted, modified: false, upserted: inserted._id };
      }
      const before = deepClone(doc);
      const modified = applyUpdate(doc, update);
      if (modified) this.write(doc);
      return { before, after: doc, modified };
    });
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const result = await this.updateFirst(filter, update, { upsert: options.upsert });
    if (result.upserted !== undefined) return { matchedCount: 0, modifiedCount: 0, upsertedId: result.upserted };
    return { matchedCount: result.after ? 1 : 0, modifiedCount: result.modified ? 1 : 0, upsertedId: null };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const result = await this.updateFirst(filter, update, { upsert: options.upsert, sort: options.sort });
    const doc = options.returnDocument === 'before' ? result.before : result.after;
    return doc ? (project(doc, options.projection) as T) : null;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertSupportedUpdate(update);
    this.ready();
    return this.store.commitWrite(() => {
      const docs = this.select(filter);
      let modifiedCount = 0;
      for (const doc of docs) {
        if (!applyUpdate(doc, update)) continue;
        this.write(doc);
        modifiedCount += 1;
      }
      return { matchedCount: docs.length, modifiedCount, upsertedId: null };
    });
  }

  private remove(filter: Filter, one: boolean): Promise<number> {
    this.ready();
    const prefilter = this.prefilter(filter);
    if (!one && prefilter.exact) {
      return this.store.commitWrite(() => this.deleteWhere(prefilter.sql, prefilter.values));
    }
    return this.store.commitWrite(() => {
      const docs = this.select(filter, { limit: one ? 1 : undefined });
      let deleted = 0;
      for (const doc of docs) deleted += this.deleteWhere('id = ?', [doc._id]);
      return deleted;
    });
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: await this.remove(filter, true) };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: await this.remove(filter, false) };
  }

  async createIndex(keys: Record<string, 1 | -1>, options: IndexOptions = {}): Promise<void> {
    assertSupportedIndex(keys, options);
    this.ready();
    for (const plan of indexPlans(this.name, this.table, keys, options)) {
      this.store.indexFields.set(plan.name, plan.fields);
      try {
        this.store.db.exec(plan.sql);
        if (plan.replaces) this.store.db.exec(`DROP INDEX IF EXISTS ${quoteIdentifier(plan.replaces)}`);
      } catch (err) {
        throw this.duplicateKey(err);
      }
    }
    // Like MongoDB's, a non-unique index serves the elements of the arrays its fields hold: they go to side tables.
    if (!options.unique) for (const field of Object.keys(keys).filter(multikeyField)) this.createSideTable(field);
    // A side table filled now may hold elements a kept list lacks.
    this.postingLists?.drop();
    this.schema = this.readSchema();
  }

  /**
   * The side table of `field`, with its triggers, filled from the rows already there: in one IMMEDIATE transaction,
   * so that no write of another process comes between the fill and the triggers.
   */
  private createSideTable(field: string): void {
    const plan = sideTablePlan(this.name, this.table, field);
    const exists = this.store.db.prepare<[string], { n: number }>(
      "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = ?",
    );
    this.store.db
      .transaction(() => {
        const fresh = exists.get(plan.name)!.n === 0;
        this.store.db.exec(plan.createTable);
        if (fresh) this.store.db.exec(plan.fill);
        for (const sql of plan.maintain) this.store.db.exec(sql);
      })
      .immediate();
  }
}

/** The store in one SQLite database file. */
export class SqliteStore implements DocumentStore {
  readonly kind = 'sqlite' as const;
  /** Index names to their key fields, for DuplicateKeyError messages. */
  readonly indexFields = new Map<string, string[]>();
  private readonly tables = new Set<string>();
  private readonly collections = new Map<string, SqliteCollection<Document>>();
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();
  /**
   * The rows the writes of the open group commit changed, by collection, applied to their posting lists once the group
   * is committed: the lists follow this process's writes, and are dropped at another's (see `othersVersion`).
   */
  private changes: { collection: SqliteCollection<Document>; rowid: number; json?: string }[] = [];
  /** The writes waiting for the next group commit, in the order they came. */
  private queued: { work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];

  constructor(
    readonly db: Database.Database,
    readonly file: string,
  ) {}

  /** Changes with every commit to the database by another connection (SQLite's data_version). */
  othersVersion(): number {
    return this.statement<number>('PRAGMA data_version').pluck().get()!;
  }

  /** A row a write of the open group commit changed (see `changes`). */
  changed(collection: SqliteCollection<Document>, rowid: number, json: string | undefined): void {
    this.changes.push({ collection, rowid, json });
  }

  /** Creates the collection's table unless this store has seen it. */
  ensureTable(collection: string, table: string): void {
    if (this.tables.has(collection)) return;
    this.db.exec(createTableSql(table));
    this.tables.add(collection);
  }

  collection<T extends Document = Document>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      if (!COLLECTION_NAME.test(name))
        throw new Error(`invalid collection name: ${JSON.stringify(name.slice(0, 100))}`);
      collection = new SqliteCollection<Document>(this, name);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** The prepared statement for `sql`, prepared once (parsing costs more than most of the queries). */
  statement<R = unknown>(sql: string): Database.Statement<unknown[], R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      // Filters with lists (`$in`) make new texts without end: the cache is bounded.
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<unknown[], R>;
  }

  /**
   * Runs `work` (reads and writes of one operation, synchronous) in the next group commit: after the writes queued
   * before it, in a savepoint of its own, in one IMMEDIATE transaction (the write lock taken first) with every write
   * queued in this turn of the event loop. Resolves with what it returned once the transaction is committed; rejects
   * with what it threw (its savepoint undone, the others kept), or with the commit's error.
   */
  commitWrite<R>(work: () => R): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queued.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.queued.length === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(): void {
    const group = this.queued;
    this.queued = [];
    const outcomes: { value?: unknown; error?: unknown; failed: boolean }[] = [];
    try {
      this.db
        .transaction(() => {
          for (const { work } of group) {
            const undone = this.changes.length;
            try {
              // A transaction inside a transaction is a savepoint (better-sqlite3): undone alone when it throws.
              outcomes.push({ value: this.db.transaction(work)(), failed: false });
            } catch (error) {
              this.changes.length = undone;
              outcomes.push({ error, failed: true });
            }
          }
        })
        .immediate();
    } catch (error) {
      this.changes = [];
      for (const { reject } of group) reject(error);
      return;
    }
    const changes = this.changes;
    this.changes = [];
    for (const collection of new Set(changes.map((change) => change.collection)))
      collection.applyCommitted(changes.filter((change) => change.collection === collection));
    group.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i];
      if (outcome.failed) reject(outcome.error);
      else resolve(outcome.value);
    });
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
    // A database whose file was removed still answers from its open descriptor; it would lose every write.
    if (!existsSync(this.file)) throw new Error(`the SQLite database ${this.file} is gone`);
  }

  /**
   * The collections' tables: documents counted exactly, the declared indexes, and the size in pages of the table,
   * its indexes and its side tables (which serve declared indexes: counted in the size, not as indexes).
   */
  async stats(): Promise<StoreStats> {
    const allTables = this.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((table) => table.name);
    const tables = allTables.filter((name) => COLLECTION_NAME.test(name) && !name.startsWith('sqlite_'));
    const indexesOf = this.db.prepare<[string], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
    );
    const collections: CollectionStats[] = tables.map((name) => {
      const indexes = indexesOf.all(name);
      const sideTables = allTables.filter((table) => sideTableField(name, table) !== undefined);
      const objects = [
        name,
        ...indexes.map((index) => index.name),
        ...sideTables.flatMap((table) => [table, ...indexesOf.all(table).map((index) => index.name)]),
      ];
      const size = this.db
        .prepare<string[], { bytes: number | null }>(
          `SELECT sum(pgsize) AS bytes FROM dbstat WHERE name IN (${objects.map(() => '?').join(', ')})`,
        )
        .get(...objects);
      const count = this.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${quoteIdentifier(name)}`).get();
      return { name, documents: count!.n, indexes: indexes.length, sizeBytes: size?.bytes ?? 0 };
    });
    const onDisk = (file: string) => (existsSync(file) ? statSync(file).size : 0);
    return {
      engine: 'sqlite',
      name: this.file,
      sizeBytes: onDisk(this.file) + onDisk(`${this.file}-wal`),
      collections,
    };
  }

  async close(): Promise<void> {
    // The writes queued in this turn are committed first (their callers are waiting for it).
    if (this.db.open && this.queued.length > 0) this.commitQueued();
    if (this.db.open) this.db.close();
  }
}

/** `sqlite:///abs/folder` or `sqlite:relative/folder`: the folder holding one database file per store. */
export const sqliteUrl = z
  .string()
  .url()
  .refine((url) => new URL(url).protocol === 'sqlite:', { message: 'expected a sqlite: URL' })
  .refine((url) => new URL(url).host === '', { message: 'a sqlite: URL names a folder, not a host: sqlite:///path' })
  .refine((url) => decodeURIComponent(new URL(url).pathname).length > 0, { message: 'a sqlite: URL needs a path' });

/** The database file of the store `name` under the folder a `sqlite:` URL names. */
export function sqliteFileOf(url: string, name: string): string {
  const folder = decodeURIComponent(new URL(sqliteUrl.parse(url)).pathname);
  if (!STORE_NAME.test(name)) throw new Error(`invalid store name: ${JSON.stringify(name.slice(0, 100))}`);
  return join(folder, `${name}.db`);
}

/**
 * better-sqlite3, loaded when a SQLite store is first opened: it is an optional dependency (a native addon that
 * an image without a compiler or prebuilt binary cannot install), so the processes on other engines never need it.
 */
function sqliteDriver(): typeof Database {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new Error(
      `STORE_URL=sqlite: needs the optional package better-sqlite3, which is not installed here (${String(error).slice(0, 200)})`,
      { cause: error },
    );
  }
}

/** Opens (creating it and its folder unless they exist) the SQLite database at `file`. */
export function openSqliteStore(file: string): SqliteStore {
  mkdirSync(dirname(file), { recursive: true });
  // The addon built for another Node than node_modules' (scripts/node-lts.mjs builds one for the LTS run).
  const nativeBinding = process.env.BETTER_SQLITE3_BINDING || undefined;
  const db = new (sqliteDriver())(file, { timeout: BUSY_TIMEOUT_MS, nativeBinding });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Larger page cache than the 2 MB default: the documents live here instead of the JS heap.
    db.pragma('cache_size = -65536');
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteStore(db, file);
}

/** The SQLite adapter behind `store` (timed or not), or undefined when the store runs on another engine. */
export function sqliteStoreOf(store: DocumentStore): SqliteStore | undefined {
  const adapter = adapterOf(store);
  return adapter instanceof SqliteStore ? adapter : undefined;
}
