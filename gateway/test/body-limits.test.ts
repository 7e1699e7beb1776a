/**
 * The real gateway in front of a stand-in identity and content service: the caller is known before a byte of
 * the request body is read, an anonymous caller may send a small body only, and large bodies share a bounded
 * number of bytes in flight (hardening finding 9: anonymous 31 MB bodies were buffered and parsed before
 * authentication, with no bound on how many at once).
 */
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import {
  createLogger,
  loadConfig,
  protos,
  startGrpcServer,
  unary,
  unauthorized,
  type AuthenticateRequest__Output,
  type HttpRequest__Output,
  type RunningGrpcServer,
} from '@cms/shared';
import { pollUntil } from '../../test/support/poll';
import { gatewayConfigSchema, startGateway, type RunningGateway } from '../src';
import { bodyBytesInFlight } from '../src/config';

const KiB = 1024;
const MiB = 1024 * KiB;
const logger = createLogger('gateway', 'silent');
const UNREACHABLE = '127.0.0.1:1';
const ADMIN = 'Basic ' + Buffer.from('admin:admin').toString('base64');
const WRONG = 'Basic ' + Buffer.from('admin:wrong').toString('base64');
/** How long an answer that needs no body may take; the old gateway never answered before the body came. */
const EARLY_ANSWER_MS = 3000;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the gateway said `100 Continue` first. */
  continued: boolean;
}

interface Exchange {
  req: ClientRequest;
  /** Resolves once the client was told `100 Continue`. */
  continued: Promise<void>;
  answer: Promise<Answer>;
}

/** Sends the request head only (the body declared by Content-Length, or chunked); the body is the caller's to send. */
function open(port: number, method: string, path: string, headers: Record<string, string | number>): Exchange {
  const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false });
  let continued = false;
  let onContinue: () => void = () => {};
  const continuedPromise = new Promise<void>((resolve) => (onContinue = resolve));
  req.on('continue', () => {
    continued = true;
    onContinue();
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, continued }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { req, continued: continuedPromise, answer };
}

/** The answer to a request whose body is declared and never sent: it must come without the body. */
async function answeredWithoutBody(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
): Promise<Answer> {
  const exchange = open(port, method, path, headers);
  exchange.req.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer before the body was sent')), EARLY_ANSWER_MS);
  });
  try {
    return await Promise.race([exchange.answer, timeout]);
  } finally {
    clearTimeout(timer);
    exchange.req.destroy();
  }
}

function expectJsonError(answer: Answer, status: number, type: string): Record<string, unknown> {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toMatchObject({ type, message: expect.any(String) });
  return body;
}

