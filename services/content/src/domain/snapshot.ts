import type { ContentSnapshot } from '@cms/shared';
import { searchableText } from './field-values';
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

/** What events and look-ups carry of an object (cms.events.v1.ContentSnapshot: unset, not null, when none). */
export function snapshot(doc: ContentDoc): ContentSnapshot {
  const type = contentType(doc.portal_type);
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
  };
}
