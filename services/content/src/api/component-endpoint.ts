import { endpoint, operation } from './declarations';
import type { ComponentName } from './expansion';

/**
 * `GET <context>/@<component>`: one component of `@components`, as `?expand=<component>` embeds it; its
 * options come as `expand.<component>.<option>` parameters (expansion.ts).
 */
export function componentEndpoint(name: ComponentName, summary: string) {
  return endpoint({
    name,
    service: 'content',
    context: 'content',
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
