/**
 * A server's GRPC_MAX_CONNECTION_AGE_MS ends a connection gracefully: a GOAWAY, after which the calls already on it
 * go on to their end while new calls take a new connection. grpc-js 1.14 sent its keepalive ping on such a draining
 * connection too; Node refuses a ping there, and grpc-js took that for a dead peer and ended the draining calls
 * with UNAVAILABLE "Connection dropped" (grpc/grpc-node#3068; patched in patches/@grpc__grpc-js@*.patch). The
 * server's own keepalive did the same from its side.
 */
import * as grpc from '@grpc/grpc-js';
import { serverChannelOptions, clientChannelOptions } from '../../src/grpc/loader';

const bytes = {
  serialize: (value: Buffer) => value,
  deserialize: (value: Buffer) => value,
};
const SLOW: grpc.ServiceDefinition = {
  Slow: {
    path: '/test.Slow/Slow',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  },
};

describe.each([
  ['the client', { client: 300, server: 30_000 }],
  ['the server', { client: 30_000, server: 300 }],
])('a call still running when its connection reaches its maximum age, %s pinging', (_who, keepaliveMs) => {
  let server: grpc.Server;
  let client: grpc.Client;

  beforeAll(async () => {
    // The connection is aged out while the call runs, and a keepalive ping comes due before the call ends.
    server = new grpc.Server({ ...serverChannelOptions(1 << 20, 200), 'grpc.keepalive_time_ms': keepaliveMs.server });
    server.addService(SLOW, {
      Slow: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        setTimeout(() => callback(null, Buffer.from('done')), 1500);
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    const Client = grpc.makeGenericClientConstructor(SLOW, 'Slow');
    client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      ...clientChannelOptions(1 << 20),
      'grpc.keepalive_time_ms': keepaliveMs.client,
    });
  });

  afterAll(() => {
    client.close();
    server.forceShutdown();
  });

  it('is answered, not cut off by a keepalive ping on the draining connection', async () => {
    const slow = () =>
      new Promise<string>((resolve, reject) =>
        client.makeUnaryRequest(
          '/test.Slow/Slow',
          bytes.serialize,
          bytes.deserialize,
          Buffer.alloc(0),
          { deadline: Date.now() + 20_000 },
          (error: grpc.ServiceError | null, answer?: Buffer) => (error ? reject(error) : resolve(String(answer))),
        ),
      );
    // Several in turn, each on a connection that ages out beneath it.
    for (let i = 0; i < 3; i++) await expect(slow()).resolves.toBe('done');
  }, 30_000);
});
