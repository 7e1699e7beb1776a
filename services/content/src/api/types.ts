/** `@types`: the types users may create, each saying whether the caller may add it here (logged-in callers). */
import { componentEndpoint } from './component-endpoint';

export const types = componentEndpoint('types', 'The addable types and whether the caller may add each here');
