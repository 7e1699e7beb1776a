import type { NavDoc } from '../content/model';
import type { ComponentScope } from './scope';

/** Levels walked when a tree is asked for without a limit; one query per level, so this bounds the cost. */
export const MAX_TREE_LEVELS = 10;

/** `exclude_from_nav` (behavior cms.excludefromnavigation), stored with the other schema fields. */
export function excludedFromNav(doc: { fields?: unknown }): boolean {
  const fields = doc.fields as { exclude_from_nav?: unknown } | undefined;
  return fields?.exclude_from_nav === true;
}

/**
 * The objects the caller may see below `parentUids`, `levels` deep, by parent UID in folder order. One query per level
 * for all the folders of that level; `keep` drops children (with everything below them).
 */
export async function loadTree(
  scope: ComponentScope,
  parentUids: string[],
  levels: number,
  keep: (doc: NavDoc) => boolean,
): Promise<Map<string, NavDoc[]>> {
  const byParent = new Map<string, NavDoc[]>();
  let parents = parentUids;
  for (let level = 0; level < levels && parents.length > 0; level++) {
    const next: string[] = [];
    for (const child of await scope.repo.visibleChildrenOf(parents, scope.tokens)) {
      if (!child.parent_uid || !keep(child)) continue;
      const siblings = byParent.get(child.parent_uid);
      if (siblings) siblings.push(child);
      else byParent.set(child.parent_uid, [child]);
      if (scope.isFolderish(child)) next.push(child._id);
    }
    parents = next;
  }
  return byParent;
}
