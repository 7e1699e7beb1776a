/** `@actions`: the actions the caller may take here, by category. */
import { componentEndpoint } from './component-endpoint';

export const actions = componentEndpoint('actions', 'The actions the caller may take here, by category', {
  cache: 'content',
  gatewayCache: 'object',
});
