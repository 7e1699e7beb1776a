/** `@inherit?expand.inherit.behaviors=a,b`: behavior values from the nearest object on the path that has them. */
import { componentEndpoint } from './component-endpoint';

export const inherit = componentEndpoint(
  'inherit',
  'The values of the named behaviors from the nearest object on the path (the context, then its parents) that has them',
);
