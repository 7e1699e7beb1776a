import http from 'node:http';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * CORS and virtual hosting through the gateway: browsers on allowed origins may call the API (Volto's direct
 * mode), and `@id`s follow the public host a request names when that host is allowed (Volto's seamless mode,
 * an ingress with several hosts); nothing else ever appears in a response.
 */

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with headers fetch() may not set (Host). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const ADMIN = 'Basic ' + Buffer.from('admin:admin').toString('base64');

describe('CORS and public hosts', () => {
  describe('with allowed origins and hosts, behind one trusted proxy', () => {
    let t: TestSuite;
    let port: number;

    beforeAll(async () => {
      t = await startTestSuite({
        PUBLIC_URL: 'http://cms.internal:8080',
        PUBLIC_HOSTS: '127.0.0.1:3310, www.example.org',
        TRUST_PROXY: '1',
        CORS_ALLOW_ORIGINS: 'http://127.0.0.1:3310',
      });
      port = t.suite.port;
      await t.request('POST', '/', { body: { '@type': 'Document', id: 'page', title: 'Page' } });
      await t.request('POST', '/page/@workflow/publish');
    });
    afterAll(async () => {
      await t.stop();
    });

    it('answers a preflight from an allowed origin with what it may send', async () => {
      const preflight = await raw(port, 'OPTIONS', '/page/@lock', {
        Origin: 'http://127.0.0.1:3310',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, content-type, lock-token',
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': 'http://127.0.0.1:3310',
        'access-control-allow-credentials': 'true',
        'access-control-max-age': '3600',
      });
      expect(preflight.headers['access-control-allow-methods']).toMatch(/PATCH/);
      expect(preflight.headers['access-control-allow-headers']).toMatch(/Lock-Token/);
    });

    it('adds CORS headers to answers for an allowed origin, none for another', async () => {
      const allowed = await raw(port, 'GET', '/page', { Origin: 'http://127.0.0.1:3310', Accept: 'application/json' });
      expect(allowed.status).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3310');
      expect(allowed.headers['access-control-expose-headers']).toMatch(/Location/);
      // A browser's client may read whether a search answered behind the writes.
      expect(allowed.headers['access-control-expose-headers']).toMatch(/X-Search-Lag/);
      expect(allowed.headers.vary).toMatch(/Origin/);

      const other = await raw(port, 'GET', '/page', { Origin: 'http://evil.example', Accept: 'application/json' });
      expect(other.status).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const otherPreflight = await raw(port, 'OPTIONS', '/page', {
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'DELETE',
      });
      expect(otherPreflight.headers['access-control-allow-origin']).toBeUndefined();
    });

    it("builds @ids on an allowed Host (Volto's seamless proxy)", async () => {
      const seamless = await raw(port, 'GET', '/++api++/page', { Host: '127.0.0.1:3310', Accept: 'application/json' });
      expect(seamless.status).toBe(200);
      const body = JSON.parse(seamless.body);
      expect(body['@id']).toBe('http://127.0.0.1:3310/page');
      expect(body.parent['@id']).toBe('http://127.0.0.1:3310');
    });

    it('takes X-Forwarded-Host and -Proto from the trusted proxy, also for Location', async () => {
      const proxied = {
        'X-Forwarded-Host': 'www.example.org',
        'X-Forwarded-Proto': 'https',
        Accept: 'application/json',
      };
      const created = await raw(
        port,
        'POST',
        '/',
        { ...proxied, Authorization: ADMIN, 'Content-Type': 'application/json' },
        { '@type': 'Document', id: 'proxied', title: 'Proxied' },
      );
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe('https://www.example.org/proxied');
      expect(JSON.parse(created.body)['@id']).toBe('https://www.example.org/proxied');
      const page = await raw(port, 'GET', '/page', proxied);
      expect(JSON.parse(page.body)['@id']).toBe('https://www.example.org/page');
    });

    it('never puts a host nobody allowed in a response', async () => {
      for (const headers of [
        { Host: 'attacker.example' },
        { 'X-Forwarded-Host': 'attacker.example', 'X-Forwarded-Proto': 'https' },
        { Host: '127.0.0.1:3310', 'X-Forwarded-Host': 'attacker.example' },
      ]) {
        const answer = await raw(port, 'GET', '/page', { ...headers, Accept: 'application/json' });
        expect(answer.body).not.toMatch(/attacker/);
        expect(JSON.parse(answer.body)['@id']).toBe('http://cms.internal:8080/page');
      }
    });
  });

  describe('by default', () => {
    let t: TestSuite;

    beforeAll(async () => {
      t = await startTestSuite();
    });
    afterAll(async () => {
      await t.stop();
    });

    it('has CORS off (a preflight is 405, no CORS headers) and builds every @id on PUBLIC_URL', async () => {
      const preflight = await raw(t.suite.port, 'OPTIONS', '/', {
        Origin: 'http://127.0.0.1:3310',
        'Access-Control-Request-Method': 'GET',
      });
      expect(preflight.status).toBe(405);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const answer = await raw(t.suite.port, 'GET', '/', { Host: 'www.example.org', Accept: 'application/json' });
      expect(JSON.parse(answer.body)['@id']).toBe(t.suite.publicUrl);
    });
  });
});
