import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@relations` (issue 15, item 6): relations of relation fields and links in text, listed, added and removed
 * as the original platform's endpoint and Volto's relations control panel use them; rebuilt from the store.
 */

const json = async (response: Response) => (await response.json()) as any;

describe('@relations', () => {
  let t: TestSuite;
  let base: string;
  const uid: Record<string, string> = {};

  async function add(parent: string, body: Record<string, unknown>): Promise<void> {
    const response = await t.request('POST', parent, { body });
    if (response.status !== 201) throw new Error(`POST ${parent}: ${response.status} ${await response.text()}`);
    uid[body.id as string] = (await json(response)).UID;
  }

  const summary = (id: string, title: string, state = 'private') => ({
    '@id': `${base}/${id}`,
    '@type': 'Document',
    UID: uid[id],
    description: '',
    review_state: state,
    title,
    type_title: 'Page',
  });

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '2000' });
    base = t.suite.publicUrl;
    await add('/', { '@type': 'Document', id: 'document', title: 'Test document 1' });
    await add('/', { '@type': 'Document', id: 'document-2', title: 'Test document 2' });
    await add('/', { '@type': 'Document', id: 'document-3', title: 'Test document 3' });
    await t.request('POST', '/document/@workflow/publish');
    await t.request('POST', '/document-2/@workflow/publish');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('creates relations by path and by UID (204) and lists them by source', async () => {
    const created = await t.request('POST', '/@relations', {
      body: {
        items: [
          { relation: 'relatedItems', source: '/document', target: '/document-2' },
          { relation: 'relatedItems', source: uid.document, target: uid['document-3'] },
        ],
      },
    });
    expect(created.status).toBe(204);
    const listed = await json(await t.request('GET', '/@relations?source=/document'));
    expect(listed).toEqual({
      '@id': `${base}/@relations?source=/document`,
      relations: {
        relatedItems: {
          items: [
            {
              source: summary('document', 'Test document 1', 'published'),
              target: summary('document-2', 'Test document 2', 'published'),
            },
            {
              source: summary('document', 'Test document 1', 'published'),
              target: summary('document-3', 'Test document 3'),
            },
          ],
          items_total: 2,
        },
      },
    });
    // The field itself holds them.
    const doc = await json(await t.request('GET', '/document'));
    expect(doc.relatedItems.map((r: any) => r.title)).toEqual(['Test document 2', 'Test document 3']);
  });

  it('lists by target and by relation name, with readonly and the vocabulary query for a name', async () => {
    const byTarget = await json(await t.request('GET', `/@relations?target=${uid['document-2']}`));
    expect(byTarget.relations.relatedItems.items.map((r: any) => r.source.UID)).toEqual([uid.document]);
    const byName = await json(await t.request('GET', '/@relations?relation=relatedItems'));
    expect(byName.relations.relatedItems).toMatchObject({
      items_total: 2,
      readonly: false,
      staticCatalogVocabularyQuery: null,
    });
    const none = await json(await t.request('GET', '/@relations?relation=comprisesComponentPart'));
    expect(none.relations).toEqual({
      comprisesComponentPart: { items: [], items_total: 0, readonly: false, staticCatalogVocabularyQuery: null },
    });
  });

  it('shows a relation only to callers who may view both ends', async () => {
    const anonymous = await json(await t.request('GET', '/@relations?relation=relatedItems', { auth: null }));
    expect(anonymous.relations.relatedItems.items.map((r: any) => r.target.title)).toEqual(['Test document 2']);
    const stats = await json(await t.request('GET', '/@relations', { auth: null }));
    expect(stats).toEqual({ '@id': `${base}/@relations`, broken: {}, stats: { relatedItems: 1 } });
  });

  it('lists links in text as read-only isReferencing relations', async () => {
    await add('/', {
      '@type': 'Document',
      id: 'linking',
      title: 'Linking',
      text: { data: `<a href="${base}/document">one</a>` },
    });
    const listed = await json(await t.request('GET', '/@relations?relation=isReferencing'));
    expect(listed.relations.isReferencing).toMatchObject({ items_total: 1, readonly: true });
    expect(listed.relations.isReferencing.items[0].target.UID).toBe(uid.document);
    const refused = await t.request('POST', '/@relations', {
      body: { items: [{ relation: 'isReferencing', source: '/linking', target: '/document-2' }] },
    });
    expect(refused.status).toBe(400);
  });

  it('refuses a relation to a missing object (400 naming it) and writes none of the others', async () => {
    const response = await t.request('POST', '/@relations', {
      body: {
        items: [
          { relation: 'relatedItems', source: '/document-2', target: '/document-3' },
          { relation: 'relatedItems', source: '/document-2', target: '/document-does-not-exist' },
        ],
      },
    });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.type).toBe('BadRequest');
    expect(body.errors).toEqual([{ field: 'items.1', message: 'Failed on creating a relation. Target not found.' }]);
    const listed = await json(await t.request('GET', '/@relations?source=/document-2'));
    expect(listed.relations).toEqual({});
    expect((await t.request('GET', '/@relations?source=/nowhere')).status).toBe(404);
  });

  it('refuses a relation on a source the caller may not change (403), writing nothing', async () => {
    await t.request('POST', '/@users', { body: { username: 'editor', password: 'secret-editor' } });
    const editor = 'Basic ' + Buffer.from('editor:secret-editor').toString('base64');
    // An Editor of `document-3` alone (a local role): it may change that page, not `document`.
    const shared = await t.request('POST', '/document-3/@sharing', {
      body: { entries: [{ id: 'editor', type: 'user', roles: { Editor: true } }] },
    });
    expect(shared.status).toBe(204);
    const response = await t.request('POST', '/@relations', {
      auth: editor,
      body: {
        items: [
          { relation: 'relatedItems', source: '/document-3', target: '/document' },
          { relation: 'relatedItems', source: '/document', target: '/document-3' },
        ],
      },
    });
    expect(response.status).toBe(403);
    expect((await json(await t.request('GET', '/@relations?source=/document-3'))).relations).toEqual({});
  });

  it('refuses anonymous writes (401)', async () => {
    const response = await t.request('POST', '/@relations', {
      auth: null,
      body: { items: [{ relation: 'relatedItems', source: '/document', target: '/document-2' }] },
    });
    expect(response.status).toBe(401);
  });

  it('reports broken relations, and rebuilds the index to the same relations', async () => {
    await add('/', { '@type': 'Document', id: 'short-lived', title: 'Short lived' });
    await t.request('POST', '/@relations', {
      body: { items: [{ relation: 'relatedItems', source: '/document-3', target: '/short-lived' }] },
    });
    expect((await t.request('DELETE', '/short-lived')).status).toBe(204);
    const broken = await json(await t.request('GET', '/@relations?onlyBroken=true'));
    expect(broken.relations).toEqual({
      relatedItems: { items: [[`${base}/document-3`, uid['short-lived']]], items_total: 1 },
    });
    const before = await json(await t.request('GET', '/@relations'));
    expect((await t.request('POST', '/@relations/rebuild')).status).toBe(204);
    expect(await json(await t.request('GET', '/@relations'))).toEqual(before);
    expect(before.stats).toEqual({ isReferencing: 1, relatedItems: 2 });
  });

  it('deletes relations one by one, and by source, target and name', async () => {
    const one = await t.request('DELETE', '/@relations', {
      body: { items: [{ relation: 'relatedItems', source: '/document', target: uid['document-3'] }] },
    });
    expect(one.status).toBe(204);
    const doc = await json(await t.request('GET', '/document'));
    expect(doc.relatedItems.map((r: any) => r.title)).toEqual(['Test document 2']);

    const combination = await t.request('DELETE', '/@relations', {
      body: { relation: 'relatedItems', target: '/document-2' },
    });
    expect(combination.status).toBe(204);
    const left = await json(await t.request('GET', '/@relations?relation=relatedItems'));
    expect(left.relations.relatedItems.items).toEqual([]);
    // Links in text stay: they change with the text only.
    expect(
      (await json(await t.request('GET', '/@relations?relation=isReferencing'))).relations.isReferencing.items_total,
    ).toBe(1);
  });
});
