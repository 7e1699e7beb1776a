import type { ComponentScope } from './scope';

/** `@aliases`: the site-relative paths the object had before it was moved or renamed. */
export function aliases(scope: ComponentScope) {
  const paths = scope.doc.aliases ?? [];
  return {
    '@id': `${scope.url(scope.doc)}/@aliases`,
    items: paths.map((path) => ({ path })),
    items_total: paths.length,
  };
}
