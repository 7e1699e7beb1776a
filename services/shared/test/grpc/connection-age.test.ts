/**
 * A server's GRPC_MAX_CONNECTION_AGE_MS ends a connection gracefully: a GOAWAY, after which the calls already on it
 * go on to their end while new calls take a new connection. grpc-js 1.14 sent its keepalive ping on such a draining
 * connection too; Node refuses a ping there, and grpc-js took that for a dead peer and ended the draining calls
 * with UNAVAILABLE "Connection dropped" (grpc/grpc-node#3068; patched in patches/@grpc__grpc-js@*.patch). The
 * server's own keepalive did the same from its side.
 */
import * as grpc from '@grpc/grpc-js';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
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

/**
 * A call that reaches a server just after the server's max-age GOAWAY is refused (RST_STREAM REFUSED_STREAM:
 * Node refuses new streams on a closing session) before any handler runs, so grpc-js sends it again on a new
 * connection, but only if it still holds the message: by default up to 1 MiB per call. Bodies above that
 * (the fuzz suite's 1.7 MB `@login-renew`, a 5 MB upload) came back UNAVAILABLE, a 503 at the gateway. This
 * server refuses the first stream of every connection the same way, then answers.
 */
describe('a call refused by a server closing its connection', () => {
  let server: http2.Http2Server;
  let port: number;
  const received: number[] = [];

  beforeAll(async () => {
    server = http2.createServer();
    const streamsSeen = new WeakMap<http2.ServerHttp2Session, number>();
    server.on('stream', (stream) => {
      const seen = (streamsSeen.get(stream.session!) ?? 0) + 1;
      streamsSeen.set(stream.session!, seen);
      if (seen === 1) {
        stream.on('error', () => {}); // the refusal's own error on this side
        stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
        return;
      }
      let size = 0;
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      stream.on('end', () => {
        received.push(size - 5); // less the gRPC frame's prefix
        const answer = Buffer.from('done');
        const frame = Buffer.alloc(5 + answer.length);
        frame.writeUInt32BE(answer.length, 1);
        answer.copy(frame, 5);
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(frame);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ({ port } = server.address() as AddressInfo);
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A call on a connection of its own (grpc-js shares one between clients of equal options), closed after. */
  const call = (body: Buffer) => {
    const Client = grpc.makeGenericClientConstructor(SLOW, 'Slow');
    const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      ...clientChannelOptions(64 << 20),
      'test.connection': body.length,
    });
    return new Promise<string>((resolve, reject) =>
      client.makeUnaryRequest(
        '/test.Slow/Slow',
        bytes.serialize,
        bytes.deserialize,
        body,
        { deadline: Date.now() + 20_000 },
        (error: grpc.ServiceError | null, answer?: Buffer) => (error ? reject(error) : resolve(String(answer))),
      ),
    ).finally(() => client.close());
  };

  it.each([
    ['a small body', 10 * 1024],
    ['a 2 MiB body', 2 << 20],
    ['a 20 MiB body', 20 << 20],
  ])('is sent again with %s and answered', async (_what, size) => {
    received.length = 0;
    await expect(call(Buffer.alloc(size, 1))).resolves.toBe('done');
    expect(received).toEqual([size]);
  });
});
