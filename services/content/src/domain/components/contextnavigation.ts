import type { ContentDoc, NavDoc } from '../content/model';
import { SITE_ROOT_TYPE } from '../types';
import type { ComponentScope } from './scope';
import { excludedFromNav, loadTree, MAX_TREE_LEVELS } from './tree';

/** The settings of the reference's navigation portlet, given as `expand.contextnavigation.<name>` parameters. */
export interface ContextNavigationOptions {
  /** Title of the tree; `Navigation` when empty. */
  name: string;
  /** Site-relative path of the folder the tree starts from (instead of the navigation root). */
  root_path?: string;
  /** Whether the start folder itself is the first item. */
  includeTop: boolean;
  /** Only the current folder and what is below it. */
  currentFolderOnly: boolean;
  /** Levels below the root that the context must be in for the tree to show (1: inside top-level folders). */
  topLevel: number;
  /** Levels shown; 0 is no limit (bounded by MAX_TREE_LEVELS), below 0 shows no items. */
  bottomLevel: number;
}

export const DEFAULT_CONTEXT_NAVIGATION: ContextNavigationOptions = {
  name: '',
  includeTop: false,
  currentFolderOnly: false,
  topLevel: 1,
  bottomLevel: 0,
};

/** Lower-case words joined by `-`, as the reference normalizes type names and titles for CSS classes. */
function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * `@contextnavigation`: the tree of the section the context is in (the navigation portlet), or of the folder
 * the options name; items the caller may not see or that are hidden from navigation are left out, except the
 * ones on the way to the context.
 */
export async function contextNavigation(scope: ComponentScope, options: ContextNavigationOptions) {
  const root = await scope.root();
  const chain = await scope.chain();
  const start = await startFolder(scope, chain, options);
  const custom = options.root_path !== undefined || options.currentFolderOnly;
  const body = {
    '@id': `${scope.url(scope.doc)}/@contextnavigation`,
    available: false,
    has_custom_name: options.name !== '',
    items: [] as Record<string, unknown>[],
    title: options.name || 'Navigation',
    url: !custom || start?._id === root._id ? `${scope.url(root)}/sitemap` : start ? scope.url(start) : null,
  };
  if (!start) return body;

  const inPath = new Set(chain.map((doc) => doc._id));
  const levels = options.bottomLevel === 0 ? MAX_TREE_LEVELS : Math.max(options.bottomLevel, 0);
  const tree = await loadTree(scope, [start._id], levels, (doc) => {
    return !excludedFromNav(doc) || inPath.has(doc._id);
  });

  const item = (doc: NavDoc): Record<string, unknown> => {
    const url = scope.url(doc);
    const remote = doc.portal_type === 'Link' ? doc.fields?.remoteUrl : undefined;
    return {
      '@id': url,
      description: doc.description,
      href: typeof remote === 'string' && remote ? remote : url,
      icon: '',
      is_current: doc._id === scope.doc._id,
      is_folderish: scope.isFolderish(doc),
      is_in_path: doc._id !== scope.doc._id && inPath.has(doc._id),
      items: (tree.get(doc._id) ?? []).map(item),
      normalized_id: doc.id,
      review_state: doc.review_state ?? '',
      thumb: '',
      title: doc.title,
      type: normalized(doc.portal_type),
    };
  };

  const children = (tree.get(start._id) ?? []).map(item);
  body.available = options.bottomLevel < 0 || children.length > 0;
  if (!body.available) return body;
  if (options.includeTop) body.items.push(topItem(scope, start, start._id === root._id));
  body.items.push(...children);
  return body;
}

/** The folder the tree starts from, or null where the tree does not show (the reference's getRootPath). */
async function startFolder(
  scope: ComponentScope,
  chain: ContentDoc[],
  options: ContextNavigationOptions,
): Promise<ContentDoc | null> {
  if (options.currentFolderOnly) {
    return scope.isFolderish(scope.doc) || chain.length < 2 ? scope.doc : chain[chain.length - 2];
  }
  let base = chain[0];
  if (options.root_path !== undefined && options.root_path !== '' && options.root_path !== '/') {
    const path = options.root_path.startsWith('/') ? options.root_path : `/${options.root_path}`;
    // A root that does not exist (or may not be seen) falls back to the navigation root, as in the reference.
    const named = await scope.repo.byPath(path);
    if (named && scope.canSee(named)) base = named;
  }
  if (options.topLevel <= 0) return base;
  const at = chain.findIndex((doc) => doc._id === base._id);
  if (at < 0 || chain.length - 1 - at < options.topLevel) return null;
  return chain[at + options.topLevel];
}

function topItem(scope: ComponentScope, start: ContentDoc, isRoot: boolean): Record<string, unknown> {
  const url = scope.url(start);
  return {
    '@id': url,
    description: start.description,
    href: url,
    icon: '',
    is_current: start._id === scope.doc._id,
    is_folderish: true,
    is_in_path: true,
    items: [],
    normalized_id: normalized(start.title),
    review_state: isRoot ? '' : (start.review_state ?? ''),
    thumb: '',
    title: isRoot ? 'Home' : start.title,
    type: normalized(isRoot ? SITE_ROOT_TYPE : start.portal_type),
  };
}
