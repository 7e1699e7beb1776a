import type { EndpointDeclaration } from '@cms/shared';

/** Every HTTP endpoint of the discussion service (none yet); the gateway's routing table is generated from it. */
export const ENDPOINTS: EndpointDeclaration[] = [];
