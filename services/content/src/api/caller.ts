import type { EndpointCall } from '@cms/shared';
import type { Caller } from '../domain/content';

export function callerOf(call: EndpointCall<unknown, unknown, unknown, unknown>): Caller {
  return {
    principal: call.principal,
    requestId: call.requestId,
    publicUrl: call.publicUrl,
    lockToken: call.header('lock-token'),
    granted: call.granted,
    proof: call.proof,
  };
}
