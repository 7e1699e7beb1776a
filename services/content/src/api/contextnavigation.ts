/** `@contextnavigation`: the navigation tree of the section the context is in. */
import { componentEndpoint } from './component-endpoint';

export const contextnavigation = componentEndpoint(
  'contextnavigation',
  'The navigation tree of the section the context is in',
  { cache: 'listing', gatewayCache: 'tree' },
);
