/** `@breadcrumbs`: the path from the navigation root to the context. */
import { componentEndpoint } from './component-endpoint';

export const breadcrumbs = componentEndpoint('breadcrumbs', 'The path from the navigation root to the context', {
  cache: 'content',
  gatewayCache: 'object',
});
