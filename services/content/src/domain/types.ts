/**
 * Content types of the site. The walking skeleton carries the two that make a
 * tree (Folder, Document) and the site root.
 */
export interface ContentType {
  name: string;
  /** Human-readable name (`type_title`). */
  title: string;
  folderish: boolean;
  /** Default view name (`layout`). */
  layout: string;
  /** Whether the type has a workflow (`review_state` null otherwise). */
  workflow: boolean;
  /** Whether users may add it (the site root is created by the system). */
  addable: boolean;
}

export const SITE_ROOT_TYPE = 'Site Root';

export const CONTENT_TYPES: Readonly<Record<string, ContentType>> = {
  [SITE_ROOT_TYPE]: {
    name: SITE_ROOT_TYPE,
    title: 'Site Root',
    folderish: true,
    layout: 'document_view',
    workflow: false,
    addable: false,
  },
  Folder: { name: 'Folder', title: 'Folder', folderish: true, layout: 'listing_view', workflow: true, addable: true },
  Document: {
    name: 'Document',
    title: 'Page',
    folderish: false,
    layout: 'document_view',
    workflow: true,
    addable: true,
  },
};

export const ADDABLE_TYPES = Object.values(CONTENT_TYPES)
  .filter((t) => t.addable)
  .map((t) => t.name) as [string, ...string[]];

export function contentType(name: string): ContentType {
  const type = CONTENT_TYPES[name];
  if (!type) throw new Error(`unknown content type ${name}`);
  return type;
}

/** The state new content starts in (simple_publication_workflow). */
export const INITIAL_STATE = 'private';
