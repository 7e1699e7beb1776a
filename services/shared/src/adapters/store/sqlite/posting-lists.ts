/**
 * Exact counts from posting lists held in memory, for the queries most of a collection matches (`items_total` of a
 * word most titles hold, of every Document): SQL counts those by testing each match, which grows with the
 * collection (~4 µs a match: 0.4 s at 100,000 objects, seconds at a million).
 *
 * A posting list is the set of the rows whose field holds a value (the value itself, or an element of the array the
 * field holds): the rowids its type-rank index lists for the scalar and its side table for the elements (./ddl.ts),
 * kept as a bitset. A filter made of equalities, `$in`, `$ne`, `$nin`, `$and` and `$or` on such fields is a formula
 * of those sets, counted by a few word-wise operations per 32 rows.
 *
 * The lists are built on first use. This process's committed writes to the collection are applied to them (`apply`);
 * a commit of another process to the database (SQLite's `data_version`) drops them all, as does a new index. A count
 * during which another process committed is not answered here, so every answer is the state of one moment.
 */
import type Database from 'better-sqlite3';
import { isOperatorObject } from '../document-ops';
import type { Filter } from '../../../ports/store';
import { isPlainObject } from '../../../ports/store-rules';
import { type TypedScalar, jsonPath, typeRank, typedScalar } from './filter-sql';

/** Rows, by rowid, one bit each. */
export class RowSet {
  constructor(public words: Uint32Array) {}

  static of(size: number, rowids: readonly number[]): RowSet {
    const words = new Uint32Array(Math.ceil(size / 32));
    for (const rowid of rowids) words[rowid >>> 5] |= 1 << (rowid & 31);
    return new RowSet(words);
  }

  // One loop each, not one loop calling an operator: called with three operators, it was not inlined (a call per
  // 32 rows, ~3 ms a count at a million rows).
  and(other: RowSet): RowSet {
    const [a, b] = [this.words, other.words];
    const words = new Uint32Array(a.length);
    for (let i = 0; i < words.length; i++) words[i] = a[i] & b[i];
    return new RowSet(words);
  }

  or(other: RowSet): RowSet {
    const [a, b] = [this.words, other.words];
    const words = new Uint32Array(a.length);
    for (let i = 0; i < words.length; i++) words[i] = a[i] | b[i];
    return new RowSet(words);
  }

  andNot(other: RowSet): RowSet {
    const [a, b] = [this.words, other.words];
    const words = new Uint32Array(a.length);
    for (let i = 0; i < words.length; i++) words[i] = a[i] & ~b[i];
    return new RowSet(words);
  }

  set(rowid: number, member: boolean): void {
    if (member) this.words[rowid >>> 5] |= 1 << (rowid & 31);
    else this.words[rowid >>> 5] &= ~(1 << (rowid & 31));
  }

  /** Room for `size` rows (new rows are not members). */
  grow(size: number): void {
    const words = new Uint32Array(Math.ceil(size / 32));
    words.set(this.words);
    this.words = words;
  }

  /** The members' rowids, ascending; the first `max` only. */
  rowids(max = Infinity): number[] {
    const rowids: number[] = [];
    for (let i = 0; i < this.words.length && rowids.length < max; i++) {
      for (let bits = this.words[i]; bits !== 0 && rowids.length < max; bits &= bits - 1)
        rowids.push(i * 32 + (31 - Math.clz32(bits & -bits)));
    }
    return rowids;
  }

