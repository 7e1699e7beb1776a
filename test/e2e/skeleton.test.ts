import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/** The walking skeleton through the gateway, in embedded mode. */
describe('content slice through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  it('serves the site root of a new site at /', async () => {
    const response = await t.request('GET', '/', { auth: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const root = await json(response);
    expect(root).toMatchObject({
      '@id': t.suite.publicUrl,
      '@type': 'Site Root',
      title: 'Site',
      is_folderish: true,
      review_state: null,
      parent: {},
      items_total: expect.any(Number),
    });
    expect(root.UID).toMatch(/^[0-9a-f]{32}$/);
    expect(Array.isArray(root.items)).toBe(true);
  });

  it('creates, reads, updates and deletes a folder and a document', async () => {
    const created = await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Team Folder' } });
    expect(created.status).toBe(201);
    const folderUrl = `${t.suite.publicUrl}/team-folder`;
    expect(created.headers.get('location')).toBe(folderUrl);
    const folder = await json(created);
    expect(folder).toMatchObject({
      '@id': folderUrl,
      '@type': 'Folder',
      id: 'team-folder',
      is_folderish: true,
      items: [],
      items_total: 0,
    });

    const docResponse = await t.request('POST', '/team-folder', {
      body: { '@type': 'Document', title: 'Quarterly Report', description: 'numbers' },
    });
    expect(docResponse.status).toBe(201);
    const doc = await json(docResponse);
    for (const field of [
      '@id',
      '@type',
      'UID',
      'id',
      'title',
      'description',
      'created',
      'modified',
      'review_state',
      'parent',
      'is_folderish',
    ]) {
      expect(doc).toHaveProperty([field]);
    }
    expect(doc).toMatchObject({
      '@id': `${folderUrl}/quarterly-report`,
      '@type': 'Document',
      id: 'quarterly-report',
      title: 'Quarterly Report',
      description: 'numbers',
      review_state: 'private',
      is_folderish: false,
      creators: ['admin'],
      parent: { '@id': folderUrl, '@type': 'Folder', title: 'Team Folder', review_state: 'private' },
    });
    expect(doc.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(doc).not.toHaveProperty('items');

    const listed = await json(await t.request('GET', '/team-folder'));
    expect(listed.items_total).toBe(1);
    expect(listed.items[0]).toEqual({
      '@id': `${folderUrl}/quarterly-report`,
      '@type': 'Document',
      description: 'numbers',
      review_state: 'private',
      title: 'Quarterly Report',
      type_title: 'Page',
    });

    const patched = await t.request('PATCH', '/team-folder/quarterly-report', { body: { title: 'Annual Report' } });
    expect(patched.status).toBe(204);
    expect(await patched.text()).toBe('');
    const reread = await json(await t.request('GET', '/team-folder/quarterly-report'));
    expect(reread).toMatchObject({ title: 'Annual Report', description: 'numbers', UID: doc.UID });

    const represented = await t.request('PATCH', '/team-folder/quarterly-report', {
      body: { description: 'more numbers' },
      headers: { Prefer: 'return=representation' },
    });
    expect(represented.status).toBe(200);
    expect(await json(represented)).toMatchObject({ title: 'Annual Report', description: 'more numbers' });

    const deleted = await t.request('DELETE', '/team-folder');
    expect(deleted.status).toBe(204);
    expect((await t.request('GET', '/team-folder')).status).toBe(404);
    expect((await t.request('GET', '/team-folder/quarterly-report')).status).toBe(404);
  });

  it('finds a new document with @search in the very next request, and follows edits and deletes', async () => {
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Search Space' } });
    const created = await t.request('POST', '/search-space', {
      body: { '@type': 'Document', title: 'Zebra crossing' },
    });
    expect(created.status).toBe(201);

    const found = await json(await t.request('GET', '/@search?SearchableText=zebra'));
    expect(found).toMatchObject({ '@id': `${t.suite.publicUrl}/@search`, items_total: 1 });
    expect(found.items[0]).toMatchObject({
      '@id': `${t.suite.publicUrl}/search-space/zebra-crossing`,
      '@type': 'Document',
      title: 'Zebra crossing',
    });

    const prefix = await json(await t.request('GET', '/@search?SearchableText=zeb*'));
    expect(prefix.items_total).toBe(1);
    // No wildcard is added by the service.
    expect((await json(await t.request('GET', '/@search?SearchableText=zeb'))).items_total).toBe(0);

    await t.request('PATCH', '/search-space/zebra-crossing', { body: { description: 'striped horses' } });
    expect((await json(await t.request('GET', '/@search?SearchableText=striped'))).items_total).toBe(1);
    await t.request('PATCH', '/search-space/zebra-crossing', {
      body: { title: 'Giraffe crossing', description: 'spotted' },
    });
    expect((await json(await t.request('GET', '/@search?SearchableText=striped'))).items_total).toBe(0);
    expect((await json(await t.request('GET', '/@search?SearchableText=giraffe'))).items_total).toBe(1);

    // Searches are limited to the context.
    expect((await json(await t.request('GET', '/search-space/@search?SearchableText=giraffe'))).items_total).toBe(1);
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Elsewhere' } });
    expect((await json(await t.request('GET', '/elsewhere/@search?SearchableText=giraffe'))).items_total).toBe(0);

    await t.request('DELETE', '/search-space');
    expect((await json(await t.request('GET', '/@search?SearchableText=giraffe'))).items_total).toBe(0);
  });

  it('makes ids unique, and refuses a taken explicit id with 409', async () => {
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Ids' } });
    const first = await json(await t.request('POST', '/ids', { body: { '@type': 'Document', title: 'Same Title' } }));
    const second = await json(await t.request('POST', '/ids', { body: { '@type': 'Document', title: 'Same Title' } }));
    expect([first.id, second.id]).toEqual(['same-title', 'same-title-1']);
    const explicit = await t.request('POST', '/ids', { body: { '@type': 'Document', id: 'same-title', title: 'x' } });
    expect(explicit.status).toBe(409);
    expect(await json(explicit)).toMatchObject({ type: 'Conflict' });
    expect((await json(await t.request('GET', '/ids'))).items_total).toBe(2);
  });

  it('batches folder items with batching links', async () => {
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Many' } });
    for (let i = 0; i < 12; i++) await t.request('POST', '/many', { body: { '@type': 'Document', title: `Doc ${i}` } });
    const page = await json(await t.request('GET', '/many?b_size=5&b_start=5'));
    expect(page.items_total).toBe(12);
    expect(page.items.map((i: { title: string }) => i.title)).toEqual(['Doc 5', 'Doc 6', 'Doc 7', 'Doc 8', 'Doc 9']);
    const base = `${t.suite.publicUrl}/many`;
    expect(page.batching).toEqual({
      '@id': `${base}?b_size=5&b_start=5`,
      first: `${base}?b_start=0&b_size=5`,
      last: `${base}?b_start=10&b_size=5`,
      next: `${base}?b_start=10&b_size=5`,
      prev: `${base}?b_start=0&b_size=5`,
    });
    expect((await json(await t.request('GET', '/many'))).batching).toBeUndefined();
    expect((await t.request('GET', '/many?b_size=abc')).status).toBe(400);
  });

  it('accepts the ++api++ prefix and never puts it in @id', async () => {
    const root = await json(await t.request('GET', '/++api++/'));
    expect(root['@id']).toBe(t.suite.publicUrl);
    await t.request('POST', '/++api++/', { body: { '@type': 'Folder', title: 'Api Prefixed' } });
    const folder = await json(await t.request('GET', '/++api++//api-prefixed'));
    expect(folder['@id']).toBe(`${t.suite.publicUrl}/api-prefixed`);
  });

  it('carries the request id in and out', async () => {
    const given = await t.request('GET', '/', { headers: { 'X-Request-Id': 'trace-abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc-123');
    const generated = await t.request('GET', '/');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers /healthz and /readyz', async () => {
    expect((await t.request('GET', '/healthz')).status).toBe(200);
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(await json(ready)).toMatchObject({
      status: 'ready',
      services: { content: true, identity: true, search: true, discussion: true, config: true },
    });
  });
});
