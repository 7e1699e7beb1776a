import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { AppError, clip } from '../../src/errors/app-error';
import { ERROR_BOUNDS, fromServiceError, toServiceError } from '../../src/grpc/errors';

const silent = pino({ level: 'silent' });
const LONE = '\ud800';

function wireOf(status: Partial<grpc.StatusObject>): { raw: Buffer; json: Record<string, any> } {
  const raw = status.metadata!.get('cms-error-bin')[0] as Buffer;
  return { raw, json: JSON.parse(raw.toString('utf8')) };
}

function asClientError(status: Partial<grpc.StatusObject>): grpc.ServiceError {
  return Object.assign(new Error(status.details), {
    code: status.code!,
    details: status.details!,
    metadata: status.metadata ?? new grpc.Metadata(),
  });
}

const hasLoneSurrogate = (text: string) =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

describe('an error crossing gRPC is safe whatever it holds', () => {
  it('JSON keeps a lone surrogate as an ASCII escape (Node ≥ 12), so the metadata bytes cannot mangle it', () => {
    expect(JSON.stringify(LONE)).toBe('"\\ud800"');
    expect(JSON.parse(JSON.stringify(LONE))).toBe(LONE);
  });

  it('lone surrogates in the message, fields and headers: details encodeURI-safe, the rest well-formed', () => {
    const status = toServiceError(
      new AppError(
        'BadRequest',
        `bad ${LONE} value`,
        [{ field: `a${LONE}`, message: `m${'\udc00'}` }],
        { context: `x${LONE}` },
        { 'X-Echo': `h${LONE}` },
      ),
      silent,
      'rid',
    );
    // grpc-js puts the details through encodeURI when it sends the status.
    expect(() => encodeURI(status.details!)).not.toThrow();
    expect(status.details).toBe('bad \ufffd value');
    const back = fromServiceError(asClientError(status), 'rid');
    expect(back.toBody()).toEqual({
      context: 'x\ufffd',
      type: 'BadRequest',
      message: 'bad \ufffd value',
      errors: [{ field: 'a\ufffd', message: 'm\ufffd' }],
    });
    expect(back.headers).toEqual({ 'X-Echo': 'h\ufffd' });
  });

  it('keeps valid surrogate pairs, and clip never cuts one in two', () => {
    const status = toServiceError(new AppError('NotFound', 'no 😀 here'), silent, 'rid');
    expect(status.details).toBe('no 😀 here');
    const clipped = clip('a😀', 2);
    expect(clipped).toBe('a…');
    expect(hasLoneSurrogate(clip('😀'.repeat(300)))).toBe(false);
  });

  it('bounds a huge message, huge errors, extra and headers to a few KiB of metadata', () => {
    const huge = 'é'.repeat(100_000);
    const status = toServiceError(
      new AppError(
        'BadRequest',
        huge,
        Array.from({ length: 10_000 }, (_, i) => ({ field: `${i}${huge}`, message: huge })),
        { context: huge, small: 'kept', big: [huge] },
        { 'X-Big': huge, Allow: 'GET' },
      ),
      silent,
      'rid',
    );
    const { raw, json } = wireOf(status);
    expect(raw.length).toBeLessThanOrEqual(ERROR_BOUNDS.WIRE_BYTES);
    expect(encodeURI(status.details!).length).toBeLessThan(2048);
    expect(json.type).toBe('BadRequest');
    expect(json.message.length).toBeLessThanOrEqual(ERROR_BOUNDS.MESSAGE_LENGTH + 1);
    expect(json.errors.length).toBeGreaterThan(0);
    expect(json.errors.length).toBeLessThanOrEqual(ERROR_BOUNDS.ERRORS);
    for (const e of json.errors) expect(e.field.length).toBeLessThanOrEqual(ERROR_BOUNDS.FIELD_LENGTH + 1);
    expect(json.extra.small).toBe('kept');
    expect(json.extra.big).toBeUndefined();
    expect(json.headers.Allow).toBe('GET');
  });

  it('bounds a message of control characters (six bytes each in JSON) by bytes too', () => {
    const status = toServiceError(new AppError('BadRequest', '\u0001'.repeat(100_000)), silent, 'rid');
    expect(wireOf(status).raw.length).toBeLessThanOrEqual(ERROR_BOUNDS.MESSAGE_BYTES + 100);
  });

  it('an extra member JSON cannot hold is left out instead of failing the call', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const status = toServiceError(new AppError('Conflict', 'c', undefined, { cyclic, n: 1n, ok: 1 }), silent, 'rid');
    expect(wireOf(status).json.extra).toEqual({ ok: 1 });
  });
});

/** The same through a real grpc-js server and client: the call fails cleanly and the channel stays usable. */
describe('hostile errors through a real gRPC server', () => {
  const definition: grpc.ServiceDefinition = {
    Echo: {
      path: '/test.Echo/Echo',
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: Buffer) => value,
      requestDeserialize: (value: Buffer) => value,
      responseSerialize: (value: Buffer) => value,
      responseDeserialize: (value: Buffer) => value,
    },
  };
  let server: grpc.Server;
  let client: grpc.Client & { Echo: grpc.requestCallback<Buffer> & any };

  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(definition, {
      Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const what = call.request.toString('utf8');
        if (what === 'lone') return callback(toServiceError(new AppError('BadRequest', `x${LONE}`), silent, 'r'));
        if (what === 'huge') {
          const big = 'y'.repeat(70_000);
          const errors = Array.from({ length: 1000 }, (_, i) => ({ field: `${i}${big}`, message: big }));
          return callback(toServiceError(new AppError('BadRequest', big, errors), silent, 'r'));
        }
        callback(null, call.request);
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    const Client = grpc.makeGenericClientConstructor(definition, 'Echo');
    client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as typeof client;
  });
  afterAll(async () => {
    client.close();
    // A call stuck by a failed status (the bug this guards against) would hold tryShutdown forever.
    await new Promise<void>((resolve) => {
      const stuck = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 2000);
      server.tryShutdown(() => {
        clearTimeout(stuck);
        resolve();
      });
    });
  });

  const call = (what: string) =>
    new Promise<{ error: grpc.ServiceError | null; value?: Buffer }>((resolve) =>
      client.Echo(
        Buffer.from(what),
        { deadline: Date.now() + 5000 },
        (error: grpc.ServiceError | null, value?: Buffer) => resolve({ error, value }),
      ),
    );

  it.each(['lone', 'huge'])('a %s error arrives as the AppError, and the next call succeeds', async (what) => {
    const { error } = await call(what);
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    const back = fromServiceError(error!, 'r');
    expect(back.type).toBe('BadRequest');
    expect(hasLoneSurrogate(back.message)).toBe(false);
    const next = await call('fine');
    expect(next.error).toBeNull();
    expect(next.value?.toString()).toBe('fine');
  });
});