describe('request bodies: the caller first, then a bounded body', () => {
  let identity: RunningGrpcServer;
  let content: RunningGrpcServer;
  let gateway: RunningGateway;
  let authenticateCalls: AuthenticateRequest__Output[];
  let forwarded: HttpRequest__Output[];

  beforeAll(async () => {
    const p = protos();
    const handle = unary(logger, async (request: HttpRequest__Output) => {
      forwarded.push(request);
      return { status: 201, headers: {}, body: Buffer.from(JSON.stringify({ bytes: request.body.length })) };
    });
    identity = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        {
          name: 'cms.identity.v1.IdentityService',
          definition: p.identity.IdentityService.service,
          implementation: {
            Authenticate: unary(logger, async (request: AuthenticateRequest__Output) => {
              authenticateCalls.push(request);
              if (request.basic?.login !== 'admin' || request.basic.password !== 'admin') {
                throw unauthorized('Login failed');
              }
              return { id: 'admin', roles: ['Manager'], groups: [], fullname: 'Admin' };
            }),
            Handle: handle,
            WatchInvalidations: () => {},
          },
        },
      ],
      healthCheck: async () => {},
      maxMessageBytes: 16 * MiB,
      logger,
    });
    content = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        {
          name: 'cms.content.v1.ContentService',
          definition: p.content.ContentService.service,
          implementation: { Handle: handle },
        },
      ],
      healthCheck: async () => {},
      maxMessageBytes: 16 * MiB,
      logger,
    });
    const config = loadConfig(gatewayConfigSchema, {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      // No cache: every request with credentials asks identity, so the calls can be counted.
      AUTH_CACHE_TTL_MS: '0',
      MAX_BODY_BYTES: String(2 * MiB),
      MAX_BODY_BYTES_IN_FLIGHT: String(3 * MiB),
    });
    gateway = await startGateway(
      config,
      {
        content: content.address,
        identity: identity.address,
        search: UNREACHABLE,
        discussion: UNREACHABLE,
        config: UNREACHABLE,
      },
      logger,
    );
  });

  afterAll(async () => {
    await gateway.stop();
    await identity.stop(1000);
    await content.stop(1000);
  });

  beforeEach(() => {
    authenticateCalls = [];
    forwarded = [];
  });

  const port = () => gateway.port;
  const json = { 'Content-Type': 'application/json' };

  it('an anonymous write declaring a 31 MB body is 401 before the body is sent', async () => {
    const answer = await answeredWithoutBody(port(), 'POST', '/', { ...json, 'Content-Length': 31 * MiB });
    expectJsonError(answer, 401, 'Unauthorized');
    expect(answer.headers['www-authenticate']).toBe('Basic realm="CMS"');
    expect(forwarded).toHaveLength(0);
  });

  it('anonymous bodies above 64 KiB are refused before they are sent: 401 on writes, 413 on @login and reads', async () => {
    const declared = { ...json, 'Content-Length': 64 * KiB + 1 };
    expectJsonError(await answeredWithoutBody(port(), 'PATCH', '/doc', declared), 401, 'Unauthorized');
    expectJsonError(await answeredWithoutBody(port(), 'DELETE', '/doc', declared), 401, 'Unauthorized');
    expectJsonError(await answeredWithoutBody(port(), 'POST', '/@login', declared), 413, 'PayloadTooLarge');
    expectJsonError(await answeredWithoutBody(port(), 'GET', '/doc', declared), 413, 'PayloadTooLarge');
    // @login ignores credentials (addendum §7), so a login is anonymous whatever it carries.
    const withCredentials = { ...declared, Authorization: ADMIN };
    expectJsonError(await answeredWithoutBody(port(), 'POST', '/@login', withCredentials), 413, 'PayloadTooLarge');
    expect(forwarded).toHaveLength(0);
    expect(authenticateCalls).toHaveLength(0);
  });

  it('an anonymous body of up to 64 KiB is read once and passed on as it came', async () => {
    const body = JSON.stringify({ login: 'admin', password: 'x'.repeat(64 * KiB - 40) });
    expect(body.length).toBeLessThanOrEqual(64 * KiB);
    const response = await fetch(`http://127.0.0.1:${port()}/@login`, { method: 'POST', headers: json, body });
    expect(response.status).toBe(201);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0].body.toString('utf8')).toBe(body);
  });

  it('a body that is not JSON is passed on for the service to refuse (the gateway does not parse it)', async () => {
    const response = await fetch(`http://127.0.0.1:${port()}/@login`, {
      method: 'POST',
      headers: json,
      body: '{"login": ',
    });
    expect(response.status).toBe(201);
    expect(forwarded[0].body.toString('utf8')).toBe('{"login": ');
  });

  it('a chunked anonymous body is cut off once it passes 64 KiB', async () => {
    const exchange = open(port(), 'POST', '/', { ...json, 'Transfer-Encoding': 'chunked' });
    exchange.req.on('error', () => {});
    for (let i = 0; i < 5; i++) exchange.req.write(Buffer.alloc(16 * KiB, 0x20));
    const answer = await exchange.answer;
    exchange.req.destroy();
    expectJsonError(answer, 401, 'Unauthorized');
    expect(forwarded).toHaveLength(0);
  });

  it('bad credentials are refused before a large body is read', async () => {
    const answer = await answeredWithoutBody(port(), 'POST', '/', {
      ...json,
      Authorization: WRONG,
      'Content-Length': MiB,
    });
    expectJsonError(answer, 401, 'Unauthorized');
    expect(authenticateCalls).toHaveLength(1);
    expect(forwarded).toHaveLength(0);
  });

  it('an authenticated caller sends up to MAX_BODY_BYTES; a larger declared body is 413 before it is sent', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(MiB) });
    const response = await fetch(`http://127.0.0.1:${port()}/`, {
      method: 'POST',
      headers: { ...json, Authorization: ADMIN },
      body,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ bytes: body.length });
    const answer = await answeredWithoutBody(port(), 'POST', '/', {
      ...json,
      Authorization: ADMIN,
      'Content-Length': 2 * MiB + 1,
    });
    expectJsonError(answer, 413, 'PayloadTooLarge');
  });

  it('Expect: 100-continue: the client is told to send only after it is known and its body has room', async () => {
    const refused = open(port(), 'POST', '/', { ...json, Expect: '100-continue', 'Content-Length': MiB });
    const refusal = await refused.answer;
    refused.req.destroy();
    expectJsonError(refusal, 401, 'Unauthorized');
    expect(refusal.continued).toBe(false);

    const body = Buffer.alloc(MiB, 0x20);
    const taken = open(port(), 'POST', '/', {
      ...json,
      Authorization: ADMIN,
      Expect: '100-continue',
      'Content-Length': body.length,
    });
    await taken.continued;
    taken.req.end(body);
    const answer = await taken.answer;
    expect(answer).toMatchObject({ status: 201, continued: true });
    expect(JSON.parse(answer.body)).toEqual({ bytes: MiB });
  });

  it('large bodies beyond the bytes in flight are 503 with Retry-After before they are read; small ones pass', async () => {
    // 2 MiB of the 3 MiB in flight, held: the gateway has counted it once it says `100 Continue`.
    const held = Buffer.alloc(2 * MiB, 0x20);
    const holder = open(port(), 'POST', '/', {
      ...json,
      Authorization: ADMIN,
      Expect: '100-continue',
      'Content-Length': held.length,
    });
    await holder.continued;
    holder.req.write(held.subarray(0, KiB));

    const busy = await answeredWithoutBody(port(), 'POST', '/', {
      ...json,
      Authorization: ADMIN,
      'Content-Length': 1.5 * MiB,
    });
    expectJsonError(busy, 503, 'ServiceUnavailable');
    expect(busy.headers['retry-after']).toBe('1');

    // A chunked body is refused as soon as it no longer fits.
    const chunked = open(port(), 'POST', '/', { ...json, Authorization: ADMIN, 'Transfer-Encoding': 'chunked' });
    chunked.req.on('error', () => {});
    for (let i = 0; i < 8; i++) chunked.req.write(Buffer.alloc(256 * KiB, 0x20));
    const cut = await chunked.answer;
    chunked.req.destroy();
    expectJsonError(cut, 503, 'ServiceUnavailable');

    // Small bodies are not held back by large ones.
    const small = await fetch(`http://127.0.0.1:${port()}/`, {
      method: 'POST',
      headers: { ...json, Authorization: ADMIN },
      body: JSON.stringify({ title: 'small' }),
    });
    expect(small.status).toBe(201);
    const login = await fetch(`http://127.0.0.1:${port()}/@login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ login: 'admin', password: 'admin' }),
    });
    expect(login.status).toBe(201);

    holder.req.end(held.subarray(KiB));
    expect((await holder.answer).status).toBe(201);
    expect(forwarded.map((request) => request.body.length)).toEqual(expect.arrayContaining([2 * MiB]));

    // Its room is given back once it is answered.
    const body = Buffer.alloc(1.5 * MiB, 0x20);
    const later = await pollUntil(
      async () => {
        const response = await fetch(`http://127.0.0.1:${port()}/`, {
          method: 'POST',
          headers: { ...json, Authorization: ADMIN },
          body,
        });
        return response.status === 201 && response;
      },
      5000,
      { description: 'the held body to give its room back' },
    );
    expect(await later.json()).toEqual({ bytes: body.length });
  });

  it('an expectation other than 100-continue is ignored, not answered with a bare 417', async () => {
    const exchange = open(port(), 'POST', '/@login', { ...json, Expect: 'nonsense', 'Content-Length': 2 });
    exchange.req.end('{}');
    const answer = await exchange.answer;
    expect(answer.status).toBe(201);
    expect(forwarded.map((request) => request.body.toString('utf8'))).toEqual(['{}']);
  });

  it('a gzip body is inflated up to the limit; a bomb is 413', async () => {
    const { gzipSync } = await import('node:zlib');
    const text = JSON.stringify({ title: 'zipped' });
    const response = await fetch(`http://127.0.0.1:${port()}/`, {
      method: 'POST',
      headers: { ...json, Authorization: ADMIN, 'Content-Encoding': 'gzip' },
      body: gzipSync(text),
    });
    expect(response.status).toBe(201);
    expect(forwarded.at(-1)?.body.toString('utf8')).toBe(text);
    const bomb = await fetch(`http://127.0.0.1:${port()}/`, {
      method: 'POST',
      headers: { ...json, Authorization: ADMIN, 'Content-Encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(3 * MiB, 0x20)),
    });
    expect(bomb.status).toBe(413);
    expect(await bomb.json()).toMatchObject({ type: 'PayloadTooLarge' });
  });
});

