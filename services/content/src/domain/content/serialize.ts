import { hasPermission, urlOf, type Principal__Output } from '@cms/shared';
import { accessOf } from './access';
import { contentDate } from './dates';
import { storedValue } from './field-values';
import { fileJson, type FileValue } from '../files/files';
import { DEFAULT_SIZES, imageJson, type ScaleSize } from '../files/image-scales';
import { servedLinkFields } from '../relations/links';
import type { ContentDoc } from './model';
import { SITE_ROOT_TYPE, type ContentType, type TypeField, type TypeRegistry } from '../types';
import type { WorkingCopyReferences } from '../working-copies/working-copies';

/** `next_item` / `previous_item`. */
function neighbourSummary(doc: ContentDoc | null, publicUrl: string) {
  if (!doc) return {};
  return {
    '@id': urlOf(publicUrl, doc.path ?? '/'),
    '@type': doc.portal_type,
    description: doc.description,
    title: doc.title,
  };
}

/** Catalog columns a listing adds to each item when asked with `metadata_fields`. */
const METADATA: Record<string, (doc: ContentDoc, type: ContentType) => unknown> = {
  UID: (d) => d._id,
  Creator: (d) => d.creators[0] ?? '',
  Title: (d) => d.title,
  Description: (d) => d.description,
  Type: (_d, type) => type.title,
  Subject: (d) => storedValue(d, 'subjects') ?? [],
  id: (d) => d.id,
  getId: (d) => d.id,
  portal_type: (d) => d.portal_type,
  review_state: (d) => d.review_state,
  created: (d) => contentDate(d.created),
  modified: (d) => contentDate(d.modified),
  CreationDate: (d) => contentDate(d.created),
  ModificationDate: (d) => contentDate(d.modified),
  effective: (d) => (d.effective ? contentDate(d.effective) : null),
  EffectiveDate: (d) => (d.effective ? contentDate(d.effective) : null),
  expires: (d) => (d.expires ? contentDate(d.expires) : null),
  ExpirationDate: (d) => (d.expires ? contentDate(d.expires) : null),
  exclude_from_nav: (d) => storedValue(d, 'exclude_from_nav') === true,
  is_folderish: (_d, type) => type.folderish,
  getObjPositionInParent: (d) => d.position,
  getRemoteUrl: (d) => storedValue(d, 'remoteUrl') ?? null,
  location: (d) => storedValue(d, 'location') ?? null,
  start: (d) => dateOrNull(storedValue(d, 'start')),
  end: (d) => dateOrNull(storedValue(d, 'end')),
};

export interface Listing {
  items: ContentDoc[];
  total: number;
  batching?: Record<string, string>;
  /** Catalog columns to add to each item (`metadata_fields`). */
  metadataFields?: readonly string[];
}

/** What serializing one object needs besides the object. */
export interface SerializeInput {
  publicUrl: string;
  /** Who the response is for: what of the parent it shows depends on it. Absent: an anonymous caller. */
  principal?: Principal__Output | null;
  parent: ContentDoc | null;
  /** Children, for folderish objects. */
  listing?: Listing | null;
  /** Neighbours in the parent, when the parent has next/previous navigation on. */
  neighbours?: { previous: ContentDoc | null; next: ContentDoc | null } | null;
  /** Objects of each relation field that the caller may see, in the field's order. */
  related?: Readonly<Record<string, ContentDoc[]>>;
  /** The `lock` member as `@lock` shows it (unlocked when absent). */
  lock?: Record<string, unknown>;
  /** `working_copy` and `working_copy_of` as `@workingcopy` shows them to the caller (null when absent). */
  workingCopy?: WorkingCopyReferences;
  /** Current site paths of the objects the links of its text and blocks name by UID (links.ts), by UID. */
  linkTargets?: ReadonlyMap<string, string>;
  /** The image scales the site allows (imaging panel, `allowed_sizes`); the defaults when absent. */
  scaleSizes?: readonly ScaleSize[];
  /** `@components` (the expansion's links, render.ts), made the first member; absent: no such member. */
  components?: Record<string, unknown>;
}

/** The JSON forms of content objects, with their types from the registry. */
export class ContentSerializer {
  constructor(private readonly types: TypeRegistry) {}

  /** The summary form used in `items`, `relatedItems` and search results. */
  summary(doc: ContentDoc, publicUrl: string) {
    return {
      '@id': urlOf(publicUrl, doc.path ?? '/'),
      '@type': doc.portal_type,
      description: doc.description,
      review_state: doc.review_state,
      title: doc.title,
      type_title: this.types.get(doc.portal_type).title,
    };
  }

