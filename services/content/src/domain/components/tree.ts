import type { ContentDoc } from '../model';
import type { ContentRepository } from '../repository';
import { CONTENT_TYPES } from '../types';

/** What navigation listings read of an object. */
export type NavDoc = Pick<
  ContentDoc,
  '_id' | 'path' | 'id' | 'title' | 'description' | 'review_state' | 'portal_type' | 'parent_uid' | 'position'
> & { fields?: { exclude_from_nav?: unknown; remoteUrl?: unknown } };

/** Levels walked when a tree is asked for without a limit; one query per level, so this bounds the cost. */
export const MAX_TREE_LEVELS = 10;

export function isFolderish(doc: Pick<ContentDoc, 'portal_type'>): boolean {
  // A type removed from the site is shown as a plain item rather than failing the whole listing.
  return CONTENT_TYPES[doc.portal_type]?.folderish ?? false;
}

/** `exclude_from_nav` (behavior cms.excludefromnavigation), stored with the other schema fields. */
export function excludedFromNav(doc: { fields?: unknown }): boolean {
  const fields = doc.fields as { exclude_from_nav?: unknown } | undefined;
  return fields?.exclude_from_nav === true;
}

/**
 * The visible objects below `parentUids`, `levels` deep, by parent UID in folder order. One query per level
 * for all the folders of that level; `keep` drops children (with everything below them).
 */
export async function loadTree(
  repo: ContentRepository,
  parentUids: string[],
  viewerTokens: string[],
  levels: number,
  keep: (doc: NavDoc) => boolean,
): Promise<Map<string, NavDoc[]>> {
  const byParent = new Map<string, NavDoc[]>();
  let parents = parentUids;
  for (let level = 0; level < levels && parents.length > 0; level++) {
    const next: string[] = [];
    for (const child of await repo.visibleChildrenOf(parents, viewerTokens)) {
      if (!child.parent_uid || !keep(child)) continue;
      const siblings = byParent.get(child.parent_uid);
      if (siblings) siblings.push(child);
      else byParent.set(child.parent_uid, [child]);
      if (isFolderish(child)) next.push(child._id);
    }
    parents = next;
  }
  return byParent;
}
