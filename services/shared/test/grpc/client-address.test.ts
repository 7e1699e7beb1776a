/** The client's address crosses gRPC in the call metadata, beside the request id, bounded. */
import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { callUnary, requestMetadata } from '../../src/grpc/client';
import { CLIENT_ADDRESS_KEY, clientAddressOf, unary, type CallContext } from '../../src/grpc/server';

const silent = pino({ level: 'silent' });

/** The metadata a unary call sends. */
async function sent(clientAddress?: string): Promise<grpc.Metadata> {
  let metadata: grpc.Metadata | undefined;
  await callUnary(
    (md, _options, callback) => {
      metadata = md;
      callback(null, {});
    },
    { requestId: 'rid-1', timeoutMs: 1000, clientAddress },
  );
  return metadata!;
}

/** The context a unary handler is given for this metadata. */
function received(metadata: grpc.Metadata): Promise<CallContext> {
  return new Promise((resolve) => {
    const handle = unary(silent, async (_request: unknown, ctx) => {
      resolve(ctx);
      return {};
    });
    handle({ metadata, request: {} } as unknown as grpc.ServerUnaryCall<unknown, unknown>, () => undefined);
  });
}

describe('the client address in call metadata', () => {
  it('is sent with the request id when given, and not otherwise', async () => {
    const withAddress = await sent('203.0.113.7');
    expect(withAddress.get(CLIENT_ADDRESS_KEY)).toEqual(['203.0.113.7']);
    expect(withAddress.get('x-request-id')).toEqual(['rid-1']);
    expect((await sent()).get(CLIENT_ADDRESS_KEY)).toEqual([]);
    expect(requestMetadata('rid-2', '2001:db8::1').get(CLIENT_ADDRESS_KEY)).toEqual(['2001:db8::1']);
  });

  it('reaches the handler’s context', async () => {
    const ctx = await received(await sent('2001:db8::7'));
    expect(ctx.requestId).toBe('rid-1');
    expect(ctx.clientAddress).toBe('2001:db8::7');
    expect((await received(await sent())).clientAddress).toBeUndefined();
  });

  it('is read only when it is a short value of address characters', () => {
    const metadata = (value: string) => {
      const md = new grpc.Metadata();
      md.set(CLIENT_ADDRESS_KEY, value);
      return md;
    };
    expect(clientAddressOf(metadata('192.0.2.1'))).toBe('192.0.2.1');
    expect(clientAddressOf(metadata('fe80::1%eth0'))).toBe('fe80::1%eth0');
    for (const bad of ['', 'x'.repeat(200), '1.2.3.4, 5.6.7.8', 'a b'])
      expect(clientAddressOf(metadata(bad))).toBe(undefined);
    expect(clientAddressOf(new grpc.Metadata())).toBeUndefined();
  });
});