  count(): number {
    let count = 0;
    for (let word of this.words) {
      // The bits of a 32-bit word, added in pairs, nibbles, then bytes.
      word -= (word >>> 1) & 0x55555555;
      word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
      count += (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return count;
  }
}

/** A field holding a scalar: the rows of its posting list. */
interface Term {
  field: string;
  scalar: TypedScalar;
}

/** A filter as a formula of posting lists: the rows in every `all`, in no `none`; or in any of `any`. */
type Formula = { term: Term } | { all: Formula[]; none: Term[] } | { any: Formula[] };

/**
 * The filter as a formula on the fields that have posting lists (`listed`), or undefined when any part of it is not
 * one: another operator, a field without a list, a value that is no string, finite number or boolean (null matches
 * missing fields, which no list holds).
 */
export function postingFormula(filter: Filter, listed: ReadonlySet<string>): Formula | undefined {
  const all: Formula[] = [];
  const none: Term[] = [];
  const termOf = (field: string, value: unknown): Term | undefined => {
    const scalar = typedScalar(value);
    return scalar && { field, scalar };
  };
  const termsOf = (field: string, values: unknown): Term[] | undefined => {
    if (!Array.isArray(values)) return undefined;
    const terms = values.map((value) => termOf(field, value));
    return terms.every((term) => term !== undefined) ? (terms as Term[]) : undefined;
  };
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(condition) || condition.length === 0 || !condition.every(isPlainObject)) return undefined;
      const parts = condition.map((part) => postingFormula(part, listed));
      if (parts.some((part) => part === undefined)) return undefined;
      all.push(key === '$and' ? { all: parts as Formula[], none: [] } : { any: parts as Formula[] });
      continue;
    }
    if (!listed.has(key)) return undefined;
    if (!isOperatorObject(condition)) {
      const term = termOf(key, condition);
      if (!term) return undefined;
      all.push({ term });
      continue;
    }
    for (const [op, arg] of Object.entries(condition)) {
      const terms = op === '$eq' || op === '$ne' ? termsOf(key, [arg]) : termsOf(key, arg);
      if (!terms || !['$eq', '$in', '$ne', '$nin'].includes(op)) return undefined;
      if (op === '$ne' || op === '$nin') none.push(...terms);
      else all.push({ any: terms.map((term) => ({ term })) });
    }
  }
  return { all, none };
}

/** The parts of a filter that must all hold: its entries, and those of the filters of a (non-empty) `$and`. */
function conjuncts(filter: Filter): Filter[] {
  return Object.entries(filter).flatMap(([key, condition]) =>
    key === '$and' && Array.isArray(condition) && condition.length > 0 && condition.every(isPlainObject)
      ? condition.flatMap(conjuncts)
      : [{ [key]: condition }],
  );
}

/**
 * The filter as the conjunction of a part made of posting lists and the rest (each undefined when empty): the rows a
 * query reads can be the first part's, by rowid, each tested for the rest.
 */
export function splitListed(filter: Filter, sources: ListSources): { listed?: Filter; rest?: Filter } {
  const listedFields = listedFieldsOf(sources);
  const listed: Filter[] = [];
  const rest: Filter[] = [];
  for (const part of conjuncts(filter)) (postingFormula(part, listedFields) ? listed : rest).push(part);
  return {
    listed: listed.length ? { $and: listed } : undefined,
    rest: rest.length ? { $and: rest } : undefined,
  };
}

/** The fields with posting lists: a side table and a type-rank index. */
function listedFieldsOf({ sideTables, ranked }: ListSources): Set<string> {
  return new Set([...sideTables.keys()].filter((field) => ranked.has(field)));
}

function termsOf(formula: Formula): Term[] {
  if ('term' in formula) return [formula.term];
  if ('any' in formula) return formula.any.flatMap(termsOf);
  return [...formula.all.flatMap(termsOf), ...formula.none];
}

function listKey({ field, scalar }: Term): string {
  return JSON.stringify([field, scalar.type.types, scalar.value]);
}

/** Whether the document holds the term's scalar at its field, itself or as an element of the array there. */
function holds(doc: Record<string, unknown>, { field, scalar }: Term): boolean {
  const same = (value: unknown) => {
    const typed = typedScalar(value);
    return typed !== undefined && typed.type.types === scalar.type.types && typed.value === scalar.value;
  };
  const value = doc[field];
  return Array.isArray(value) ? value.some(same) : same(value);
}

/** The posting lists of one state of the database (see the module's comment). */
interface Generation {
  /** The other processes' commits it holds (see `PostingLists.version`). */
  version: number;
  /** How many rows every set has room for (more than the largest rowid). */
  size: number;
  every: RowSet;
  lists: Map<string, { term: Term; rows: RowSet }>;
  /**
   * The rows of the formulas evaluated lately, by formula, until this process's next write: a search asks the same
   * one for its count and its page, and searches repeat (each evaluation reads every list it names, ~1 ms at a
   * million rows).
   */
  results: Map<string, RowSet>;
}

/** Where a field's lists are read from: its side table and its type-rank index (quoted names). */
export interface ListSources {
  sideTables: ReadonlyMap<string, string>;
  ranked: ReadonlyMap<string, string>;
}

/** Lists kept per collection; the least recently used goes first (at a million rows, each is 125 kB). */
const LISTS_KEPT = 64;
/** Formula results kept per collection (`Generation.results`); the oldest goes first. */
const RESULTS_KEPT = 32;

export class PostingLists {
  private generation: Generation | undefined;

