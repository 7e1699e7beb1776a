/**
 * How the catalog is searched. Entries are the same on every engine (written through the store port); a search
 * is rendered by the engine's own means: word lists and port filters on the embedded engine and MongoDB
 * (`WordListSearch`), PostgreSQL's full-text search on PostgreSQL (`PostgresTextSearch`).
 */
import type { Collection } from '@cms/shared';
import type { CatalogEntry } from '../domain/catalog-entry';
import type { CatalogQuery } from '../domain/search-query';
import { escapeRegExp, type TextField, type TextMatch, type TextTerm } from '../domain/text';

export interface SearchPage {
  items: CatalogEntry[];
  total: number;
}

export interface CatalogSearch {
  readonly engine: 'words' | 'postgres';
  ensureIndexes(): Promise<void>;
  /** One batch of the matches and how many match; with `limit`, only the first `limit` matches count (none further). */
  search(query: CatalogQuery, limit?: number): Promise<SearchPage>;
}

/** What a result needs of an entry: not its words. */
export const RESULT_PROJECTION = { words: 0, path_parents: 0, title_words: 0, description_words: 0 } as const;

/** The batch a search reads: `size` shrinks so that no result lies beyond `limit`. */
export function batchWithin(query: CatalogQuery, limit: number | undefined): { start: number; size: number } {
  const { start } = query.batch;
  const size = limit === undefined ? query.batch.size : Math.min(query.batch.size, Math.max(0, limit - start));
  return { start, size };
}

/** The count a search reports: at most `limit`. */
export function totalWithin(count: number, limit: number | undefined): number {
  return limit === undefined ? count : Math.min(count, limit);
}

function termClause(field: TextField, term: TextTerm): Record<string, unknown> {
  return { [field]: term.prefix ? { $regex: `^${escapeRegExp(term.word)}` } : term.word };
}

function notTermClause(field: TextField, term: TextTerm): Record<string, unknown> {
  return { [field]: term.prefix ? { $not: { $regex: `^${escapeRegExp(term.word)}` } } : { $ne: term.word } };
}

/** A text match as port clauses over an entry's word list: every term a word (or a word's start). */
function textClauses({ field, terms }: TextMatch): Record<string, unknown>[] {
  return terms.length ? terms.map((term) => termClause(field, term)) : [{ _id: { $in: [] } }];
}

/** The query's filter with its text matches as word-list clauses, beside the filter's own `$and`. */
export function wordListFilter(query: CatalogQuery): Record<string, unknown> {
  if (query.text.length === 0) return query.filter;
  const and = (query.filter.$and as Record<string, unknown>[] | undefined) ?? [];
  return { ...query.filter, $and: [...and, ...query.text.flatMap(textClauses)] };
}

/** Within a relevance tier: the path order a search without relevance has. */
const RELEVANCE_TIE_ORDER: Record<string, 1 | -1> = { path: 1 };

/**
 * Full-text search without a text engine, the same on MongoDB and the embedded store: an entry's text is a set of
 * normalised words, and a term matches a word (or, `term*`, a word's start).
 */
export class WordListSearch implements CatalogSearch {
  readonly engine = 'words' as const;

  constructor(private readonly entries: Collection<CatalogEntry>) {}

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndex({ words: 1 });
  }

  async search(query: CatalogQuery, limit = query.limit): Promise<SearchPage> {
    const { start, size } = batchWithin(query, limit);
    const filter = wordListFilter(query);
    if (query.rank) return this.rankedSearch(filter, query.rank, start, size, limit);
    const [items, count] = await Promise.all([
      size === 0 ? Promise.resolve([]) : this.page(filter, query.sort, start, size),
      this.entries.countDocuments(filter, { limit }),
    ]);
    return { items, total: totalWithin(count, limit) };
  }

  private page(filter: Record<string, unknown>, sort: Record<string, 1 | -1>, skip: number, limit: number) {
    return this.entries.find(filter, { sort, skip, limit, projection: RESULT_PROJECTION });
  }

  /**
   * Relevance order without a text engine: the matches whose title holds every term first, then those whose
   * description does, then the rest (the text alone); within each, by path. Each tier is a store query of its own,
   * read from where the page starts in it; a tier is counted only when the page begins beyond it, so the first
   * page of a common word costs what a sorted search does.
   */
  private async rankedSearch(
    filter: Record<string, unknown>,
    terms: TextTerm[],
    start: number,
    size: number,
    limit: number | undefined,
  ): Promise<SearchPage> {
    const notInTitle = { $or: terms.map((t) => notTermClause('title_words', t)) };
    const tiers = [
      { $and: [filter, ...terms.map((t) => termClause('title_words', t))] },
      { $and: [filter, notInTitle, ...terms.map((t) => termClause('description_words', t))] },
      { $and: [filter, notInTitle, { $or: terms.map((t) => notTermClause('description_words', t)) }] },
    ];
    const counting = this.entries.countDocuments(filter, { limit });
    const pageOfTiers = async () => {
      const items: CatalogEntry[] = [];
      let offset = start;
      for (const [i, tier] of tiers.entries()) {
        const wanted = size - items.length;
        if (wanted <= 0) break;
        // Past the first tier, one whose matches would all lie before this page's end is not read (a search for a
        // word only descriptions hold never reads the text tier once it has them all).
        if (i > 0 && start + items.length >= (await counting)) break;
        const page = await this.page(tier, RELEVANCE_TIE_ORDER, offset, wanted);
        items.push(...page);
        if (page.length === wanted || i === tiers.length - 1) break;
        // The tier ends within this page (the next starts at its top), or before it (skip what it holds); counted
        // only then, and only when the page starts below its top (a first page never counts a tier).
        if (page.length > 0) offset = 0;
        else if (offset > 0) offset = Math.max(0, offset - (await this.entries.countDocuments(tier)));
      }
      return items;
    };
    const [items, count] = await Promise.all([pageOfTiers(), counting]);
    return { items, total: totalWithin(count, limit) };
  }
}
