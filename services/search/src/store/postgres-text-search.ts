/**
 * The catalog searched with PostgreSQL's full-text search. The catalog table (the store adapter's `id`, `doc`)
 * gains two generated columns, kept by PostgreSQL itself on every write the port makes:
 * - `ts_config`: the text search configuration of the entry's language (`LANGUAGE_CONFIGS`, else `simple`);
 * - `tsv`: the entry's words in that configuration, weighted: title A, description B, all its text C; with a GIN
 *   index.
 * A text match is a tsquery in the entry's own configuration (so stemming and stop words follow the language on
 * both sides); the relevance order is `ts_rank_cd`, ties in path order. What is not text stays a port filter,
 * translated by the store adapter (`filterToSql`); a filter or sort it cannot translate exactly is searched with
 * word lists instead (`WordListSearch`), so that a result is never wrong, only ranked the simpler way.
 */
import type { Collection, Logger } from '@cms/shared';
import { filterToSql, type PostgresStore } from '@cms/shared/adapters';
import type { CatalogEntry } from '../domain/catalog-entry';
import type { CatalogQuery } from '../domain/search-query';
import type { TextField, TextMatch, TextTerm } from '../domain/text';
import {
  batchWithin,
  RESULT_PROJECTION,
  totalWithin,
  WordListSearch,
  type CatalogSearch,
  type SearchPage,
} from './catalog-search';

/**
 * Content languages (ISO 639-1; a region, `pt-br`, is ignored) and PostgreSQL's text search configuration of each
 * (those PostgreSQL 15 ships). Any other language, and none, is `simple`: words lower-cased, no stemming.
 */
export const LANGUAGE_CONFIGS: Readonly<Record<string, string>> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The configuration of a language, as the table's `ts_config` column computes it. */
export function textSearchConfigOf(language: string | undefined): string {
  const primary = (language ?? '').replace(/_/g, '-').split('-')[0].toLowerCase();
  return Object.prototype.hasOwnProperty.call(LANGUAGE_CONFIGS, primary) ? LANGUAGE_CONFIGS[primary] : 'simple';
}

const CONFIGS = [...new Set([...Object.values(LANGUAGE_CONFIGS), 'simple'])];

/** Identifiers and literals below are this module's constants (language codes, configuration names). */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The SQL of `textSearchConfigOf` over the document's `language` (immutable: fit for a generated column). */
const CONFIG_OF_DOC =
  `(CASE lower(split_part(replace(doc->>'language', '_', '-'), '-', 1)) ` +
  Object.entries(LANGUAGE_CONFIGS)
    .map(([code, config]) => `WHEN ${literal(code)} THEN ${literal(config)}::regconfig`)
    .join(' ') +
  ` ELSE 'simple'::regconfig END)`;

/**
 * The words of a list field, with a weight: stemmed in the entry's configuration, and as they are (`simple`, unless
 * that is the configuration), so that a prefix longer than a word's stem still finds it (`runn*`: the English stem
 * of "running" is "run").
 */
const weighted = (field: TextField, weight: 'A' | 'B' | 'C') => {
  const list = `coalesce(doc->${literal(field)}, '[]'::jsonb)`;
  const unstemmed = `CASE WHEN ${CONFIG_OF_DOC} = 'simple'::regconfig THEN '[]'::jsonb ELSE ${list} END`;
  return `setweight(to_tsvector(${CONFIG_OF_DOC}, ${list}) || to_tsvector('simple', ${unstemmed}), ${literal(weight)})`;
};

/** The weight a text index searches: the title's words are A, the description's B, the whole text any. */
const WEIGHT_OF: Record<TextField, string> = { words: '', title_words: 'A', description_words: 'B' };

/** One term as tsquery text: `'word'` or, for `word*`, `'word':*`, limited to the index's weight. */
export function termText({ word, prefix }: TextTerm, field: TextField = 'words'): string {
  const label = `${prefix ? '*' : ''}${WEIGHT_OF[field]}`;
  // Words are letters and digits only (text.ts); quoted all the same.
  return `'${word.replace(/['\\]/g, (c) => `\\${c}`)}'${label ? `:${label}` : ''}`;
}

/** A term's tsquery text in SQL (a parameter) and whether it is a prefix. */
interface TermParam {
  text: string;
  prefix: boolean;
}

/**
 * The tsquery of terms in a configuration (`config`: a literal or the `ts_config` column), every one required: a
 * word stemmed as the configuration stems, a prefix also as it is (the `simple` lexemes of the tsvector).
 */
function tsquerySql(terms: readonly TermParam[], config: string): string {
  return terms
    .map(({ text, prefix }) =>
      prefix ? `(to_tsquery(${config}, ${text}) || to_tsquery('simple', ${text}))` : `to_tsquery(${config}, ${text})`,
    )
    .join(' && ');
}

/** Sort fields that hold arrays: PostgreSQL does not order those as the port does (by their least element). */
const ARRAY_FIELDS = new Set(['creators']);

/** Mirrors `RESULT_PROJECTION`: what a result does not carry. */
const RESULT_DOC = `doc${Object.keys(RESULT_PROJECTION)
  .map((field) => ` - ${literal(field)}`)
  .join('')}`;

export class PostgresTextSearch implements CatalogSearch {
  readonly engine = 'postgres' as const;
  private readonly fallback: WordListSearch;

