import type { ComponentScope } from './scope';

/** `@breadcrumbs`: the path from below the navigation root down to the context, what the caller may see of it. */
export async function breadcrumbs(scope: ComponentScope) {
  const root = await scope.root();
  const ancestors = await scope.ancestors();
  // Nothing at or above the navigation root (a language root folder's trail does not pass the site root).
  const below = ancestors.slice(ancestors.findIndex((doc) => doc._id === root._id) + 1);
  const trail = scope.doc._id === root._id ? [] : [...below.filter((doc) => scope.canSee(doc)), scope.doc];
  return {
    '@id': `${scope.url(scope.doc)}/@breadcrumbs`,
    items: trail.map((doc) => ({ '@id': scope.url(doc), title: doc.title })),
    root: scope.url(root),
  };
}
