import { CLIENT_ADDRESS_KEY, clientAddressOf, type IdentityServiceHandlers } from '@cms/shared';

type Handle = IdentityServiceHandlers['Handle'];

/**
 * The Handle RPC with the client's address, which the gateway sends in the
 * call's metadata, put among the request's headers where endpoints read it
 * (`clientAddressOfCall`). A header of that name that came any other way is
 * dropped: a client does not get to name its own address.
 */
export function withClientAddress(handle: Handle): Handle {
  return (call, callback) => {
    const headers = { ...call.request.headers };
    delete headers[CLIENT_ADDRESS_KEY];
    const address = clientAddressOf(call.metadata);
    if (address !== undefined) headers[CLIENT_ADDRESS_KEY] = address;
    call.request.headers = headers;
    handle(call, callback);
  };
}
