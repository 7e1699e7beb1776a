import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const COMPONENTS = [
  'actions',
  'aliases',
  'breadcrumbs',
  'contextnavigation',
  'navigation',
  'navroot',
  'types',
  'workflow',
];
const MEMBER = 'Basic ' + Buffer.from('mia:secret-mia').toString('base64');
const anonymous = { auth: null };

/**
 * `?expand=` and the components on their own (`<context>/@<component>`), through the gateway. The tree:
 *
 *   /front-page                                  Document
 *   /folder                                      Folder
 *   /folder/subfolder1/thirdlevelfolder/deepdoc  Folders and a Document
 *   /folder/subfolder2                           Folder
 *   /folder/doc1                                 Document
 *   /folder/quiet                                Document, exclude_from_nav
 *   /hidden                                      Folder, exclude_from_nav
 *   /movable                                     Document, moved into /folder/subfolder2 (aliases)
 */
describe('expansion components', () => {
  let t: TestSuite;
  let base: string;

  async function ok(method: string, path: string, body?: unknown) {
    const response = await t.request(method, path, { body });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  }
  const add = (parent: string, body: Record<string, unknown>) => ok('POST', parent, body);
  const json = async (response: Response) => (await response.json()) as any;
  const get = async (path: string, options: { auth?: string | null } = {}) => {
    const response = await t.request('GET', path, options);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return json(response);
  };
  const ids = (items: { '@id': string }[]) => items.map((item) => item['@id'].slice(base.length) || '/');

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '300' });
    base = t.suite.publicUrl;
    await add('/', { '@type': 'Document', id: 'front-page', title: 'Welcome' });
    await add('/', { '@type': 'Folder', id: 'folder', title: 'Some Folder' });
    await add('/folder', { '@type': 'Folder', id: 'subfolder1', title: 'SubFolder 1' });
    await add('/folder/subfolder1', { '@type': 'Folder', id: 'thirdlevelfolder', title: 'Third Level Folder' });
    await add('/folder/subfolder1/thirdlevelfolder', { '@type': 'Document', id: 'deepdoc', title: 'Deep' });
    await add('/folder', { '@type': 'Folder', id: 'subfolder2', title: 'SubFolder 2' });
    await add('/folder', { '@type': 'Document', id: 'doc1', title: 'A document' });
    await add('/folder', { '@type': 'Document', id: 'quiet', title: 'Quiet', exclude_from_nav: true });
    await add('/', { '@type': 'Folder', id: 'hidden', title: 'Hidden', exclude_from_nav: true });
    await add('/', { '@type': 'Document', id: 'movable', title: 'Movable' });
    await ok('POST', '/@users', { username: 'mia', password: 'secret-mia', roles: ['Member'] });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('names every component with its @id when nothing is expanded', async () => {
    const doc = await get('/front-page');
    expect(doc['@components']).toEqual(
      Object.fromEntries(COMPONENTS.map((name) => [name, { '@id': `${base}/front-page/@${name}` }])),
    );
  });

  it.each(COMPONENTS)('expands %s alone, as its own endpoint serves it', async (name) => {
    const components = (await get(`/folder?expand=${name}`))['@components'];
    for (const other of COMPONENTS.filter((n) => n !== name)) {
      expect(components[other]).toEqual({ '@id': `${base}/folder/@${other}` });
    }
    const standalone = await get(`/folder/@${name}`);
    expect(components[name]).toEqual(standalone);
    // The action lists and the type list carry no @id of their own (as recorded).
    if (name !== 'types' && name !== 'actions') expect(standalone['@id']).toBe(`${base}/folder/@${name}`);
  });

  it('expands several at once, as expand=a,b and as repeated expand:list', async () => {
    const names = ['breadcrumbs', 'navigation', 'actions', 'types', 'workflow'];
    const commaSeparated = (await get(`/front-page?expand=${names.join(',')}`))['@components'];
    const repeated = (await get(`/front-page?${names.map((n) => `expand:list=${n}`).join('&')}`))['@components'];
    expect(repeated).toEqual(commaSeparated);
    expect(commaSeparated.breadcrumbs).toEqual({
      '@id': `${base}/front-page/@breadcrumbs`,
      items: [{ '@id': `${base}/front-page`, title: 'Welcome' }],
      root: base,
    });
    expect(Object.keys(commaSeparated.actions).sort()).toEqual([
      'document_actions',
      'object',
      'object_buttons',
      'portal_tabs',
      'site_actions',
      'user',
    ]);
    expect(commaSeparated.workflow.state).toEqual({ id: 'private', title: 'Private' });
    // A Document holds nothing.
    expect(commaSeparated.types.some((type: any) => type.addable)).toBe(false);
    expect(commaSeparated.navroot).toEqual({ '@id': `${base}/front-page/@navroot` });
  });

  it('answers 400 for a component it does not know', async () => {
    for (const query of ['expand=breadcrumbs,bogus', 'expand:list=bogus', 'expand=translations']) {
      const response = await t.request('GET', `/front-page?${query}`);
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.type).toBe('BadRequest');
      expect(body.errors).toEqual([{ field: 'expand', message: expect.any(String) }]);
    }
  });

  it('answers a write with links only: a committed write never fails on its expand', async () => {
    const created = await t.request('POST', '/folder?expand=bogus,breadcrumbs', {
      body: { '@type': 'Document', id: 'written', title: 'Written' },
    });
    expect(created.status).toBe(201);
    expect((await json(created))['@components'].breadcrumbs).toEqual({
      '@id': `${base}/folder/written/@breadcrumbs`,
    });
    await ok('DELETE', '/folder/written');
  });

  it('serves navigation as Home and the top level, deeper with expand.navigation.depth', async () => {
    const top = await get('/front-page/@navigation');
    expect(top.items[0]).toEqual({ '@id': base, description: '', items: [], review_state: null, title: 'Home' });
    expect(ids(top.items)).toEqual(['/', '/front-page', '/folder', '/movable']);
    expect(top.items[2]).toEqual({
      '@id': `${base}/folder`,
      description: '',
      items: [],
      review_state: 'private',
      title: 'Some Folder',
    });

    const tree = await get('/front-page/@navigation?expand.navigation.depth=4');
    const folder = tree.items[2];
    expect(ids(folder.items)).toEqual(['/folder/subfolder1', '/folder/subfolder2', '/folder/doc1']);
    expect(ids(folder.items[0].items)).toEqual(['/folder/subfolder1/thirdlevelfolder']);
    expect(ids(folder.items[0].items[0].items)).toEqual(['/folder/subfolder1/thirdlevelfolder/deepdoc']);
    expect(folder.items[0].items[0].items[0]).toEqual({
      '@id': `${base}/folder/subfolder1/thirdlevelfolder/deepdoc`,
      description: '',
      items: [],
      review_state: 'private',
      title: 'Deep',
      use_view_action_in_listings: false,
    });

    const two = (await get('/front-page?expand=navigation&expand.navigation.depth=2'))['@components'].navigation;
    expect(ids(two.items[2].items)).toEqual(['/folder/subfolder1', '/folder/subfolder2', '/folder/doc1']);
    expect(two.items[2].items[0].items).toEqual([]);

    for (const depth of ['0', 'two', '1.5', '99']) {
      const response = await t.request('GET', `/front-page/@navigation?expand.navigation.depth=${depth}`);
      expect(response.status).toBe(400);
      expect((await json(response)).errors).toEqual([
        { field: 'expand.navigation.depth', message: expect.any(String) },
      ]);
    }
  });

  it('keeps items excluded from navigation out, unless the context is in one', async () => {
    const nav = await get('/folder/@navigation?expand.navigation.depth=2');
    expect(ids(nav.items)).not.toContain('/hidden');
    expect(ids(nav.items[2].items)).not.toContain('/folder/quiet');
    expect(ids((await get('/hidden/@navigation')).items)).toContain('/hidden');

    const context = await get('/folder/@contextnavigation');
    expect(ids(context.items)).toEqual(['/folder/subfolder1', '/folder/subfolder2', '/folder/doc1']);
    expect(ids((await get('/folder/quiet/@contextnavigation')).items)).toContain('/folder/quiet');
  });

  it('serves the context navigation of the section, as the reference portlet does', async () => {
    const nav = await get('/folder/@contextnavigation');
    expect(nav).toMatchObject({
      '@id': `${base}/folder/@contextnavigation`,
      available: true,
      has_custom_name: false,
      title: 'Navigation',
      url: `${base}/sitemap`,
    });
    expect(nav.items[0]).toEqual({
      '@id': `${base}/folder/subfolder1`,
      description: '',
      href: `${base}/folder/subfolder1`,
      icon: '',
      is_current: false,
      is_folderish: true,
      is_in_path: false,
      items: [expect.objectContaining({ '@id': `${base}/folder/subfolder1/thirdlevelfolder` })],
      normalized_id: 'subfolder1',
      review_state: 'private',
      thumb: '',
      title: 'SubFolder 1',
      type: 'folder',
    });
    const deep = await get('/folder/subfolder1/thirdlevelfolder/deepdoc/@contextnavigation');
    expect(deep.items[0]).toMatchObject({ is_in_path: true, is_current: false });
    expect(deep.items[0].items[0].items[0]).toMatchObject({ is_current: true, type: 'document' });
    const named = await get('/folder/@contextnavigation?expand.contextnavigation.name=Here');
    expect(named).toMatchObject({ title: 'Here', has_custom_name: true });
    const bad = await t.request('GET', '/folder/@contextnavigation?expand.contextnavigation.topLevel=x');
    expect(bad.status).toBe(400);
    // At the top of the site the portlet does not show.
    expect(await get('/@contextnavigation')).toMatchObject({ available: false, items: [] });
  });

  it('serves the navigation root in full', async () => {
    const { navroot, ...rest } = await get('/folder/@navroot');
    expect(rest).toEqual({ '@id': `${base}/folder/@navroot` });
    expect(navroot).toMatchObject({ '@id': base, '@type': 'Site Root', parent: {}, is_folderish: true });
    expect(navroot).not.toHaveProperty('items');
    expect(navroot).not.toHaveProperty('@components');
    const site = await get('/?expand=navroot');
    expect(site['@components'].navroot.navroot.UID).toBe(site.UID);
  });

  it('lists the types addable here, for authenticated callers only', async () => {
    const types = await get('/folder/@types');
    expect(types.length).toBeGreaterThan(1);
    expect(types.map((type: any) => type.title)).toEqual(
      [...types.map((type: any) => type.title)].sort((a, b) => a.localeCompare(b)),
    );
    expect(types.find((type: any) => type.id === 'Document')).toEqual({
      '@id': `${base}/@types/Document`,
      addable: true,
      id: 'Document',
      immediately_addable: true,
      title: 'Page',
    });
    expect(types.some((type: any) => type.id === 'Site Root')).toBe(false);
    expect((await get('/front-page/@types')).some((type: any) => type.addable)).toBe(false);

    await ok('POST', '/folder/@workflow/publish');
    // A member may look but not add.
    expect((await get('/folder/@types', { auth: MEMBER })).some((type: any) => type.addable)).toBe(false);
    const denied = await t.request('GET', '/folder/@types', anonymous);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await t.request('GET', '/folder?expand=types', anonymous)).status).toBe(401);
  });

  it('lists the actions the caller may take', async () => {
    const mine = await get('/folder/doc1/@actions');
    expect(mine.object.map((a: any) => a.id)).toEqual(['view', 'edit', 'folderContents', 'history', 'local_roles']);
    expect(mine.object[2]).toEqual({
      icon: 'toolbar-action/folderContents',
      id: 'folderContents',
      title: 'Contents',
      url: `${base}/folder/folder_contents`,
    });
    expect(mine.object_buttons.map((a: any) => a.id)).toEqual(['cut', 'copy', 'delete', 'rename', 'redirection']);
    expect(mine.user.map((a: any) => a.id)).toEqual(['preferences', 'dashboard', 'cms_setup', 'logout']);
    expect(mine.portal_tabs).toEqual([{ icon: 'cms-home', id: 'index_html', title: 'Home', url: base }]);

    // /folder is published by now (see above).
    const theirs = await get('/folder/@actions', anonymous);
    expect(theirs.object.map((a: any) => a.id)).toEqual(['view']);
    expect(theirs.object_buttons).toEqual([]);
    expect(theirs.user.map((a: any) => a.id)).toEqual(['login']);
    expect(theirs.site_actions.map((a: any) => a.id)).toEqual(['sitemap', 'accessibility', 'contact']);
    const member = await get('/folder/@actions', { auth: MEMBER });
    expect(member.object.map((a: any) => a.id)).toEqual(['view']);
    expect(member.user.map((a: any) => a.id)).toEqual(['preferences', 'dashboard', 'logout']);
  });

  it('lists the paths an object had before it moved', async () => {
    expect(await get('/movable/@aliases')).toEqual({ '@id': `${base}/movable/@aliases`, items: [], items_total: 0 });
    await ok('POST', '/folder/subfolder2/@move', { source: `${base}/movable` });
    expect(await get('/folder/subfolder2/movable/@aliases')).toEqual({
      '@id': `${base}/folder/subfolder2/movable/@aliases`,
      items: [
        {
          datetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          manual: false,
          path: '/movable',
          'redirect-to': '/folder/subfolder2/movable',
        },
      ],
      items_total: 1,
    });
  });

  it('shows anonymous callers published content only, in every component', async () => {
    // Everything but /folder is private: anonymous callers see Home and /folder.
    expect(ids((await get('/@navigation?expand.navigation.depth=3', anonymous)).items)).toEqual(['/', '/folder']);
    expect((await t.request('GET', '/folder/doc1/@breadcrumbs', anonymous)).status).toBe(401);

    await ok('POST', '/folder/subfolder1/thirdlevelfolder/deepdoc/@workflow/publish');
    await ok('POST', '/folder/doc1/@workflow/publish');
    const crumbs = await get('/folder/subfolder1/thirdlevelfolder/deepdoc/@breadcrumbs', anonymous);
    expect(ids(crumbs.items)).toEqual(['/folder', '/folder/subfolder1/thirdlevelfolder/deepdoc']);
    const adminCrumbs = await get('/folder/subfolder1/thirdlevelfolder/deepdoc/@breadcrumbs');
    expect(ids(adminCrumbs.items)).toEqual([
      '/folder',
      '/folder/subfolder1',
      '/folder/subfolder1/thirdlevelfolder',
      '/folder/subfolder1/thirdlevelfolder/deepdoc',
    ]);

    const nav = await get('/folder?expand=navigation,contextnavigation&expand.navigation.depth=3', anonymous);
    // The private subfolders are left out, and with them the published document inside them.
    expect(ids(nav['@components'].navigation.items[1].items)).toEqual(['/folder/doc1']);
    expect(ids(nav['@components'].contextnavigation.items)).toEqual(['/folder/doc1']);
    expect(ids(nav.items)).toEqual(['/folder/doc1']);

    await ok('POST', '/folder/subfolder1/@workflow/publish');
    const more = await get('/folder/@navigation?expand.navigation.depth=3', anonymous);
    expect(ids(more.items[1].items)).toEqual(['/folder/subfolder1', '/folder/doc1']);
    expect(more.items[1].items[0].items).toEqual([]);
  });
});