  /** A listing item: the summary plus the requested catalog columns (unknown ones are left out). */
  itemSummary(doc: ContentDoc, publicUrl: string, metadataFields: readonly string[] = []) {
    const item: Record<string, unknown> = this.summary(doc, publicUrl);
    const columns = metadataFields.includes('_all') ? Object.keys(METADATA) : metadataFields;
    const type = this.types.get(doc.portal_type);
    for (const column of columns) if (METADATA[column]) item[column] = METADATA[column](doc, type);
    return item;
  }

  /** The full serialized form of the specification's Content object table, plus the type's own fields. */
  serialize(doc: ContentDoc, input: SerializeInput): Record<string, unknown> {
    const { publicUrl, parent } = input;
    const type = this.types.get(doc.portal_type);
    const isRoot = doc.portal_type === SITE_ROOT_TYPE;
    const url = urlOf(publicUrl, doc.path ?? '/');
    // `@components` is the first member of a GET's answer: put there now, not by copying the whole body after.
    const body: Record<string, unknown> = input.components === undefined ? {} : { '@components': input.components };
    body['@id'] = url;
    body['@type'] = doc.portal_type;
    body.UID = doc._id;
    body.id = doc.id;
    body.is_folderish = type.folderish;
    body.layout = typeof doc.fields?.layout === 'string' ? doc.fields.layout : type.layout;
    body.lock = input.lock ?? { locked: false, stealable: true };
    body.parent = parent ? this.parentSummary(parent, publicUrl, input.principal ?? null) : {};
    body.review_state = doc.review_state;
    body.type_title = type.title;
    body.working_copy = input.workingCopy?.working_copy ?? null;
    body.working_copy_of = input.workingCopy?.working_copy_of ?? null;
    for (const field of type.fields) {
      if (field.name !== 'id') body[field.name] = this.fieldJson(doc, field, url, input);
    }
    // Links stored by UID are served as their targets' current URLs.
    Object.assign(body, servedLinkFields(type, body, input.linkTargets ?? new Map(), publicUrl));
    // The recorded site root has neither dates of its own nor a version or neighbours.
    if (!isRoot) {
      body.created = contentDate(doc.created);
      body.modified = contentDate(doc.modified);
      body.version = 'current';
      body.next_item = neighbourSummary(input.neighbours?.next ?? null, publicUrl);
      body.previous_item = neighbourSummary(input.neighbours?.previous ?? null, publicUrl);
    }
    if (input.listing) {
      const { items, total, batching, metadataFields } = input.listing;
      body.items = items.map((item) => this.itemSummary(item, publicUrl, metadataFields));
      body.items_total = total;
      if (batching) body.batching = batching;
    }
    return body;
  }

  /**
   * `parent`: a summary, with `review_state` only when the parent has a workflow (as recorded). To a caller who
   * may not view the parent (a published page in a private folder), only its `@id`: the object's own URL already
   * holds it, so it tells nothing new, while its title, description, type and state would.
   */
  private parentSummary(doc: ContentDoc, publicUrl: string, principal: Principal__Output | null) {
    if (!hasPermission(principal, 'View', accessOf(doc))) return { '@id': urlOf(publicUrl, doc.path ?? '/') };
    const { review_state, ...rest } = this.summary(doc, publicUrl);
    return review_state === null ? rest : { ...rest, review_state };
  }

  /** One field's value in a response; unset fields show their default. */
  private fieldJson(doc: ContentDoc, field: TypeField, objectUrl: string, input: SerializeInput): unknown {
    const stored = storedValue(doc, field.name);
    if (field.transient) return field.default ?? null;
    if (stored === undefined || stored === null) {
      if (field.kind === 'relationlist') return [];
      if (field.kind === 'multichoice' && Array.isArray(field.default)) return field.default.map((t) => term(field, t));
      return field.default ?? null;
    }
    switch (field.kind) {
      case 'datetime':
        return dateOrNull(stored);
      case 'choice':
        return term(field, stored);
      case 'multichoice':
        return Array.isArray(stored) ? stored.map((t) => term(field, t)) : [];
      case 'file':
      case 'image':
        return field.kind === 'image'
          ? imageJson(stored as FileValue, `${objectUrl}/@@images`, field.name, input.scaleSizes ?? DEFAULT_SIZES)
          : fileJson(stored as FileValue, objectUrl, field.name);
      case 'relationlist':
        return (input.related?.[field.name] ?? []).map((d) => this.summary(d, input.publicUrl));
      case 'json':
        return typeof stored === 'string' ? JSON.parse(stored) : stored;
      default:
        return stored;
    }
  }
}

function dateOrNull(value: unknown): string | null {
  return typeof value === 'string' ? contentDate(value) : null;
}

/** A term `{title, token}` when the token is one of the field's choices, else the value as stored. */
function term(field: TypeField, token: unknown) {
  const choice = field.choices?.find(([t]) => t === token);
  return choice ? { title: choice[1], token: choice[0] } : token;
}
