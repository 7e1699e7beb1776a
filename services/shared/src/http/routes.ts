/**
 * The one routing table: which service owns each `@` endpoint and which
 * methods it takes. The gateway routes by it (and answers 405 from it); each
 * service checks at start that it implements exactly its rows.
 */

export type ServiceName = 'content' | 'identity' | 'search' | 'discussion' | 'config';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  service: ServiceName;
  methods: readonly HttpMethod[];
}

/** Keyed by endpoint name without `@`; `''` is the context itself (no `@` segment). */
export const ROUTES: Readonly<Record<string, Route>> = {
  '': { service: 'content', methods: ['GET', 'POST', 'PATCH', 'DELETE'] },
  search: { service: 'search', methods: ['GET'] },
  registry: { service: 'config', methods: ['GET', 'PATCH'] },
  workflow: { service: 'content', methods: ['GET', 'POST'] },
  sharing: { service: 'content', methods: ['GET', 'POST'] },
  actions: { service: 'content', methods: ['GET'] },
  aliases: { service: 'content', methods: ['GET'] },
  breadcrumbs: { service: 'content', methods: ['GET'] },
  contextnavigation: { service: 'content', methods: ['GET'] },
  navigation: { service: 'content', methods: ['GET'] },
  navroot: { service: 'content', methods: ['GET'] },
  types: { service: 'content', methods: ['GET'] },
  copy: { service: 'content', methods: ['POST'] },
  move: { service: 'content', methods: ['POST'] },
  download: { service: 'content', methods: ['GET'] },
  images: { service: 'content', methods: ['GET'] },
  login: { service: 'identity', methods: ['GET', 'POST'] },
  'login-renew': { service: 'identity', methods: ['POST'] },
  logout: { service: 'identity', methods: ['POST'] },
  users: { service: 'identity', methods: ['GET', 'POST', 'PATCH', 'DELETE'] },
  portrait: { service: 'identity', methods: ['GET'] },
  groups: { service: 'identity', methods: ['GET', 'POST', 'PATCH', 'DELETE'] },
  roles: { service: 'identity', methods: ['GET'] },
  principals: { service: 'identity', methods: ['GET'] },
};

export function routeFor(endpoint: string): Route | undefined {
  return Object.prototype.hasOwnProperty.call(ROUTES, endpoint) ? ROUTES[endpoint] : undefined;
}

export function endpointsOf(service: ServiceName): string[] {
  return Object.keys(ROUTES).filter((endpoint) => ROUTES[endpoint].service === service);
}