describe('the body limits in the configuration', () => {
  it('default to 64 KiB for anonymous callers and four of the largest bodies in flight', () => {
    const config = loadConfig(gatewayConfigSchema, {});
    expect(config.MAX_ANONYMOUS_BODY_BYTES).toBe(64 * KiB);
    expect(bodyBytesInFlight(config)).toBe(4 * config.MAX_BODY_BYTES);
    expect(bodyBytesInFlight(loadConfig(gatewayConfigSchema, { MAX_BODY_BYTES_IN_FLIGHT: String(200 * MiB) }))).toBe(
      200 * MiB,
    );
  });

  it('refuse bytes in flight below the largest body, and limits that are not positive whole numbers', () => {
    expect(() => loadConfig(gatewayConfigSchema, { MAX_BODY_BYTES_IN_FLIGHT: String(MiB) })).toThrow(
      'Invalid configuration: MAX_BODY_BYTES_IN_FLIGHT: must be at least MAX_BODY_BYTES',
    );
    expect(() => loadConfig(gatewayConfigSchema, { MAX_ANONYMOUS_BODY_BYTES: '0' })).toThrow(
      /Invalid configuration: MAX_ANONYMOUS_BODY_BYTES/,
    );
    expect(() => loadConfig(gatewayConfigSchema, { MAX_BODY_BYTES_IN_FLIGHT: 'lots' })).toThrow(
      /Invalid configuration: MAX_BODY_BYTES_IN_FLIGHT/,
    );
  });
});
