/**
 * `Terms`: the catalog's side of content's vocabularies (`@vocabularies`, `@sources`, `@querysources`): the tags
 * in use, content found by the words of its text, the metadata columns. Only what the viewer may see.
 */
import { badRequest, clip, unary, type Logger, type SearchServiceHandlers } from '@cms/shared';
import { normalise, words } from '../domain/text';
import type { Catalog } from '../store/catalog';
import type { ReadYourWrites } from './read-your-writes';

const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 10_000;
/** Entries read to gather the tags in use (a tag on an object beyond them is not offered). */
const MAX_TAGGED_ENTRIES = 50_000;

/** The catalog's metadata columns (`metadata_fields`), titled as the reference's MetadataFields vocabulary. */
export const METADATA_COLUMNS: readonly (readonly [string, string])[] = [
  ['CreationDate', 'Created'],
  ['Creator', 'Creator'],
  ['Description', 'Description'],
  ['EffectiveDate', 'Effective'],
  ['ExpirationDate', 'Expiration date'],
  ['ModificationDate', 'Last modified'],
  ['Subject', 'Tags'],
  ['Title', 'Title'],
  ['Type', 'Type'],
  ['UID', 'UID'],
  ['created', 'created'],
  ['effective', 'effective'],
  ['expires', 'expires'],
  ['getId', 'Short name'],
  ['getObjPositionInParent', 'Position in parent'],
  ['id', 'id'],
  ['is_folderish', 'is_folderish'],
  ['modified', 'modified'],
  ['portal_type', 'portal_type'],
  ['review_state', 'Review state'],
];

interface TermsRequest {
  vocabulary: string;
  text: string;
  viewer_tokens: string[];
  portal_types: string[];
  limit: number;
}

export interface TermsOptions {
  /** Waits (bounded) until the writes acknowledged so far are in the catalog, so a term just written is offered. */
  readYourWrites: Pick<ReadYourWrites, 'check'>;
}

export function termsRpcs(catalog: Catalog, log: Logger, options: TermsOptions): Pick<SearchServiceHandlers, 'Terms'> {
  return {
    Terms: unary(log, async (q: TermsRequest, ctx) => {
      const limit = q.limit > 0 ? Math.min(q.limit, MAX_LIMIT) : DEFAULT_LIMIT;
      switch (q.vocabulary) {
        case 'metadata':
          return { items: METADATA_COLUMNS.map(([token, title]) => ({ token, title })) };
        case 'keywords':
          await options.readYourWrites.check(ctx.requestId, ctx.log);
          return { items: await keywords(catalog, q, limit) };
        case 'content':
          await options.readYourWrites.check(ctx.requestId, ctx.log);
          return { items: await content(catalog, q, limit) };
        default:
          throw badRequest(`No catalog vocabulary ${clip(q.vocabulary)}`);
      }
    }),
  };
}

function visible(q: TermsRequest): Record<string, unknown> {
  return { deleted: { $ne: true }, allowed: { $in: q.viewer_tokens } };
}

/** The tags on the objects the viewer may see, sorted, those containing the text (case-insensitive) only. */
async function keywords(catalog: Catalog, q: TermsRequest, limit: number) {
  const tagged = await catalog.entries.find(
    { ...visible(q), 'subjects.0': { $exists: true } },
    { projection: { subjects: 1 }, limit: MAX_TAGGED_ENTRIES },
  );
  const needle = normalise(q.text);
  const tags = new Set<string>();
  for (const entry of tagged) {
    for (const tag of entry.subjects ?? []) if (normalise(tag).includes(needle)) tags.add(tag);
  }
  return [...tags]
    .sort((a, b) => a.localeCompare(b))
    .slice(0, limit)
    .map((tag) => ({ token: tag, title: tag }));
}

/** Content whose words start with each word of the text, by title; tokens are UIDs. */
async function content(catalog: Catalog, q: TermsRequest, limit: number) {
  // The site root is no one's related item or feed: the reference's catalog does not hold it.
  const filter: Record<string, unknown> = { ...visible(q), path: { $ne: '/' } };
  const wanted = words(q.text).slice(0, 20);
  if (wanted.length > 0) filter.$and = wanted.map((word) => ({ words: { $regex: `^${escapeRegExp(word)}` } }));
  if (q.portal_types.length > 0) filter.portal_type = { $in: q.portal_types };
  const found = await catalog.entries.find(filter, {
    sort: { sortable_title: 1 },
    limit,
    projection: { _id: 1, title: 1 },
  });
  return found.map((entry) => ({ token: entry._id, title: entry.title }));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
