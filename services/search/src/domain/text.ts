/**
 * Full-text indexing without a text engine, so that it behaves the same on
 * MongoDB and on the embedded store: an object's text is reduced to a set of
 * normalised words, and a `SearchableText` query matches objects holding every
 * term (`term*` matches words starting with `term`, addendum rule 2: no
 * wildcard is added by the service).
 */

export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function words(text: string): string[] {
  return [
    ...new Set(
      normalise(text)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    ),
  ];
}

export interface TextTerm {
  word: string;
  prefix: boolean;
}

/** The word lists of an entry that text indexes search: everything, the title's, the description's. */
export type TextField = 'words' | 'title_words' | 'description_words';

/**
 * A text index's condition: entries whose `field` holds every term (no terms: nothing matches). Kept apart from
 * the query's filter, so that each catalog engine renders it its own way (word lists or a text search engine).
 */
export interface TextMatch {
  field: TextField;
  terms: TextTerm[];
}

/** Parses a query like `news report*`; boolean operators are read as plain words dropped from the query. */
export function parseTextQuery(query: string): TextTerm[] {
  const terms: TextTerm[] = [];
  for (const raw of query.split(/\s+/)) {
    if (!raw || ['and', 'or', 'not'].includes(raw.toLowerCase())) continue;
    const prefix = raw.endsWith('*');
    for (const word of words(prefix ? raw.slice(0, -1) : raw)) terms.push({ word, prefix: false });
    if (prefix && terms.length) terms[terms.length - 1].prefix = true;
  }
  return terms;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
