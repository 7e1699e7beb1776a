import { CLIENT_ADDRESS_KEY, proofOf, type EndpointCall } from '@cms/shared';
import type { GroupCaller } from '../domain/groups';
import type { UserCaller } from '../domain/users';

type AnyCall = EndpointCall<unknown, unknown, unknown, unknown>;

export function callerOf(call: AnyCall): UserCaller {
  return { principal: call.principal, requestId: call.requestId };
}

/** A caller of the group commands: with the dispatcher's proof of "Manage users", which `@groups` declares. */
export function groupCallerOf(call: AnyCall): GroupCaller {
  return { ...callerOf(call), proof: proofOf(call.proof, 'Manage users') };
}

/** The URL as requested (query included, `b_start` and the like kept), for the `@id` of nested listings. */
export function requestUrl(call: AnyCall): string {
  const path = ['@' + call.request.endpoint, ...call.request.sub_path].join('/');
  const query = new URLSearchParams(call.request.query.map((p): [string, string] => [p.key, p.value])).toString();
  return `${call.publicUrl}/${path}${query ? `?${query}` : ''}`;
}

/** Where the request came from, as the gateway saw it (put among the headers by `withClientAddress`). */
export function clientAddressOfCall(call: AnyCall): string | undefined {
  return call.header(CLIENT_ADDRESS_KEY);
}
