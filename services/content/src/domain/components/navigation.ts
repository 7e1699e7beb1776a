import type { NavDoc } from '../content/model';
import type { ComponentScope } from './scope';
import { excludedFromNav, loadTree, MAX_TREE_LEVELS } from './tree';

/** Deepest `expand.navigation.depth` accepted: each level is one query over every folder of the level above. */
export const MAX_NAVIGATION_DEPTH = MAX_TREE_LEVELS;

/** Types whose listing links go to their `/view` (the reference's `types_use_view_action_in_listings`). */
const VIEW_ACTION_TYPES = new Set(['File', 'Image']);

/**
 * `@navigation`: `Home` and the top level of the site, with `depth - 1` further levels below each, of the types
 * the site displays in its navigation (`displayedTypes`). Items hidden from navigation stay out, unless the context
 * is one of them or inside one (so the way to it stays visible).
 */
export async function navigation(scope: ComponentScope, depth: number, displayedTypes: readonly string[]) {
  const root = await scope.root();
  const inPath = new Set([...scope.doc.ancestors, scope.doc._id]);
  const displayed = new Set(displayedTypes);
  const shown = (doc: NavDoc) => displayed.has(doc.portal_type) && (!excludedFromNav(doc) || inPath.has(doc._id));
  const tabs = (await scope.rootChildren()).filter(shown);
  const below =
    depth > 1
      ? await loadTree(
          scope,
          tabs.filter((doc) => scope.isFolderish(doc)).map((doc) => doc._id),
          depth - 1,
          shown,
        )
      : new Map<string, NavDoc[]>();

  const entry = (doc: NavDoc, nested: boolean): Record<string, unknown> => ({
    '@id': scope.url(doc),
    description: doc.description,
    items: (below.get(doc._id) ?? []).map((child) => entry(child, true)),
    review_state: doc.review_state,
    title: doc.title,
    // The reference adds it below the top level only (the top level comes from its tabs).
    ...(nested ? { use_view_action_in_listings: VIEW_ACTION_TYPES.has(doc.portal_type) } : {}),
  });

  const home = { '@id': scope.url(root), description: '', items: [], review_state: null, title: 'Home' };
  return {
    '@id': `${scope.url(scope.doc)}/@navigation`,
    items: [home, ...tabs.map((doc) => entry(doc, false))],
  };
}
