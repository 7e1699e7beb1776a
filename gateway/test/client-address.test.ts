/** The client address the gateway tells the services: the socket's peer, or X-Forwarded-For behind trusted proxies. */
import type { IncomingMessage } from 'node:http';
import { gatewayConfigSchema } from '../src/config';
import { clientAddressOf } from '../src/client-address';

function request(remoteAddress: string | undefined, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe('clientAddressOf', () => {
  it('is the socket’s peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf(request('203.0.113.7'), 0)).toBe('203.0.113.7');
    expect(clientAddressOf(request('203.0.113.7', '192.0.2.1'), 0)).toBe('203.0.113.7');
    expect(clientAddressOf(request('2001:db8::7', '192.0.2.1, 192.0.2.2'), 0)).toBe('2001:db8::7');
  });

  it('writes an IPv4 peer seen through an IPv6 socket as IPv4', () => {
    expect(clientAddressOf(request('::ffff:203.0.113.7'), 0)).toBe('203.0.113.7');
  });

  it('takes the address each trusted proxy saw, counting from the socket’s peer', () => {
    // The client may send X-Forwarded-For itself: only the entries the trusted proxies appended count.
    const forwarded = 'spoofed, 192.0.2.1, 198.51.100.2';
    expect(clientAddressOf(request('10.0.0.1', forwarded), 1)).toBe('198.51.100.2');
    expect(clientAddressOf(request('10.0.0.1', forwarded), 2)).toBe('192.0.2.1');
    // Fewer entries than trusted proxies: the first one there is.
    expect(clientAddressOf(request('10.0.0.1', '192.0.2.1'), 3)).toBe('192.0.2.1');
    expect(clientAddressOf(request('10.0.0.1'), 1)).toBe('10.0.0.1');
    expect(clientAddressOf(request('10.0.0.1', ' 2001:db8::9 '), 1)).toBe('2001:db8::9');
  });

  it('stops at an entry that is not an address: the proxy that passed it on is the client', () => {
    expect(clientAddressOf(request('10.0.0.1', '192.0.2.1, unknown'), 2)).toBe('10.0.0.1');
    expect(clientAddressOf(request('10.0.0.1', '192.0.2.1, unknown, 198.51.100.2'), 3)).toBe('198.51.100.2');
    expect(clientAddressOf(request('10.0.0.1', 'x'.repeat(100_000)), 1)).toBe('10.0.0.1');
  });

  it('is empty when the socket has no peer address any more', () => {
    expect(clientAddressOf(request(undefined), 0)).toBe('');
  });

  it('trusts no proxy unless TRUST_PROXY says how many there are', () => {
    expect(gatewayConfigSchema.parse({}).TRUST_PROXY).toBe(0);
    expect(gatewayConfigSchema.parse({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(gatewayConfigSchema.safeParse({ TRUST_PROXY: 'true' }).success).toBe(false);
  });
});
