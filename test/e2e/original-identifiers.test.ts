import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * The original identifiers (issue 16, item 6; addendum §8): always taken on input as aliases of the neutral ones,
 * and emitted instead of them with `ORIGINAL_IDENTIFIERS=true`. User content is never rewritten.
 */
const json = async (response: Response) => (await response.json()) as any;

/** A page whose user content looks like identifiers: none of it may change. */
const LOOKALIKE = {
  '@type': 'Document',
  id: 'lookalike',
  title: 'cms.app.vocabularies.Keywords',
  description: 'Site Root',
  subjects: ['cms.site_title', 'cms_setup'],
  blocks: {
    b1: { '@type': 'slate', plaintext: 'cms.app.vocabularies.Keywords' },
    b2: {
      '@type': 'listing',
      querystring: {
        query: [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Site Root'] }],
      },
    },
  },
  blocks_layout: { items: ['b1', 'b2'] },
};

function inputAliases(suite: () => TestSuite) {
  const t = () => suite();

  it('takes the original vocabulary names', async () => {
    const response = await t().request('GET', '/@vocabularies/plone.app.vocabularies.Keywords');
    expect(response.status).toBe(200);
  });

  it('takes `Plone Site` for the site root’s type', async () => {
    expect((await t().request('GET', '/@types/Plone%20Site')).status).toBe(200);
  });

  it('takes `dexterity-types` for the types panel', async () => {
    expect((await t().request('GET', '/@controlpanels/dexterity-types')).status).toBe(200);
    expect((await t().request('GET', '/@controlpanels/dexterity-types/Document')).status).toBe(200);
  });

  it('takes registry records by their original names, in the path and in a PATCH', async () => {
    const patched = await t().request('PATCH', '/@registry', { body: { 'plone.site_title': 'Original names' } });
    expect(patched.status).toBe(204);
    expect(await json(await t().request('GET', '/@registry/plone.site_title'))).toBe('Original names');
    expect(await json(await t().request('GET', '/@registry/cms.site_title'))).toBe('Original names');
  });

  it('takes the original query operators', async () => {
    const response = await t().request('POST', '/@querystring-search', {
      body: {
        query: [{ i: 'portal_type', o: 'plone.app.querystring.operation.selection.any', v: ['Document'] }],
      },
    });
    expect(response.status).toBe(200);
    expect((await json(response)).items.map((i: any) => i['@id'])).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/lookalike$/)]),
    );
  });

  it('takes `volto.blocks` for the blocks behavior in the types panel', async () => {
    const response = await t().request('PATCH', '/@controlpanels/dexterity-types/Link', {
      body: { 'volto.blocks': true },
    });
    expect(response.status).toBe(204);
  });
}

describe('original identifiers: the default emits the neutral names and takes both', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    expect((await t.request('POST', '/', { body: LOOKALIKE })).status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('emits the neutral names', async () => {
    const root = await json(await t.request('GET', '/?expand=actions'));
    expect(root['@type']).toBe('Site Root');
    expect(root['@components'].actions.user.map((a: any) => a.id)).toContain('cms_setup');
    const site = await json(await t.request('GET', '/@site'));
    expect(site).toHaveProperty(['cms.site_title']);
  });

  inputAliases(() => t);
});

describe('original identifiers: ORIGINAL_IDENTIFIERS=true emits the original names', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ORIGINAL_IDENTIFIERS: 'true' });
    expect((await t.request('POST', '/', { body: LOOKALIKE })).status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('the site root is a `Plone Site`, in its own answer, in listings and in search', async () => {
    const root = await json(await t.request('GET', '/'));
    expect(root['@type']).toBe('Plone Site');
    const crumbs = await json(await t.request('GET', '/lookalike?expand=breadcrumbs,navroot'));
    expect(crumbs['@components'].navroot.navroot['@type']).toBe('Plone Site');
    const schema = await json(await t.request('GET', '/@types/Plone%20Site'));
    expect(schema.title).toBe('Plone Site');
  });

  it('`@site` answers the original record names Volto reads', async () => {
    const site = await json(await t.request('GET', '/@site'));
    expect(Object.keys(site)).toEqual(
      expect.arrayContaining(['plone.site_title', 'plone.site_logo', 'plone.robots_txt', 'plone.allowed_sizes']),
    );
    expect(Object.keys(site).filter((k) => k.startsWith('cms.'))).toEqual([]);
  });

  it('the Site Setup action is `plone_setup`, with the original icons', async () => {
    const actions = await json(await t.request('GET', '/@actions'));
    expect(actions.user.map((a: any) => a.id)).toContain('plone_setup');
    expect(actions.user.map((a: any) => a.id)).not.toContain('cms_setup');
  });

  it('vocabularies are named and addressed by their original names', async () => {
    const list = await json(await t.request('GET', '/@vocabularies'));
    const keywords = list.find((v: any) => v['@id'].endsWith('/@vocabularies/plone.app.vocabularies.Keywords'));
    expect(keywords).toMatchObject({ title: 'plone.app.vocabularies.Keywords' });
    expect(list.filter((v: any) => v['@id'].includes('/@vocabularies/cms.'))).toEqual([]);
    const schema = await json(await t.request('GET', '/@types/Document'));
    const named = JSON.stringify(schema).match(/@vocabularies\/[\w.]+/g) ?? [];
    expect(named).toContain('@vocabularies/plone.app.vocabularies.Keywords');
    expect(named.filter((n) => n.includes('/cms.'))).toEqual([]);
  });

  it('the query builder names its operators with the original prefix', async () => {
    const config = await json(await t.request('GET', '/@querystring'));
    const operations: string[] = config.indexes.portal_type.operations;
    expect(operations).toContain('plone.app.querystring.operation.selection.any');
    expect(operations.filter((o) => o.startsWith('cms.'))).toEqual([]);
    expect(Object.keys(config.indexes.portal_type.operators)).toContain(
      'plone.app.querystring.operation.selection.any',
    );
  });

  it('the types panel is `dexterity-types`, its types `Dexterity FTI`, the blocks behavior `volto.blocks`', async () => {
    const panel = await json(await t.request('GET', '/@controlpanels/dexterity-types'));
    expect(panel['@id']).toMatch(/\/@controlpanels\/dexterity-types$/);
    expect(panel.items.map((i: any) => i.meta_type)).toEqual(panel.items.map(() => 'Dexterity FTI'));
    const document = await json(await t.request('GET', '/@controlpanels/dexterity-types/Document'));
    expect(document.data['volto.blocks']).toBe(true);
    expect(document.data).not.toHaveProperty('blocks');
    expect(document.schema.properties).toHaveProperty(['volto.blocks']);
    expect(document.schema.properties).toHaveProperty(['plone.richtext']);
  });

  it('never rewrites user content', async () => {
    const page = await json(await t.request('GET', '/lookalike'));
    expect(page.title).toBe(LOOKALIKE.title);
    expect(page.description).toBe(LOOKALIKE.description);
    expect(page.subjects).toEqual(LOOKALIKE.subjects);
    expect(page.id).toBe('lookalike');
    expect(page['@type']).toBe('Document');
    expect(page.blocks).toEqual(LOOKALIKE.blocks);
  });

  inputAliases(() => t);
});
