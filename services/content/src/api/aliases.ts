/** `@aliases`: the paths the object had before it was moved or renamed. */
import { componentEndpoint } from './component-endpoint';

export const aliases = componentEndpoint('aliases', 'The paths the object had before it was moved or renamed');