  constructor(
    private readonly store: PostgresStore,
    entries: Collection<CatalogEntry>,
    private readonly log?: Logger,
  ) {
    this.fallback = new WordListSearch(entries);
  }

  /** The catalog table, with the text columns and index (made once, on first use; tried again after a failure). */
  private table(): Promise<string> {
    if (!this.ready) {
      this.ready = this.makeTextColumns();
      this.ready.catch(() => (this.ready = undefined));
    }
    return this.ready;
  }

  private ready: Promise<string> | undefined;

  private async makeTextColumns(): Promise<string> {
    const table = await this.store.ensureTable('catalog');
    // Already there (the usual start): no ALTER, whose exclusive lock would queue behind running searches.
    const { rows } = await this.store.pool.query<{ made: boolean }>(
      `SELECT count(*) = 2 AS made FROM pg_attribute
        WHERE attrelid = $1::regclass AND attname IN ('ts_config', 'tsv') AND NOT attisdropped`,
      [table],
    );
    if (rows[0].made) return table;
    // One process at a time: `ADD COLUMN IF NOT EXISTS` rewrites the table, and two at once would race on it.
    await this.store.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cms catalog text ${table}`]);
      await client.query(
        `ALTER TABLE ${table}
           ADD COLUMN IF NOT EXISTS ts_config regconfig GENERATED ALWAYS AS ${CONFIG_OF_DOC} STORED,
           ADD COLUMN IF NOT EXISTS tsv tsvector GENERATED ALWAYS AS (
             ${weighted('title_words', 'A')} || ${weighted('description_words', 'B')} || ${weighted('words', 'C')}
           ) STORED`,
      );
      await client.query(`CREATE INDEX IF NOT EXISTS catalog_tsv ON ${table} USING gin (tsv)`);
    });
    return table;
  }

  async ensureIndexes(): Promise<void> {
    await this.table();
    // The word-list search serves filters PostgreSQL cannot take exactly.
    await this.fallback.ensureIndexes();
  }

  async search(query: CatalogQuery, limit = query.limit): Promise<SearchPage> {
    const where = filterToSql(query.filter, { column: 'doc', firstParam: 1, idColumn: 'id' });
    const sortable = Object.keys(query.sort).every((field) => !ARRAY_FIELDS.has(field));
    if (!where || (!query.rank && !sortable)) {
      this.log?.debug({ sort: Object.keys(query.sort) }, 'catalog search not translatable to SQL: word lists used');
      return this.fallback.search(query, limit);
    }
    const values = [...where.values];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const conditions = [where.sql, ...query.text.map((match) => this.matchSql(match, param))];
    const whereSql = conditions.map((condition) => `(${condition})`).join(' AND ');
    const whereValues = values.length;
    const order = query.rank
      ? `${this.rankSql(query.rank, param)} DESC, doc->>'path' COLLATE "C", id COLLATE "C"`
      : this.orderSql(query.sort);
    const { start, size } = batchWithin(query, limit);
    const table = await this.table();
    const [page, count] = await Promise.all([
      size === 0
        ? Promise.resolve({ rows: [] as { doc: CatalogEntry }[] })
        : this.store.pool.query<{ doc: CatalogEntry }>(
            `SELECT ${RESULT_DOC} AS doc FROM ${table} WHERE ${whereSql} ORDER BY ${order} ` +
              `OFFSET ${param(start)} LIMIT ${param(size)}`,
            values,
          ),
      // No further than the limit: `items_total` says no more.
      this.store.pool.query<{ total: number }>(
        limit === undefined
          ? `SELECT count(*)::int AS total FROM ${table} WHERE ${whereSql}`
          : `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${table} WHERE ${whereSql} LIMIT ${Number(limit)}) AS counted`,
        values.slice(0, whereValues),
      ),
    ]);
    return { items: page.rows.map((row) => row.doc), total: totalWithin(count.rows[0].total, limit) };
  }

  /**
   * Entries holding every term in their own language's configuration. The first test, the terms in any
   * configuration, is what the GIN index answers (its tsquery is a constant); the second is exact.
   */
  private matchSql({ field, terms }: TextMatch, param: (value: unknown) => string): string {
    if (terms.length === 0) return 'FALSE';
    const params = terms.map((term) => ({ text: param(termText(term, field)), prefix: term.prefix }));
    const anyConfig = CONFIGS.map((config) => `(${tsquerySql(params, literal(config))})`).join(' || ');
    return `tsv @@ (${anyConfig}) AND tsv @@ (${tsquerySql(params, 'ts_config')})`;
  }

  /** The relevance of an entry for terms: `ts_rank_cd` in its own configuration. */
  private rankSql(terms: readonly TextTerm[], param: (value: unknown) => string): string {
    const params = terms.map((term) => ({ text: param(termText(term)), prefix: term.prefix }));
    return `ts_rank_cd(tsv, ${tsquerySql(params, 'ts_config')})`;
  }

  /** ORDER BY of a port sort on scalar fields, in the port's order: null first, strings by code point. */
  private orderSql(sort: Record<string, 1 | -1>): string {
    const terms = Object.entries(sort).map(([field, direction]) => {
      const value = `doc->${literal(field)}`;
      const dir = direction === -1 ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
      return (
        `CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value})::numeric END ${dir}, ` +
        `CASE WHEN jsonb_typeof(${value}) = 'string' THEN ${value} #>> '{}' END COLLATE "C" ${dir}`
      );
    });
    return [...terms, 'id COLLATE "C"'].join(', ');
  }
}
