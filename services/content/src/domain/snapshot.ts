import type { ContentSnapshot } from '@cms/shared';
import { searchableText } from './field-values';
import { asFileValue, PRIMARY_FILE_FIELD } from './files';
import type { ContentDoc } from './model';
import { builtinTypeRegistry, type ContentType, type TypeRegistry } from './types';

/**
 * The registry `snapshot` reads types from. Its signature has no room for one, so the service binds its
 * registry here at start (`bindSnapshotTypes`); until then (unit tests), the built-in types.
 */
let snapshotTypes: TypeRegistry | undefined;

export function bindSnapshotTypes(types: TypeRegistry): void {
  snapshotTypes = types;
}

function contentType(name: string): ContentType {
  snapshotTypes ??= builtinTypeRegistry();
  return snapshotTypes.get(name);
}

/**
 * The snapshots made, by the stored object they were made of and the type they were made with: one write's
 * events and its answer ask for the same one, and its full text means parsing the page's blocks (megabytes of
 * JSON for a large page). Stored objects are never changed in place (a write makes a new one).
 */
const made = new WeakMap<ContentDoc, { type: ContentType; snapshot: ContentSnapshot }>();

/** What events and look-ups carry of an object (cms.events.v1.ContentSnapshot: unset, not null, when none). */
export function snapshot(doc: ContentDoc): ContentSnapshot {
  const type = contentType(doc.portal_type);
  const known = made.get(doc);
  if (known?.type === type) return known.snapshot;
  const fresh = snapshotWith(doc, type);
  made.set(doc, { type, snapshot: fresh });
  return fresh;
}

function snapshotWith(doc: ContentDoc, type: ContentType): ContentSnapshot {
  const subjects = doc.fields?.subjects;
  const language = doc.fields?.language;
  return {
    uid: doc._id,
    path: doc.path ?? '',
    id: doc.id,
    portal_type: doc.portal_type,
    type_title: type.title,
    title: doc.title,
    description: doc.description,
    review_state: doc.review_state ?? undefined,
    version: doc.version,
    created: doc.created,
    modified: doc.modified,
    creators: doc.creators,
    parent_uid: doc.parent_uid ?? '',
    is_folderish: type.folderish,
    position: doc.position,
    searchable_text: searchableText(doc, type),
    allowed_roles_and_users: doc.allowed ?? [],
    subjects: Array.isArray(subjects) ? (subjects as string[]) : [],
    effective: doc.effective ?? undefined,
    expires: doc.expires ?? undefined,
    exclude_from_nav: doc.fields?.exclude_from_nav === true,
    language: typeof language === 'string' ? language : '',
    ...catalogColumns(doc, type),
  };
}

/** Values only some types have, for the catalog's metadata columns (`metadata_fields`). */
function catalogColumns(doc: ContentDoc, type: ContentType) {
  const text = (name: string) => (typeof doc.fields?.[name] === 'string' ? (doc.fields[name] as string) : '');
  const primary = PRIMARY_FILE_FIELD[doc.portal_type];
  const file = primary ? asFileValue(doc.fields?.[primary]) : null;
  return {
    start: text('start') || undefined,
    end: text('end') || undefined,
    remote_url: text('remoteUrl'),
    object_size: String(typeof file?.size === 'number' ? file.size : 0),
    mime_type: typeof file?.content_type === 'string' ? file.content_type : '',
    location: text('location'),
    collection_json: type.behaviors.includes('cms.collection') ? collectionJson(doc) : '',
  };
}

/** A Collection's query settings, for `@querystring-search` on it. */
function collectionJson(doc: ContentDoc): string {
  const { query = null, sort_on = null, sort_reversed = null, limit = null } = doc.fields ?? {};
  return JSON.stringify({ query, sort_on, sort_reversed, limit });
}
