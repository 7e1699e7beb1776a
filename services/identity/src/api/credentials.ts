import type { EndpointCall } from '@cms/shared';

/** The Bearer token of the request, which the gateway passes on (verified) to endpoints that revoke it. */
export function bearerToken(call: EndpointCall<unknown, unknown, unknown, unknown>): string | undefined {
  const header = call.header('authorization');
  const match = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}