  /**
   * @param table the collection's table (quoted)
   * @param version what changes with every commit of another process to the database
   */
  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly version: () => number,
  ) {}

  drop(): void {
    this.generation = undefined;
  }

  /** This process's committed writes to the collection: each row's JSON now, undefined when it was deleted. */
  apply(changes: readonly { rowid: number; json?: string }[]): void {
    const generation = this.generation;
    if (!generation) return;
    generation.results.clear();
    for (const { rowid, json } of changes) {
      if (rowid >= generation.size) {
        // Room for a quarter more rows at once, not one word per insert.
        generation.size = Math.max(rowid + 1, Math.ceil(generation.size * 1.25));
        generation.every.grow(generation.size);
        for (const { rows } of generation.lists.values()) rows.grow(generation.size);
      }
      const doc = json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
      generation.every.set(rowid, doc !== undefined);
      for (const { term, rows } of generation.lists.values()) rows.set(rowid, doc !== undefined && holds(doc, term));
    }
  }

  /**
   * The number of rows the filter matches, or undefined when it is no formula of posting lists, a list it needs is
   * not kept and `mayBuild` says not to build it, or the database changed while the lists were read.
   */
  count(filter: Filter, sources: ListSources, mayBuild: (field: string) => boolean): number | undefined {
    return this.matches(filter, sources, mayBuild)?.rows.count();
  }

  /**
   * The rows the filter matches and the version of the database they are of (see `version`), or undefined as for
   * `count`. A query that reads them must check that the version is still the same once it has read them.
   */
  matches(
    filter: Filter,
    sources: ListSources,
    mayBuild: (field: string) => boolean,
  ): { rows: RowSet; version: number } | undefined {
    const formula = postingFormula(filter, listedFieldsOf(sources));
    if (!formula) return undefined;
    const before = this.version();
    if (this.generation?.version !== before) this.generation = undefined;
    const key = JSON.stringify(formula);
    const result = this.generation?.results.get(key);
    if (result) return { rows: result, version: before };
    const missing = termsOf(formula).filter((term) => !this.generation?.lists.has(listKey(term)));
    if (!missing.every((term) => mayBuild(term.field))) return undefined;
    const generation = (this.generation ??= this.newGeneration(before));
    const rows = this.evaluate(formula, generation, sources);
    // Another process's commit while the lists were read: they may mix two states.
    if (this.version() !== before) {
      this.generation = undefined;
      return undefined;
    }
    if (generation.results.size >= RESULTS_KEPT) generation.results.delete(generation.results.keys().next().value!);
    generation.results.set(key, rows);
    return { rows, version: before };
  }

  private newGeneration(version: number): Generation {
    const rowids = this.db.prepare<[], number>(`SELECT rowid FROM ${this.table}`).pluck().all();
    const size = rowids.reduce((max, rowid) => Math.max(max, rowid), 0) + 1;
    return { version, size, every: RowSet.of(size, rowids), lists: new Map(), results: new Map() };
  }

  private evaluate(formula: Formula, generation: Generation, sources: ListSources): RowSet {
    const rowsOf = (part: Formula) => this.evaluate(part, generation, sources);
    if ('term' in formula) return this.list(formula.term, generation, sources);
    if ('any' in formula)
      return formula.any.map(rowsOf).reduce((union, rows) => union.or(rows), RowSet.of(generation.size, []));
    let rows = formula.all.map(rowsOf).reduce((common, part) => common.and(part), generation.every);
    for (const term of formula.none) rows = rows.andNot(this.list(term, generation, sources));
    return rows;
  }

  private list(term: Term, generation: Generation, { sideTables, ranked }: ListSources): RowSet {
    const key = listKey(term);
    const kept = generation.lists.get(key);
    if (kept) {
      // Most recently used last.
      generation.lists.delete(key);
      generation.lists.set(key, kept);
      return kept.rows;
    }
    const { field, scalar } = term;
    const path = jsonPath(field)!;
    const rowids = this.db
      .prepare<unknown[], number>(
        `SELECT rowid FROM ${this.table} INDEXED BY ${ranked.get(field)} ` +
          `WHERE ${typeRank(path)} = ${scalar.type.rank} AND json_extract(doc, ${path}) = ? ` +
          `UNION ALL SELECT t.rowid FROM ${sideTables.get(field)} AS s JOIN ${this.table} AS t ON t.id = s.doc_id ` +
          `WHERE s.type IN ${scalar.type.types} AND s.value = ?`,
      )
      .pluck()
      .all(scalar.value, scalar.value);
    const rows = RowSet.of(generation.size, rowids);
    if (generation.lists.size >= LISTS_KEPT) generation.lists.delete(generation.lists.keys().next().value!);
    generation.lists.set(key, { term, rows });
    return rows;
  }
}
