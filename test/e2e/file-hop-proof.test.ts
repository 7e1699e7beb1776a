import { request as httpRequest } from 'node:http';
import {
  encodeFileHopRequest,
  FILE_HOP_PATH,
  SERVICE_PROOF_KEY,
  SERVICE_PROOF_WINDOW_MS,
  signHttpProof,
  type FileHopRequest,
} from '@cms/shared';
import { ADMIN, startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';
import { pollUntil } from '../support/poll';
import { freePort } from '../support/processes';

const TUS = { 'Tus-Resumable': '1.0.0' };
const BYTES = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 17 + 3) % 256));

/**
 * The file hop's own caller proof (issue 25): content's file server reads a forwarded request only with the
 * gateway's proof beside it, so a process that reaches its port cannot claim to be the gateway (and a Manager).
 */
describe('file hop: the caller proof', () => {
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite();
    await t.request('POST', '/', { body: { '@type': 'Folder', id: 'private', title: 'Private' } });
    const secret = await t.request('POST', '/private', {
      body: { '@type': 'File', id: 'secret', file: upload(BYTES, 'secret.bin', 'application/octet-stream') },
    });
    expect(secret.status).toBe(201);
    const image = await t.request('POST', '/private', {
      body: { '@type': 'Image', id: 'pic', image: upload(png(120, 80), 'pic.png', 'image/png') },
    });
    expect(image.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  /** What the gateway forwards for the Manager's download of the private file. */
  const managerDownload: FileHopRequest = {
    context_path: ['private', 'secret'],
    endpoint: 'download',
    sub_path: ['file'],
    principal: { id: 'admin', roles: ['Manager'], groups: [], fullname: '' },
    public_url: 'http://localhost',
    request_id: 'forged-1',
  };

  /** A request straight to content's file port, past the gateway. */
  const direct = (headers: Record<string, string>, method = 'GET') =>
    fetch(`http://${t.suite.contentFiles}${FILE_HOP_PATH}`, { method, headers });

  const signed = (claim: string, issuedAt?: number, requestId = managerDownload.request_id) =>
    signHttpProof({ method: 'GET', path: FILE_HOP_PATH, requestId, claim, issuedAt });

  it('refuses a forged forwarded request (a Manager) without a proof: 401, nothing served', async () => {
    const response = await direct({ 'x-cms-file-request': encodeFileHopRequest(managerDownload) });
    expect(response.status).toBe(401);
    expect(response.headers.get('connection')).toBe('close');
    expect((await response.json()).type).toBe('Unauthorized');
  });

  it('refuses a proof older than its window: 403', async () => {
    const claim = encodeFileHopRequest(managerDownload);
    const response = await direct({
      'x-cms-file-request': claim,
      'x-request-id': managerDownload.request_id,
      [SERVICE_PROOF_KEY]: signed(claim, Date.now() - SERVICE_PROOF_WINDOW_MS - 5_000),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).type).toBe('Forbidden');
  });

  it("refuses a proof made for another request (an anonymous caller's) beside a Manager's claim: 403", async () => {
    const anonymous = encodeFileHopRequest({ ...managerDownload, principal: null });
    const response = await direct({
      'x-cms-file-request': encodeFileHopRequest(managerDownload),
      'x-request-id': managerDownload.request_id,
      [SERVICE_PROOF_KEY]: signed(anonymous),
    });
    expect(response.status).toBe(403);
  });

  it('refuses a proof of another request id or method, or a malformed one: 403', async () => {
    const claim = encodeFileHopRequest(managerDownload);
    const headers = { 'x-cms-file-request': claim, 'x-request-id': managerDownload.request_id };
    expect((await direct({ ...headers, [SERVICE_PROOF_KEY]: signed(claim, undefined, 'other') })).status).toBe(403);
    expect((await direct({ ...headers, [SERVICE_PROOF_KEY]: signed(claim) }, 'HEAD')).status).toBe(403);
    expect((await direct({ ...headers, [SERVICE_PROOF_KEY]: 'v1.1.abc' })).status).toBe(403);
  });

  it('serves a request whose proof holds (as the gateway signs)', async () => {
    const claim = encodeFileHopRequest(managerDownload);
    const response = await direct({
      'x-cms-file-request': claim,
      'x-request-id': managerDownload.request_id,
      [SERVICE_PROOF_KEY]: signed(claim),
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it('answers a forged upload PATCH before its body has come, and closes the connection', async () => {
    const claim = encodeFileHopRequest({
      ...managerDownload,
      context_path: ['private'],
      endpoint: 'tus-upload',
      sub_path: ['0123456789abcdef0123456789abcdef'],
    });
    const [status, closed] = await new Promise<[number, Promise<void>]>((resolve, reject) => {
      const request = httpRequest(`http://${t.suite.contentFiles}${FILE_HOP_PATH}`, {
        method: 'PATCH',
        headers: {
          'x-cms-file-request': claim,
          ...TUS,
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(1024 * 1024),
        },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        response.resume();
        resolve([response.statusCode ?? 0, new Promise((done) => response.socket.once('close', () => done()))]);
      });
      // A first part only: the rest never comes, so an answer shows the body was not waited for.
      request.write(Buffer.alloc(1024));
    });
    expect(status).toBe(401);
    await closed;
  });

  it("the gateway's own requests pass: downloads, image scales, a resumable upload", async () => {
    const download = await t.request('GET', '/private/secret/@@download/file', { headers: { Range: 'bytes=0-9' } });
    expect(download.status).toBe(206);
    expect(Buffer.from(await download.arrayBuffer()).equals(BYTES.subarray(0, 10))).toBe(true);
    expect((await t.request('HEAD', '/private/secret/@@download/file')).status).toBe(200);
    const scale = await t.request('GET', '/private/pic/@@images/image/thumb');
    expect(scale.status).toBe(200);
    expect(scale.headers.get('content-type')).toBe('image/png');

    const announced = await t.request('POST', '/private/@tus-upload', {
      headers: { ...TUS, 'Upload-Length': String(BYTES.length), 'Upload-Metadata': 'filename dXAuYmlu' },
    });
    expect(announced.status).toBe(201);
    const location = new URL(announced.headers.get('location')!).pathname;
    expect((await t.request('OPTIONS', location, { headers: TUS })).status).toBe(204);
    const patched = await fetch(t.url(location), {
      method: 'PATCH',
      headers: {
        Authorization: ADMIN,
        ...TUS,
        'Content-Type': 'application/offset+octet-stream',
        'Upload-Offset': '0',
      },
      body: BYTES.subarray(0, 1000),
    });
    expect(patched.status).toBe(204);
    const offset = await t.request('HEAD', location, { headers: TUS });
    expect(offset.status).toBe(200);
    expect(offset.headers.get('upload-offset')).toBe('1000');
  });
});

describe("file hop: the proof of gateway workers (their own processes, the suite's key)", () => {
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite({ GATEWAY_WORKERS: '1', PORT: String(await freePort()) });
    await pollUntil(async () => (await t.request('GET', '/readyz').catch(() => null))?.status === 200, 20_000, {
      intervalMs: 20,
      description: 'the gateway worker answering',
    });
  }, 60_000);
  afterAll(async () => {
    await t.stop();
  });

  it('downloads through a worker', async () => {
    const created = await t.request('POST', '/', {
      body: { '@type': 'File', id: 'data', file: upload(BYTES, 'data.bin', 'application/octet-stream') },
    });
    expect(created.status).toBe(201);
    const download = await t.request('GET', '/data/@@download/file');
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(BYTES)).toBe(true);
  });
});
