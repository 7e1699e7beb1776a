import type { EndpointDeclaration } from '@cms/shared';
import { using } from './declarations';
import type { ComponentName } from './expansion';

const { endpoint, operation } = using('expansion');

/**
 * `GET <context>/@<component>`: one component of `@components`, as `?expand=<component>` embeds it; its
 * options come as `expand.<component>.<option>` parameters (expansion.ts). `caching`: how its answers are cached.
 */
export function componentEndpoint(
  name: ComponentName,
  summary: string,
  caching: Pick<EndpointDeclaration, 'cache' | 'gatewayCache'> = {},
) {
  return endpoint({
    name,
    service: 'content',
    context: 'content',
    ...caching,
    operations: {
      GET: operation({
        summary,
        permission: 'View',
        handle: async (call, { expansion }) => ({
          status: 200,
          body: await expansion.expand(name, call, call.context),
        }),
      }),
    },
  });
}
