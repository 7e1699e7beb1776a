import type { Route } from '@cms/shared';
import { ROUTES } from './routes.generated';

/** The route of an `@` endpoint (`''` for the context itself), from the services' declarations. */
export function routeFor(endpoint: string): Route | undefined {
  return Object.prototype.hasOwnProperty.call(ROUTES, endpoint) ? ROUTES[endpoint] : undefined;
}
