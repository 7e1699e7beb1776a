/** `@navigation`: the site's top-level navigation (`expand.navigation.depth` levels). */
import { componentEndpoint } from './component-endpoint';

export const navigation = componentEndpoint(
  'navigation',
  'The top-level navigation of the site (`expand.navigation.depth` levels)',
  { cache: 'listing', gatewayCache: 'tree' },
);
