import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The address of the HTTP client, for identity's login throttle: the socket's
 * peer, or, behind `trustedProxies` reverse proxies (TRUST_PROXY), the address
 * the outermost of them saw, read from the right of X-Forwarded-For (each
 * proxy appends the peer it saw, so entries further left are the client's
 * own say and are not believed). An entry that is not an address ends the
 * walk at the proxy that passed it on. '' when the socket has no peer any more.
 */
export function clientAddressOf(req: IncomingMessage, trustedProxies: number): string {
  let address = plain(req.socket.remoteAddress ?? '');
  if (trustedProxies === 0 || !address) return address;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  for (let hop = 0; hop < trustedProxies && forwarded.length > 0; hop++) {
    const entry = plain(forwarded.pop()!.trim());
    if (!isIP(entry)) break;
    address = entry;
  }
  return address;
}

/** An IPv4 peer on an IPv6 socket (`::ffff:192.0.2.1`) is written as IPv4. */
function plain(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
