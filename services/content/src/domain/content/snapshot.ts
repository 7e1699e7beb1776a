import type { ContentSnapshot } from '@cms/shared';
import { searchableText, storedValue } from './field-values';
import { asFileValue, PRIMARY_FILE_FIELD } from '../files/files';
import { DEFAULT_SIZES, imageJson, type ScaleSize } from '../files/image-scales';
import type { ContentDoc } from './model';
import { builtinTypeRegistry, type ContentType, type TypeRegistry } from '../types';

/**
 * The registry `snapshot` reads types from. Its signature has no room for one, so the service binds its
 * registry here at start (`bindSnapshotTypes`); until then (unit tests), the built-in types.
 */
let snapshotTypes: TypeRegistry | undefined;

export function bindSnapshotTypes(types: TypeRegistry): void {
  snapshotTypes = types;
}

/**
 * The image sizes the catalog's `image_scales` lists, bound the same way (`bindSnapshotScaleSizes`: the site's
 * `allowed_sizes` as last read); until then, the default sizes. An entry keeps the sizes of when it was indexed,
 * as the original's catalog does, until the object is written again or reindexed.
 */
let snapshotScaleSizes: () => readonly ScaleSize[] = () => DEFAULT_SIZES;

export function bindSnapshotScaleSizes(current: () => readonly ScaleSize[]): void {
  snapshotScaleSizes = current;
}

function contentType(name: string): ContentType {
  snapshotTypes ??= builtinTypeRegistry();
  return snapshotTypes.get(name);
}

/**
 * The snapshots made, by the stored object they were made of and the type and sizes they were made with: one write's
 * events and its answer ask for the same one, and its full text means parsing the page's blocks (megabytes of
 * JSON for a large page). Stored objects are never changed in place (a write makes a new one).
 */
const made = new WeakMap<ContentDoc, { type: ContentType; sizes: readonly ScaleSize[]; snapshot: ContentSnapshot }>();

/** What events and look-ups carry of an object (cms.events.v1.ContentSnapshot: unset, not null, when none). */
export function snapshot(doc: ContentDoc): ContentSnapshot {
  const type = contentType(doc.portal_type);
  const sizes = snapshotScaleSizes();
  const known = made.get(doc);
  if (known?.type === type && known.sizes === sizes) return known.snapshot;
  const fresh = snapshotWith(doc, type, sizes);
  made.set(doc, { type, sizes, snapshot: fresh });
  return fresh;
}

function snapshotWith(doc: ContentDoc, type: ContentType, sizes: readonly ScaleSize[]): ContentSnapshot {
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
    ...catalogColumns(doc, type, sizes),
  };
}

/** Values only some types have, for the catalog's metadata columns (`metadata_fields`). */
function catalogColumns(doc: ContentDoc, type: ContentType, sizes: readonly ScaleSize[]) {
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
    ...catalogImages(doc, type, sizes),
  };
}

/** The image field listings show, in the original's order of preference (it has no `preview_image_link` here). */
const LISTING_IMAGE_FIELDS = ['preview_image', 'image'];

/** The catalog's `image_field` and `image_scales`: every image field that holds an image, URLs relative to it. */
function catalogImages(doc: ContentDoc, type: ContentType, sizes: readonly ScaleSize[]) {
  const images = type.fields.flatMap((field) => {
    const value = field.kind === 'image' ? asFileValue(storedValue(doc, field.name)) : null;
    return value ? [[field.name, [imageJson(value, '@@images', field.name, sizes)]] as const] : [];
  });
  if (images.length === 0) return { image_field: '', image_scales_json: '' };
  const held = new Set(images.map(([name]) => name));
  return {
    image_field: LISTING_IMAGE_FIELDS.find((name) => held.has(name)) ?? '',
    image_scales_json: JSON.stringify(Object.fromEntries(images)),
  };
}

/** A Collection's query settings, for `@querystring-search` on it. */
function collectionJson(doc: ContentDoc): string {
  const { query = null, sort_on = null, sort_reversed = null, limit = null } = doc.fields ?? {};
  return JSON.stringify({ query, sort_on, sort_reversed, limit });
}
