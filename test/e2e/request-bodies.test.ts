import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const KiB = 1024;

/**
 * Request bodies through the real services (hardening finding 9): the gateway reads a body only after it knows
 * the caller and does not parse it; each service parses it once and answers malformed JSON with 400.
 */
describe('request bodies through the gateway and the services', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

  beforeAll(async () => {
    t = await startTestSuite();
    const created = await t.request('POST', '/', { body: { '@type': 'Document', id: 'doc', title: 'Doc' } });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  async function expectError(response: Response, status: number, type: string): Promise<void> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json(response)).toMatchObject({ type, message: expect.any(String) });
  }

  it.each([
    ['POST', '/'],
    ['PATCH', '/doc'],
    ['POST', '/doc/@workflow/publish'],
    ['POST', '/@copy'],
    ['PATCH', '/@registry'],
    ['POST', '/@users'],
    ['POST', '/@groups'],
    ['POST', '/@login'],
  ])('malformed JSON to %s %s is 400 from the service that owns it', async (method, path) => {
    const auth = path === '/@login' ? null : undefined;
    await expectError(await t.request(method, path, { body: '{"title": ', auth }), 400, 'BadRequest');
  });

  it('a body nested 20,000 deep is 400 and creates nothing (it was a 500: the store copies documents recursively)', async () => {
    const depth = 20_000;
    const v = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const criterion = `{"i":"portal_type","o":"cms.app.querystring.operation.selection.any","v":${v}}`;
    const body = `{"@type":"Collection","id":"deep","title":"Deep","query":[${criterion}]}`;
    await expectError(await t.request('POST', '/', { body }), 400, 'BadRequest');
    expect((await t.request('GET', '/deep')).status).toBe(404);
  });

  it('an anonymous write is refused for its caller before its body is looked at', async () => {
    await expectError(await t.request('POST', '/', { body: '{"title": ', auth: null }), 401, 'Unauthorized');
    await expectError(
      await t.request('POST', '/', { body: { '@type': 'Document', text: 'x'.repeat(100 * KiB) }, auth: null }),
      401,
      'Unauthorized',
    );
  });

  it('an anonymous @login body over 64 KiB is 413; an ordinary one logs in', async () => {
    await expectError(
      await t.request('POST', '/@login', { body: { login: 'admin', password: 'x'.repeat(64 * KiB) }, auth: null }),
      413,
      'PayloadTooLarge',
    );
    const login = await t.request('POST', '/@login', { body: { login: 'admin', password: 'admin' }, auth: null });
    expect(login.status).toBe(200);
    expect(await json(login)).toMatchObject({ token: expect.any(String) });
  });

  it('an authenticated caller sends a body larger than the anonymous limit', async () => {
    const data = `<p>${'d'.repeat(100 * KiB)}</p>`;
    const text = { 'content-type': 'text/html', encoding: 'utf-8', data };
    const response = await t.request('PATCH', '/doc', { body: { text } });
    expect(response.status).toBeLessThan(300);
    expect((await json(await t.request('GET', '/doc'))).text).toMatchObject({ data });
  });
});
