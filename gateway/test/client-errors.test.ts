import { connect } from 'node:net';
import { Duplex } from 'node:stream';
import { createLogger } from '@cms/shared';
import { startTestSuite, type TestSuite } from '../../test/support/embedded-suite';
import { answerClientError } from '../src/errors';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are and reads every response until the server closes the connection (the client does not
 * half-close: Node drops the requests still in flight when it does).
 */
function exchange(port: number, request: string): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseResponses(Buffer.concat(chunks).toString('latin1'))));
    socket.write(request);
  });
}

function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`not an HTTP response: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

/** Requests Node's HTTP parser refuses get the JSON error body of addendum §4 too, and the gateway goes on. */
describe('requests the HTTP parser refuses', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });

  async function expectStillServing(): Promise<void> {
    const response = await t.request('GET', '/', { auth: null });
    expect(response.status).toBe(200);
  }

  function expectJsonError(response: RawResponse, status: number, type: string): void {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toEqual({ type, message: expect.any(String) });
  }

  it.each([
    ['a lowercase method', 'get / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a CR inside a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-Note: a\rb\r\n\r\n'],
    ['a header name with a space', 'GET / HTTP/1.1\r\nHost: x\r\nX Note: a\r\n\r\n'],
    ['a bad Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n'],
    [
      'a bad chunk size in the body of a request already routed',
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
  ])('%s is 400 BadRequest with a JSON body', async (_name, request) => {
    const [response, ...more] = await exchange(t.suite.port, request);
    expectJsonError(response, 400, 'BadRequest');
    expect(more).toEqual([]);
    await expectStillServing();
  });

  it('20 KB of headers is 431 RequestHeaderFieldsTooLarge with a JSON body that does not echo them', async () => {
    const [response] = await exchange(
      t.suite.port,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectJsonError(response, 431, 'RequestHeaderFieldsTooLarge');
    expect(response.body).not.toContain('aaaa');
    await expectStillServing();
  });

  it('a malformed request after good ones on the same connection: their answers first, whole, then the error', async () => {
    const good =
      'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n';
    const responses = await exchange(t.suite.port, `${good}get / HTTP/1.1\r\n\r\n`);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400]);
    expect(JSON.parse(responses[0].body)).toEqual({ status: 'ok' });
    expect(JSON.parse(responses[1].body)['@type']).toBe('Site Root');
    expectJsonError(responses[2], 400, 'BadRequest');
    await expectStillServing();
  });
});

describe('answerClientError', () => {
  const logger = createLogger('gateway', 'silent');

  /** A socket that keeps what is written to it. */
  function fakeSocket(): Duplex & { written: () => string } {
    const chunks: Buffer[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
    });
    return Object.assign(socket, { written: () => Buffer.concat(chunks).toString() });
  }

  it('answers a request that did not arrive in time with 408 RequestTimeout', () => {
    const socket = fakeSocket();
    answerClientError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket, logger);
    const [response] = parseResponses(socket.written());
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body).type).toBe('RequestTimeout');
    socket.destroy();
  });

  it('answers once per connection, and names no more than the parser code', () => {
    const socket = fakeSocket();
    const error = Object.assign(new Error('Invalid method'), { code: 'HPE_INVALID_METHOD', rawPacket: 'secret' });
    answerClientError(error, socket, logger);
    answerClientError(error, socket, logger);
    const responses = parseResponses(socket.written());
    expect(responses).toHaveLength(1);
    expect(JSON.parse(responses[0].body)).toEqual({
      type: 'BadRequest',
      message: 'Malformed HTTP request (HPE_INVALID_METHOD)',
    });
    socket.destroy();
  });

  it('closes without an answer when the connection was reset', () => {
    const socket = fakeSocket();
    answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), socket, logger);
    expect(socket.written()).toBe('');
    expect(socket.destroyed).toBe(true);
  });
});
