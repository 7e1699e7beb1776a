import { request } from 'node:http';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bad input gets a clear error with the right status and the addendum's body, and changes nothing. */
describe('bad input through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ MAX_BODY_BYTES: String(64 * 1024) });
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Box' } });
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const itemsIn = async (path: string) => (await json(await t.request('GET', path))).items_total as number;

  async function expectError(response: Response, status: number, type: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(response);
    expect(body).toMatchObject({ type, message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
    return body;
  }

  it('malformed JSON is 400 and creates nothing', async () => {
    const before = await itemsIn('/box');
    await expectError(await t.request('POST', '/box', { body: '{"@type": "Document", "title": ' }), 400, 'BadRequest');
    expect(await itemsIn('/box')).toBe(before);
  });

  it('a body that breaks the schema is 400 with per-field errors and changes nothing', async () => {
    const unknownType = await expectError(
      await t.request('POST', '/box', { body: { '@type': 'Spaceship', title: 'x' } }),
      400,
      'BadRequest',
    );
    expect(unknownType.errors).toEqual([expect.objectContaining({ field: '@type' })]);
    const wrongType = await expectError(
      await t.request('POST', '/box', { body: { '@type': 'Document', title: 42 } }),
      400,
      'BadRequest',
    );
    expect(wrongType.errors).toEqual([expect.objectContaining({ field: 'title' })]);
    const unknownField = await expectError(
      await t.request('PATCH', '/box', { body: { colour: 'red' } }),
      400,
      'BadRequest',
    );
    expect(unknownField.errors?.length).toBeGreaterThan(0);
    const badId = await expectError(
      await t.request('POST', '/box', { body: { '@type': 'Document', id: '../escape', title: 'x' } }),
      400,
      'BadRequest',
    );
    expect(badId.errors).toEqual([expect.objectContaining({ field: 'id' })]);
    expect(await itemsIn('/box')).toBe(0);
    expect((await json(await t.request('GET', '/box'))).title).toBe('Box');
  });

  it('an empty POST body is an empty object (addendum §7), here missing @type', async () => {
    const response = await t.request('POST', '/box', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const body = await expectError(response, 400, 'BadRequest');
    expect(body.errors).toEqual([expect.objectContaining({ field: '@type' })]);
  });

  it('an unknown @endpoint is 404', async () => {
    await expectError(await t.request('GET', '/box/@no-such-thing'), 404, 'NotFound');
  });

  it('a missing path is 404 naming the nearest existing context', async () => {
    const body = await expectError(await t.request('GET', '/box/nothing/here'), 404, 'NotFound');
    expect(body.message).toBe(`Resource not found: ${t.suite.publicUrl}/box/nothing/here`);
    expect(body.context).toBe(`${t.suite.publicUrl}/box`);
    await expectError(await t.request('PATCH', '/ghost', { body: { title: 'x' } }), 404, 'NotFound');
    await expectError(await t.request('DELETE', '/ghost'), 404, 'NotFound');
    await expectError(
      await t.request('POST', '/ghost', { body: { '@type': 'Document', title: 'x' } }),
      404,
      'NotFound',
    );
  });

  it('traversal and private segments are refused', async () => {
    await expectError(await t.request('GET', '/box/_private'), 404, 'NotFound');
    // fetch normalises dot segments, so these go out as raw request lines.
    for (const path of ['/box/../box', '/box/%2e%2e/box', '/./box']) {
      const { status, body } = await rawGet(t.suite.port, path);
      expect(status).toBe(404);
      expect(JSON.parse(body)).toMatchObject({ type: 'NotFound' });
    }
  });

  it('a method an endpoint does not take is 405 with Allow', async () => {
    const response = await t.request('PUT', '/box', { body: { title: 'x' } });
    await expectError(response, 405, 'MethodNotAllowed');
    expect(response.headers.get('allow')).toBe('GET, POST, PATCH, DELETE');
    await expectError(await t.request('POST', '/@search', { body: {} }), 405, 'MethodNotAllowed');
  });

  it('an oversized body is 413 and creates nothing', async () => {
    const before = await itemsIn('/box');
    const huge = { '@type': 'Document', title: 'big', description: 'x'.repeat(100 * 1024) };
    await expectError(await t.request('POST', '/box', { body: huge }), 413, 'PayloadTooLarge');
    expect(await itemsIn('/box')).toBe(before);
  });

  it('a bad search parameter is 400', async () => {
    await expectError(await t.request('GET', '/@search?sort_on=nonsense'), 400, 'BadRequest');
    await expectError(await t.request('GET', '/@search?path.depth=-1'), 400, 'BadRequest');
  });

  it('the site root cannot be deleted', async () => {
    await expectError(await t.request('DELETE', '/'), 400, 'BadRequest');
    expect((await t.request('GET', '/')).status).toBe(200);
  });
});

describe('authentication through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ADMIN_PASSWORD: 'correct horse' });
  });
  afterAll(async () => {
    await t.stop();
  });

  const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

  it('anonymous writes are 401 with a challenge; nothing is created', async () => {
    const response = await t.request('POST', '/', { auth: null, body: { '@type': 'Document', title: 'Sneaky' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await response.json()).toMatchObject({ type: 'Unauthorized' });
    expect((await t.request('GET', '/sneaky', { auth: null })).status).toBe(404);
  });

  it('wrong credentials are 401 even for reads', async () => {
    for (const auth of [basic('admin', 'wrong'), basic('nobody', 'correct horse'), 'Basic !!!', 'Digest abc']) {
      const response = await t.request('GET', '/', { auth });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  it('the administrator from ADMIN_PASSWORD may write', async () => {
    const response = await t.request('POST', '/', {
      auth: basic('admin', 'correct horse'),
      body: { '@type': 'Document', title: 'Allowed' },
    });
    expect(response.status).toBe(201);
    expect((await response.json()).creators).toEqual(['admin']);
  });
});

describe('persistence across a restart', () => {
  it('keeps content, the site root and the index after the suite stops and starts again on the same data', async () => {
    const first = await startTestSuite();
    const root = (await (await first.request('GET', '/')).json()) as { UID: string };
    expect((await first.request('POST', '/', { body: { '@type': 'Document', title: 'Survivor' } })).status).toBe(201);
    await first.stop({ keepData: true });

    const second = await startTestSuite({}, first.dataDir);
    try {
      const again = (await (await second.request('GET', '/')).json()) as { UID: string; items: { title: string }[] };
      expect(again.UID).toBe(root.UID);
      expect(again.items.map((i) => i.title)).toEqual(['Survivor']);
      const found = (await (await second.request('GET', '/@search?SearchableText=survivor')).json()) as {
        items_total: number;
      };
      expect(found.items_total).toBe(1);
    } finally {
      await second.stop();
    }
  });
});
