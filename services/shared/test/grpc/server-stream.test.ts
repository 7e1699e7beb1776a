import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { AppError } from '../../src/errors/app-error';
import { protos } from '../../src/grpc/loader';
import { serverStream } from '../../src/grpc/server';
import { requireServiceProof } from '../../src/grpc/service-auth';

const silent = pino({ level: 'silent' });

/** A server stream that sends `before` messages, then fails as a refusal does. */
function failingAfter(before: number) {
  return serverStream(silent, async function* () {
    for (let i = 0; i < before; i++) yield { item_json: Buffer.from(`{"n":${i}}`) };
    throw new AppError('Forbidden', 'not for you');
  });
}

describe('serverStream', () => {
  let server: grpc.Server;
  let client: grpc.Client & { ExportObjects(request: object): grpc.ClientReadableStream<unknown> };

  beforeAll(async () => {
    server = new grpc.Server();
    const fails = { now: failingAfter(0), later: failingAfter(2) };
    server.addService(protos().content.ContentService.service, {
      // The principal's id says which stream to answer with (the request is what the contract allows).
      ExportObjects: (call: grpc.ServerWritableStream<{ principal: { id: string } }, unknown>) =>
        fails[call.request.principal.id as keyof typeof fails](call),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    const Client = protos().content.ContentService;
    client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as typeof client;
  });
  afterAll(async () => {
    client.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  it.each([
    ['before any message', 'now', 0],
    ['after some messages', 'later', 2],
  ])('gives the caller the error thrown %s as the status, not a stream left open', async (_, id, count) => {
    const received: unknown[] = [];
    const read = async () => {
      for await (const message of client.ExportObjects({ principal: { id } })) received.push(message);
    };
    await expect(read()).rejects.toMatchObject({ code: grpc.status.PERMISSION_DENIED, details: 'not for you' });
    expect(received).toHaveLength(count);
  });
});

describe('a server stream called without a service proof', () => {
  it('is refused with UNAUTHENTICATED as its status, not left open until the deadline', async () => {
    const implementation = { ExportObjects: failingAfter(1) };
    const checked = requireServiceProof(protos().content.ContentService.service, implementation, silent);
    const server = new grpc.Server();
    server.addService(checked.definition, checked.implementation);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    // A plain client: no proof interceptor.
    const Client = protos().content.ContentService;
    const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as {
      ExportObjects(request: object, options: grpc.CallOptions): grpc.ClientReadableStream<unknown>;
      close(): void;
    };
    try {
      const read = async () => {
        const stream = client.ExportObjects({ principal: { id: 'x' } }, { deadline: Date.now() + 30_000 });
        for await (const message of stream) expect(message).toBeUndefined();
      };
      await expect(read()).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    } finally {
      client.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    }
  }, 60_000);
});
