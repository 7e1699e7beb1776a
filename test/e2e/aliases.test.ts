import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** `@aliases`: added and removed on an object, the site-wide list with its filters, and the rules a path obeys. */
describe('@aliases through the gateway', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as any;

  beforeAll(async () => {
    t = await startTestSuite();
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'page', title: 'Page' } });
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'other', title: 'Other' } });
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'moved', title: 'Moved' } });
    await t.request('POST', '/@users', { body: { username: 'mia', password: 'secret-mia', roles: ['Member'] } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('POST adds aliases to an object, GET lists them, DELETE removes them', async () => {
    const added = await t.request('POST', '/page/@aliases', {
      body: { items: [{ path: '/old-page' }, { path: '/archive//page/' }] },
    });
    expect(added.status).toBe(204);
    const listed = await json(await t.request('GET', '/page/@aliases'));
    expect(listed.items.map((i: any) => i.path)).toEqual(['/old-page', '/archive/page']);
    expect(listed.items[0]).toMatchObject({ manual: true, 'redirect-to': '/page' });
    expect(listed.items_total).toBe(2);

    expect((await t.request('DELETE', '/page/@aliases', { body: { items: [{ path: '/old-page' }] } })).status).toBe(
      204,
    );
    expect((await json(await t.request('GET', '/page/@aliases'))).items.map((i: any) => i.path)).toEqual([
      '/archive/page',
    ]);
  });

  it('refuses a path that is an object, another object’s alias or no site path, and adds none of the batch', async () => {
    await t.request('POST', '/other/@aliases', { body: { items: [{ path: '/taken' }] } });
    for (const path of ['/page', '/taken', 'relative', '/a/../b', '/@search']) {
      const response = await t.request('POST', '/page/@aliases', { body: { items: [{ path: '/fine' }, { path }] } });
      expect(response.status).toBe(400);
      expect((await json(response)).type).toBe('BadRequest');
    }
    expect((await json(await t.request('GET', '/page/@aliases'))).items.map((i: any) => i.path)).not.toContain('/fine');
    const notOwn = await t.request('DELETE', '/page/@aliases', { body: { items: [{ path: '/taken' }] } });
    expect(notOwn.status).toBe(400);
  });

  it('a rename leaves the old path as an automatic alias', async () => {
    expect((await t.request('PATCH', '/moved', { body: { id: 'renamed' } })).status).toBe(204);
    expect((await json(await t.request('GET', '/renamed/@aliases'))).items).toEqual([
      expect.objectContaining({ path: '/moved', manual: false, 'redirect-to': '/renamed' }),
    ]);
  });

  it('an object’s list takes the empty filters and batch Volto’s URL management panel sends', async () => {
    const response = await t.request('GET', '/renamed/@aliases?b_size=&b_start=0&datetime=&manual=&q=');
    expect(response.status).toBe(200);
    expect((await json(response)).items.map((i: any) => i.path)).toEqual(['/moved']);
    expect((await t.request('GET', '/renamed/@aliases?b_size=0')).status).toBe(400);
  });

  it('the site-wide list on the root: every alias with its target, filtered by q and manual, batched', async () => {
    const response = await t.request('GET', '/@aliases');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body['@id']).toMatch(/^http:\/\/[^/]+\/@aliases$/);
    const byPath = Object.fromEntries(body.items.map((i: any) => [i.path, i]));
    expect(byPath['/archive/page']).toMatchObject({ 'redirect-to': '/page', manual: true });
    expect(byPath['/moved']).toMatchObject({ 'redirect-to': '/renamed', manual: false });
    expect(typeof byPath['/moved'].datetime).toBe('string');
    expect(body.items_total).toBe(body.items.length);

    const manualOnly = await json(await t.request('GET', '/@aliases?manual=false'));
    expect(manualOnly.items.map((i: any) => i.path)).toEqual(['/moved']);
    const q = await json(await t.request('GET', '/@aliases?q=/arch'));
    expect(q.items.map((i: any) => i.path)).toEqual(['/archive/page']);
    const batched = await json(await t.request('GET', '/@aliases?b_size=1'));
    expect(batched.items).toHaveLength(1);
    expect(batched.batching.next).toContain('b_start=1');
  });

  it('POST on the root with redirect-to adds an alias to that object; DELETE on the root removes any object’s', async () => {
    const added = await t.request('POST', '/@aliases', {
      body: { items: [{ path: '/promo', 'redirect-to': '/other', datetime: '2026-01-02T03:04:05Z' }] },
    });
    expect(added.status).toBe(204);
    expect((await json(await t.request('GET', '/other/@aliases'))).items.map((i: any) => i.path)).toContain('/promo');
    const listed = await json(await t.request('GET', '/@aliases?q=/promo'));
    expect(listed.items).toEqual([
      { path: '/promo', 'redirect-to': '/other', manual: true, datetime: '2026-01-02T03:04:05.000Z' },
    ]);
    const noTarget = await t.request('POST', '/@aliases', {
      body: { items: [{ path: '/x', 'redirect-to': '/nope' }] },
    });
    expect(noTarget.status).toBe(400);

    expect((await t.request('DELETE', '/@aliases', { body: { items: [{ path: '/promo' }] } })).status).toBe(204);
    expect((await json(await t.request('GET', '/other/@aliases'))).items.map((i: any) => i.path)).not.toContain(
      '/promo',
    );
  });

  it('the site-wide list is for Site Administrators; adding needs Modify on the object', async () => {
    const mia = basic('mia', 'secret-mia');
    expect((await t.request('GET', '/@aliases', { auth: mia })).status).toBe(403);
    expect((await t.request('GET', '/@aliases', { auth: null })).status).toBe(401);
    const refused = await t.request('POST', '/page/@aliases', { auth: mia, body: { items: [{ path: '/mine' }] } });
    expect(refused.status).toBe(403);
  });

  it('validates the body: items required, unknown members refused', async () => {
    expect((await t.request('POST', '/page/@aliases', { body: {} })).status).toBe(400);
    expect((await t.request('POST', '/page/@aliases', { body: { items: [{ path: '/a', extra: 1 }] } })).status).toBe(
      400,
    );
    expect((await t.request('GET', '/@aliases?start=yesterday')).status).toBe(400);
  });
});
