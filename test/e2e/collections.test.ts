import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Collections through the gateway (specification: Query-builder search; transcripts `collection*`): `GET` of a
 * Collection answers its query's results as `items`, ordered and capped as it says, batched, only what the
 * caller may view; `@querystring-search` on a Collection without a query of its own uses the Collection's.
 */

const OP = 'cms.app.querystring.operation.';
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('collections', () => {
  let t: TestSuite;
  const url = (path: string) => t.suite.publicUrl + path;

  const titles = (body: Record<string, any>) => body.items.map((item: { title: string }) => item.title);

  beforeAll(async () => {
    t = await startTestSuite();
    await t.adminJson('POST', '/', { '@type': 'Folder', id: 'docs', title: 'Docs' });
    for (const [id, title] of [
      ['one', 'Alpha'],
      ['two', 'Bravo'],
      ['three', 'Charlie'],
      ['four', 'Delta'],
    ]) {
      await t.adminJson('POST', '/docs', { '@type': 'Document', id, title });
    }
    await t.adminJson('POST', '/docs', { '@type': 'News Item', id: 'news', title: 'Echo news' });
    await t.adminJson('POST', '/docs/one/@workflow/publish');
    await t.adminJson('POST', '/docs/three/@workflow/publish');
    await t.adminJson('POST', '/', {
      '@type': 'Collection',
      id: 'pages',
      title: 'Pages',
      query: [
        { i: 'portal_type', o: `${OP}selection.any`, v: ['Document'] },
        { i: 'path', o: `${OP}string.absolutePath`, v: '/docs' },
      ],
      sort_on: 'sortable_title',
      sort_reversed: true,
      limit: 3,
    });
    await t.adminJson('POST', '/pages/@workflow/publish');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers its results as items: summaries, ordered by sort_on / sort_reversed, capped by limit', async () => {
    const body = await t.adminJson('GET', '/pages');
    expect(body['@type']).toBe('Collection');
    expect(body.items_total).toBe(3);
    expect(titles(body)).toEqual(['Delta', 'Charlie', 'Bravo']);
    expect(body.items[0]).toEqual({
      '@id': url('/docs/four'),
      '@type': 'Document',
      description: '',
      review_state: 'private',
      title: 'Delta',
      type_title: 'Page',
    });
    expect(body.item_count).toBe(30);
    expect(body.limit).toBe(3);
  });

  it('batches the items with b_start and b_size, with batching links', async () => {
    const body = await t.adminJson('GET', '/pages?b_size=2&b_start=2');
    expect(titles(body)).toEqual(['Bravo']);
    expect(body.items_total).toBe(3);
    expect(body.batching.first).toBe(url('/pages?b_start=0&b_size=2'));
    expect(body.batching.prev).toBe(url('/pages?b_start=0&b_size=2'));
  });

  it('shows a caller only the results they may view', async () => {
    const body = await json(await t.request('GET', '/pages', { auth: null }));
    expect(titles(body)).toEqual(['Charlie', 'Alpha']);
    expect(body.items_total).toBe(2);
  });

  it('follows changes to its query and to the content', async () => {
    await t.adminJson('POST', '/docs', { '@type': 'Document', id: 'five', title: 'Foxtrot' });
    expect(titles(await t.adminJson('GET', '/pages'))).toEqual(['Foxtrot', 'Delta', 'Charlie']);
    await t.adminJson('PATCH', '/pages', { sort_reversed: false, limit: 10 });
    expect(titles(await t.adminJson('GET', '/pages'))).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Foxtrot']);
    await t.adminJson('PATCH', '/pages', { query: [{ i: 'portal_type', o: `${OP}selection.any`, v: ['News Item'] }] });
    expect(titles(await t.adminJson('GET', '/pages'))).toEqual(['Echo news']);
    await t.adminJson('PATCH', '/pages', {
      query: [
        { i: 'portal_type', o: `${OP}selection.any`, v: ['Document'] },
        { i: 'path', o: `${OP}string.absolutePath`, v: '/docs' },
      ],
      sort_reversed: true,
      limit: 3,
    });
  });

  it('lists nothing without a query', async () => {
    await t.adminJson('POST', '/', { '@type': 'Collection', id: 'empty', title: 'Empty' });
    const body = await t.adminJson('GET', '/empty');
    expect(body.items).toEqual([]);
    expect(body.items_total).toBe(0);
  });

  it('still opens, listing nothing, when its stored query or sort cannot be read', async () => {
    await t.adminJson('POST', '/', {
      '@type': 'Collection',
      id: 'odd',
      title: 'Odd',
      query: [{ i: 'no_such_index', o: `${OP}string.is`, v: 'x' }],
    });
    expect((await t.adminJson('GET', '/odd')).items_total).toBe(0);
    await t.adminJson('PATCH', '/odd', {
      query: [{ i: 'portal_type', o: `${OP}selection.any`, v: ['News Item'] }],
      sort_on: 'constructor',
    });
    expect(titles(await t.adminJson('GET', '/odd'))).toEqual(['Echo news']);
  });

  it('@querystring-search on a Collection without a query uses the Collection’s', async () => {
    const body = await json(await t.request('POST', '/pages/@querystring-search', { body: {} }));
    expect(body['@id']).toBe(url('/pages/@querystring-search'));
    expect(titles(body)).toEqual(['Foxtrot', 'Delta', 'Charlie']);
    expect(body.items_total).toBe(3);
    const own = await json(
      await t.request('POST', '/pages/@querystring-search', {
        body: { query: [{ i: 'portal_type', o: `${OP}selection.any`, v: ['News Item'] }] },
      }),
    );
    expect(titles(own)).toEqual(['Echo news']);
    expect((await t.request('POST', '/docs/@querystring-search', { body: {} })).status).toBe(400);
  });
});
