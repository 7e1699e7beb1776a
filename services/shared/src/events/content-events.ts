/**
 * Events of the content area (documented in proto/EVENTS.md). Each carries
 * what the search index needs, so consumers never call back for ordinary
 * updates, and the object's version, so consumers apply them idempotently:
 * an event whose version is not newer than what a consumer holds is skipped.
 */

/** The indexable state of one content object (the same fields as ContentRecord in content.proto). */
export interface ContentSnapshot {
  uid: string;
  path: string;
  id: string;
  portal_type: string;
  type_title: string;
  title: string;
  description: string;
  review_state: string | null;
  version: number;
  created: string;
  modified: string;
  creators: string[];
  parent_uid: string;
  is_folderish: boolean;
  position: number;
  searchable_text: string;
  /** Who may see it: roles and `user:<id>` tokens (see permissions/local-roles.ts). */
  allowed_roles_and_users: string[];
  /** Tags. */
  subjects: string[];
  /** ISO-8601 instants, or null. */
  effective: string | null;
  expires: string | null;
  exclude_from_nav: boolean;
  /** Language code; '' when none. */
  language: string;
}

export interface ContentAdded {
  uid: string;
  version: number;
  snapshot: ContentSnapshot;
}

export interface ContentModified {
  uid: string;
  version: number;
  /** Names of the fields the write changed. */
  changed: string[];
  snapshot: ContentSnapshot;
}

export interface ContentRemoved {
  uid: string;
  version: number;
  path: string;
  /** The object and everything that was inside it. */
  removed_uids: string[];
}

/** The object now lives at another path (moved to another folder, or renamed); one per object of a moved subtree. */
export interface ContentMoved {
  uid: string;
  version: number;
  old_path: string;
  new_path: string;
  old_parent_uid: string;
  new_parent_uid: string;
  snapshot: ContentSnapshot;
}

/** The object's place among its siblings changed (folder re-ordered or re-sorted); one per object whose position changed. */
export interface ContentOrdered {
  uid: string;
  version: number;
  parent_uid: string;
  position: number;
  snapshot: ContentSnapshot;
}

export interface ContentEventPayloads {
  'content.added': ContentAdded;
  'content.modified': ContentModified;
  'content.moved': ContentMoved;
  'content.ordered': ContentOrdered;
  'content.removed': ContentRemoved;
}

export type ContentEventType = keyof ContentEventPayloads;

/** Consumer groups and what they listen to; both bus adapters declare these queues up front. */
export const CONSUMER_GROUPS = [
  { group: 'search', patterns: ['content.#'] },
  // Content drops the local roles of removed users and groups (identity-events.ts).
  { group: 'content', patterns: ['identity.user.removed', 'identity.group.removed'] },
];
