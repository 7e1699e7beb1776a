/**
 * The catalog's metadata columns (`metadata_fields`): what each adds to a result item, read from the entry.
 * `_all` adds every one. Dates are in the content format (`YYYY-MM-DDTHH:MM:SS`, UTC), as content shows them.
 */
import { AppError, urlOf } from '@cms/shared';
import type { CatalogEntry } from './catalog-entry';

type Column = (entry: CatalogEntry, publicUrl: string) => unknown;

const contentDate = (iso: string | null | undefined) => (iso ? iso.slice(0, 19) : null);
/** Zope's `CreationDate` and friends: `None` when unset, as the original platform answers. */
const zopeDate = (iso: string | null | undefined) => (iso ? iso.slice(0, 19) + '+00:00' : 'None');

export const COLUMNS: Readonly<Record<string, Column>> = {
  CreationDate: (e) => zopeDate(e.created),
  Creator: (e) => e.creators[0] ?? '',
  Date: (e) => zopeDate(e.effective ?? e.modified),
  Description: (e) => e.description,
  EffectiveDate: (e) => zopeDate(e.effective),
  ExpirationDate: (e) => zopeDate(e.expires),
  ModificationDate: (e) => zopeDate(e.modified),
  Subject: (e) => e.subjects ?? [],
  Title: (e) => e.title,
  Type: (e) => e.type_title,
  UID: (e) => e._id,
  author_name: (e) => e.creators[0] ?? '',
  cmf_uid: () => null,
  commentators: (e) => e.commentators ?? [],
  created: (e) => contentDate(e.created),
  effective: (e) => contentDate(e.effective),
  end: (e) => contentDate(e.end),
  exclude_from_nav: (e) => e.exclude_from_nav === true,
  expires: (e) => contentDate(e.expires),
  getIcon: () => false,
  hasPreviewImage: () => false,
  head_title: () => null,
  getId: (e) => e.id,
  getObjSize: (e) => humanSize(e.object_size ?? 0),
  getPath: (e) => e.path,
  getRemoteUrl: (e) => e.remote_url || null,
  getURL: (e, publicUrl) => urlOfEntry(publicUrl, e),
  id: (e) => e.id,
  image_field: (e) => e.image_field ?? '',
  image_scales: (e) => e.image_scales ?? null,
  is_folderish: (e) => e.is_folderish,
  language: (e) => e.language ?? '',
  last_comment_date: (e) => contentDate(e.last_comment_date),
  listCreators: (e) => e.creators,
  location: (e) => e.location ?? '',
  mime_type: (e) => e.mime_type || 'text/plain',
  modified: (e) => contentDate(e.modified),
  nav_title: () => null,
  portal_type: (e) => e.portal_type,
  review_state: (e) => e.review_state,
  start: (e) => contentDate(e.start),
  sortable_title: (e) => e.sortable_title,
  total_comments: (e) => e.total_comments ?? 0,
};

/**
 * The columns `metadata_fields` names, `_all` expanded. A column the catalog does not keep is left out, as the
 * original platform does (clients ask for columns of add-ons a site may lack).
 */
export function requestedColumns(fields: readonly string[]): string[] {
  if (fields.includes('_all')) return Object.keys(COLUMNS);
  return [...new Set(fields)].filter((f) => Object.prototype.hasOwnProperty.call(COLUMNS, f));
}

/** A result item's summary form (the specification's Search result item), with the requested columns. */
export function resultItem(entry: CatalogEntry, publicUrl: string, columns: readonly string[]) {
  const item: Record<string, unknown> = {
    '@id': urlOfEntry(publicUrl, entry),
    '@type': entry.portal_type,
    description: entry.description,
    review_state: entry.review_state,
    title: entry.title,
    type_title: entry.type_title,
  };
  for (const column of columns) item[column] = jsonValue(column, COLUMNS[column](entry, publicUrl));
  return item;
}

const CONVERSATION = '/++conversation++default/';

/** An entry's URL; a comment's keeps `++conversation++` unencoded, the path the moderation panel posts to. */
function urlOfEntry(publicUrl: string, entry: CatalogEntry): string {
  const at = entry.path.lastIndexOf(CONVERSATION);
  if (at < 0) return urlOf(publicUrl, entry.path);
  const contentPath = entry.path.slice(0, at) || '/';
  return `${urlOf(publicUrl, contentPath)}${CONVERSATION}${encodeURIComponent(entry.path.slice(at + CONVERSATION.length))}`;
}

/**
 * The specification's conversion error for a column whose value cannot be made JSON. Every column above is made
 * of the entry's stored JSON fields, so none fails today; this keeps a future one from crashing the answer or
 * vanishing from it silently.
 */
function jsonValue(column: string, value: unknown): unknown {
  if (isJson(value)) return value;
  throw new AppError('InternalServerError', `No converter for making the value of ${column} JSON compatible`);
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as Record<string, unknown>).every(isJson);
  }
  return false;
}

/** Sizes as the original platform shows them (`0 KB`, `1.2 MB`). */
function humanSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}
