import type { ComponentScope } from './scope';

/** `@breadcrumbs`: the path from below the navigation root down to the context, what the caller may see of it. */
export async function breadcrumbs(scope: ComponentScope) {
  const root = await scope.root();
  const above = (await scope.ancestors()).filter((doc) => doc._id !== root._id && scope.canSee(doc));
  const trail = scope.doc._id === root._id ? above : [...above, scope.doc];
  return {
    '@id': `${scope.url(scope.doc)}/@breadcrumbs`,
    items: trail.map((doc) => ({ '@id': scope.url(doc), title: doc.title })),
    root: scope.url(root),
  };
}
