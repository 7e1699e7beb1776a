import { notFound, urlOf, type EndpointTable, type RequestContext } from '@cms/shared';
import { authorize } from '../domain/access';
import type { ContentCommands } from '../domain/content-commands';
import type { ComponentName, Components } from './components';

/** The components served on their own at `<context>/@<name>` (`@workflow` has its own endpoint). */
const STANDALONE = [
  'actions',
  'aliases',
  'breadcrumbs',
  'contextnavigation',
  'navigation',
  'navroot',
  'types',
] as const satisfies readonly ComponentName[];

/** `GET <context>/@<component>`: the component as `?expand=<component>` embeds it. */
export function componentEndpoints(content: ContentCommands, components: Components): EndpointTable {
  const endpoint = (name: ComponentName) => ({
    GET: async (ctx: RequestContext) => {
      if (ctx.request.sub_path.length > 0) {
        const url = `${urlOf(ctx.publicUrl, ctx.contextPath)}/@${name}/${ctx.request.sub_path.join('/')}`;
        throw notFound(`Resource not found: ${url}`);
      }
      const doc = await content.find(ctx.contextPath, ctx.publicUrl);
      authorize(ctx.principal, 'View', doc);
      return { status: 200, body: await components.expand(name, ctx, doc) };
    },
  });
  return Object.fromEntries(STANDALONE.map((name) => [name, endpoint(name)]));
}
