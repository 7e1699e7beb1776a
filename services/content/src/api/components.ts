import type { RequestContext } from '@cms/shared';
import { urlOf } from '@cms/shared';
import type { ContentDoc } from '../domain/model';

/** Components every content response names in `@components`; `?expand=` embeds them. */
export const COMPONENT_NAMES = [
  'actions',
  'aliases',
  'breadcrumbs',
  'contextnavigation',
  'navigation',
  'navroot',
  'types',
  'workflow',
] as const;

/** Builds the `@components` member of a content response. */
export interface ComponentExpander {
  componentsOf(ctx: RequestContext, doc: ContentDoc): Promise<Record<string, unknown>>;
}

/** Unexpanded form: `{@id}` per component. */
export const linkOnlyComponents: ComponentExpander = {
  async componentsOf(ctx, doc) {
    const base = urlOf(ctx.publicUrl, doc.path ?? '/');
    return Object.fromEntries(COMPONENT_NAMES.map((name) => [name, { '@id': `${base}/@${name}` }]));
  },
};
