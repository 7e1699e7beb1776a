/** Terms of vocabularies and sources as the API shows them: tokens only (never values), filtered and batched. */
import { badRequest } from '@cms/shared';

/** A term: its token, and its title when it has one. */
export interface Term {
  token: string;
  title?: string | null;
}

export interface ShownTerm {
  title: string;
  token: string;
}

export interface TermFilter {
  /** Terms whose title contains it (case-insensitive). */
  title?: string;
  /** The term with exactly this token. */
  token?: string;
  /** Terms with any of these tokens. */
  tokens?: readonly string[];
}

/** The terms as shown (a term without a title shows its token), those the filter selects only. */
export function filterTerms(terms: readonly Term[], filter: TermFilter): ShownTerm[] {
  if (filter.title !== undefined && filter.token !== undefined) {
    throw badRequest('Filter by title or by token, not both', [
      { field: 'token', message: 'cannot be combined with title' },
    ]);
  }
  let shown = terms.map((term) => ({ title: term.title || term.token, token: term.token }));
  if (filter.title !== undefined) {
    const needle = filter.title.toLowerCase();
    shown = shown.filter((term) => term.title.toLowerCase().includes(needle));
  }
  if (filter.token !== undefined) shown = shown.filter((term) => term.token === filter.token);
  if (filter.tokens && filter.tokens.length > 0) {
    const wanted = new Set(filter.tokens);
    shown = shown.filter((term) => wanted.has(term.token));
  }
  return shown;
}

/** Terms from `[token, title]` pairs. */
export function pairs(list: readonly (readonly [string, string])[]): Term[] {
  return list.map(([token, title]) => ({ token, title }));
}

/** Terms sorted by title (then token), as the reference lists types and principals. */
export function byTitle(terms: Term[]): Term[] {
  return terms.sort((a, b) => (a.title || a.token).localeCompare(b.title || b.token) || a.token.localeCompare(b.token));
}
