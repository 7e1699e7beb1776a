/** `@navroot`: the navigation root of the context, serialized. */
import { componentEndpoint } from './component-endpoint';

export const navroot = componentEndpoint('navroot', 'The navigation root of the context, serialized', {
  cache: 'content',
  gatewayCache: 'object',
});
