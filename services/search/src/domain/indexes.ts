/**
 * The catalog's indexes as queries name them, and the entry field each reads. `@search` parameters and
 * query-builder criteria are translated through this one table, so both know the same indexes.
 */
import type { TextField } from './text';

export type IndexKind = 'text' | 'field' | 'keyword' | 'date' | 'boolean' | 'int' | 'path';

export type IndexDef = { field: TextField; kind: 'text' } | { field: string; kind: Exclude<IndexKind, 'text'> };

export const INDEXES: Readonly<Record<string, IndexDef>> = {
  SearchableText: { field: 'words', kind: 'text' },
  Title: { field: 'title_words', kind: 'text' },
  Description: { field: 'description_words', kind: 'text' },
  Subject: { field: 'subjects', kind: 'keyword' },
  portal_type: { field: 'portal_type', kind: 'field' },
  review_state: { field: 'review_state', kind: 'field' },
  Creator: { field: 'creators', kind: 'keyword' },
  UID: { field: '_id', kind: 'field' },
  getId: { field: 'id', kind: 'field' },
  id: { field: 'id', kind: 'field' },
  Language: { field: 'language', kind: 'field' },
  sortable_title: { field: 'sortable_title', kind: 'field' },
  created: { field: 'created', kind: 'date' },
  modified: { field: 'modified', kind: 'date' },
  effective: { field: 'effective', kind: 'date' },
  expires: { field: 'expires', kind: 'date' },
  start: { field: 'start', kind: 'date' },
  end: { field: 'end', kind: 'date' },
  is_folderish: { field: 'is_folderish', kind: 'boolean' },
  isFolderish: { field: 'is_folderish', kind: 'boolean' },
  exclude_from_nav: { field: 'exclude_from_nav', kind: 'boolean' },
  /** No object is a folder's default page yet. */
  is_default_page: { field: 'is_default_page', kind: 'boolean' },
  getObjPositionInParent: { field: 'position', kind: 'int' },
  path: { field: 'path_parents', kind: 'path' },
};

/** Sort indexes and the entry field each sorts on. */
export const SORT_FIELDS: Readonly<Record<string, string>> = {
  path: 'path',
  sortable_title: 'sortable_title',
  getId: 'id',
  id: 'id',
  Creator: 'creators',
  created: 'created',
  modified: 'modified',
  effective: 'effective',
  expires: 'expires',
  start: 'start',
  end: 'end',
  getObjPositionInParent: 'position',
  portal_type: 'portal_type',
  review_state: 'review_state',
  Title: 'sortable_title',
};

/** The index a query names, or undefined (names such as `constructor` are not indexes). */
export function indexNamed(name: string): IndexDef | undefined {
  return Object.prototype.hasOwnProperty.call(INDEXES, name) ? INDEXES[name] : undefined;
}

/** The entry field a sort index sorts on, or undefined. */
export function sortFieldOf(name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(SORT_FIELDS, name) ? SORT_FIELDS[name] : undefined;
}
