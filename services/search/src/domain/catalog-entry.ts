import type { ContentSnapshot, Document } from '@cms/shared';
import { normalise, words } from './text';

/** One object as the catalog holds it. `_id` is the UID. */
export interface CatalogEntry extends Document {
  _id: string;
  version: number;
  /** Removed content stays as a tombstone so a late, older event cannot bring it back. */
  deleted?: boolean;
  path: string;
  /** The path and each of its ancestors' paths, for `path.query` by index. */
  path_parents: string[];
  depth: number;
  id: string;
  portal_type: string;
  type_title: string;
  title: string;
  sortable_title: string;
  description: string;
  review_state: string | null;
  created: string;
  modified: string;
  creators: string[];
  position: number;
  is_folderish: boolean;
  words: string[];
  /** Catalog columns and indexes beyond the core (optional: entries written before they existed lack them). */
  subjects?: string[];
  effective?: string | null;
  expires?: string | null;
  start?: string | null;
  end?: string | null;
  exclude_from_nav?: boolean;
  language?: string;
  remote_url?: string;
  object_size?: number;
  mime_type?: string;
  location?: string;
  /** The catalog's `image_field` and `image_scales` (content's, downloads relative to the object); unset: none. */
  image_field?: string;
  image_scales?: Record<string, unknown> | null;
  /** Words of the title and of the description, for the `Title` and `Description` text indexes. */
  title_words?: string[];
  description_words?: string[];
  /** On a `Discussion Item` entry: the content object it is on, and its moderation state there. */
  content_uid?: string;
  /** On a content entry: its published comments (kept by the comment events, never by content's). */
  total_comments?: number;
  last_comment_date?: string | null;
  commentators?: string[];
  /** Who may find it: role names and `user:<id>` tokens. */
  allowed: string[];
  /** When this entry was last written, for telling a reindex's leftovers from fresh entries. */
  indexed_at: string;
}

export const REMOVED_VERSION = Number.MAX_SAFE_INTEGER;

export function pathParents(path: string): string[] {
  if (path === '/') return ['/'];
  const segments = path.split('/').slice(1);
  return ['/', ...segments.map((_, i) => '/' + segments.slice(0, i + 1).join('/'))];
}

export function depthOf(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/** The catalog entry of a snapshot, as content events carry it and ContentService.Scan returns it. */
export function entryFrom(snapshot: ContentSnapshot, indexedAt: string): CatalogEntry {
  return {
    _id: snapshot.uid,
    version: snapshot.version,
    path: snapshot.path,
    path_parents: pathParents(snapshot.path),
    depth: depthOf(snapshot.path),
    id: snapshot.id,
    portal_type: snapshot.portal_type,
    type_title: snapshot.type_title,
    title: snapshot.title,
    sortable_title: normalise(snapshot.title),
    description: snapshot.description,
    review_state: snapshot.review_state ?? null,
    created: snapshot.created,
    modified: snapshot.modified,
    creators: snapshot.creators,
    position: snapshot.position,
    is_folderish: snapshot.is_folderish,
    words: words(snapshot.searchable_text),
    subjects: snapshot.subjects ?? [],
    effective: instant(snapshot.effective),
    expires: instant(snapshot.expires),
    start: instant(snapshot.start),
    end: instant(snapshot.end),
    exclude_from_nav: snapshot.exclude_from_nav === true,
    language: snapshot.language ?? '',
    remote_url: snapshot.remote_url ?? '',
    object_size: Number(snapshot.object_size ?? 0) || 0,
    mime_type: snapshot.mime_type ?? '',
    location: snapshot.location ?? '',
    image_field: snapshot.image_field ?? '',
    image_scales: jsonObject(snapshot.image_scales_json),
    title_words: words(snapshot.title),
    description_words: words(snapshot.description),
    allowed: snapshot.allowed_roles_and_users,
    indexed_at: indexedAt,
  };
}

/** A snapshot's JSON member as an object; null when empty or not an object (the entry indexes all the same). */
function jsonObject(json: string | undefined): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** An ISO-8601 instant in one form (`toISOString`), so that dates compare as strings; null when none or invalid. */
export function instant(value: string | null | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
