import { aliasEntriesOf, aliasListItem } from '../tree/aliases';
import type { ComponentScope } from './scope';

/**
 * `@aliases`: the site-relative paths the object had before it was moved or renamed, each with when and how it was
 * made and where it leads, as the site-wide list and the original platform show them.
 */
export function aliases(scope: ComponentScope) {
  const items = aliasEntriesOf(scope.doc).map(aliasListItem);
  return { '@id': `${scope.url(scope.doc)}/@aliases`, items, items_total: items.length };
}
