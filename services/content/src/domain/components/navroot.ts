import type { ContentDoc } from '../content/model';
import type { ComponentScope } from './scope';

/** Members of a full serialization that the embedded navigation root leaves out (as the reference does). */
const NOT_EMBEDDED = ['@components', 'items', 'items_total', 'batching'];

/** `@navroot`: the navigation root of the context, serialized in full by `render`. */
export async function navroot(scope: ComponentScope, render: (root: ContentDoc) => Promise<Record<string, unknown>>) {
  const body = { ...(await render(await scope.root())) };
  for (const member of NOT_EMBEDDED) delete body[member];
  return { '@id': `${scope.url(scope.doc)}/@navroot`, navroot: body };
}
