import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';

/**
 * Settings take effect where they belong (issue 13, item 2): each written through its control panel, and its
 * effect seen through another endpoint, served by another service where the setting belongs to one.
 */
describe('control panel settings take effect', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    for (const body of [
      { '@type': 'Folder', id: 'nav-folder', title: 'Nav folder' },
      { '@type': 'Collection', id: 'nav-collection', title: 'Nav collection' },
      { '@type': 'Document', id: 'nav-page', title: 'Nav page' },
      { '@type': 'Image', id: 'picture', title: 'Picture', image: upload(png(300, 150), 'p.png', 'image/png') },
    ]) {
      expect((await t.request('POST', '/', { body })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as any;
  const get = async (path: string) => {
    const response = await t.request('GET', path);
    expect(response.status).toBe(200);
    return json(response);
  };
  const patchPanel = async (panel: string, body: Record<string, unknown>) => {
    const response = await t.request('PATCH', `/@controlpanels/${panel}`, { body });
    expect(response.status).toBe(204);
  };

  it('the site title names the site in @site and is the site root’s title', async () => {
    await patchPanel('site', { site_title: 'Harbour Museum' });
    expect((await get('/@site'))['cms.site_title']).toBe('Harbour Museum');
    expect((await get('/')).title).toBe('Harbour Museum');
    expect((await get('/nav-page')).parent.title).toBe('Harbour Museum');
    // Written through the registry too.
    expect((await t.request('PATCH', '/@registry', { body: { 'cms.site_title': 'Harbour' } })).status).toBe(204);
    expect((await get('/')).title).toBe('Harbour');
    // The root's other members are left as they were.
    expect((await get('/'))['@id']).toBe(t.suite.publicUrl);
  });

  it('a site title refused by the registry leaves the site root as it was', async () => {
    const response = await t.request('PATCH', '/@controlpanels/site', { body: { site_title: 42 } });
    expect(response.status).toBe(400);
    expect((await get('/')).title).toBe('Harbour');
  });

  it('the navigation lists the displayed types only', async () => {
    const listed = async () => (await get('/@navigation')).items.map((item: any) => item['@id'].split('/').pop());
    // A new site displays no Collections (the original platform's default).
    expect(await listed()).toEqual(expect.arrayContaining(['nav-folder', 'nav-page']));
    expect(await listed()).not.toContain('nav-collection');

    await patchPanel('navigation', { displayed_types: ['Folder', 'Collection'] });
    const shown = await listed();
    expect(shown).toEqual(expect.arrayContaining(['nav-folder', 'nav-collection']));
    expect(shown).not.toContain('nav-page');
    expect(shown).not.toContain('picture');
    const expanded = await get('/nav-page?expand=navigation');
    expect(expanded['@components'].navigation.items.map((item: any) => item.title)).not.toContain('Nav page');

    await patchPanel('navigation', { displayed_types: ['Image', 'File', 'Link', 'News Item', 'Folder', 'Document'] });
    expect(await listed()).toEqual(expect.arrayContaining(['nav-folder', 'nav-page', 'picture']));
  });

  it('the image scales are the allowed sizes', async () => {
    expect(Object.keys((await get('/picture')).image.scales)).toContain('thumb');

    await patchPanel('imaging', { allowed_sizes: ['banner 200:50', 'square 64:64'] });
    const scales = (await get('/picture')).image.scales;
    expect(Object.keys(scales).sort()).toEqual(['banner', 'square']);
    expect(scales.banner).toMatchObject({ width: 100, height: 50 });
    expect((await t.request('GET', '/picture/@@images/image/banner')).status).toBe(200);
    expect((await t.request('GET', scales.square.download.slice(t.suite.publicUrl.length))).status).toBe(200);
    expect((await t.request('GET', '/picture/@@images/image/thumb')).status).toBe(404);

    await patchPanel('imaging', { allowed_sizes: ['thumb 128:128'] });
    expect(Object.keys((await get('/picture')).image.scales)).toEqual(['thumb']);
    expect((await t.request('GET', '/picture/@@images/image/banner')).status).toBe(404);
  });

  it('with locking for edits off, POST @lock takes no lock; on again, it does', async () => {
    await patchPanel('editing', { lock_on_ttw_edit: false });
    const unlocked = await t.request('POST', '/nav-page/@lock', { body: {} });
    expect(unlocked.status).toBe(200);
    expect(await json(unlocked)).toMatchObject({ locked: false });
    expect((await get('/nav-page/@lock')).locked).toBe(false);
    expect((await get('/nav-page')).lock.locked).toBe(false);

    await patchPanel('editing', { lock_on_ttw_edit: true });
    const locked = await t.request('POST', '/nav-page/@lock', { body: {} });
    expect(await json(locked)).toMatchObject({ locked: true });
    expect((await get('/nav-page/@lock')).locked).toBe(true);
    expect((await t.request('DELETE', '/nav-page/@lock', { body: {} })).status).toBe(200);
  });

  it('the search panel’s types are left out of searches that use the site’s settings', async () => {
    const found = async () =>
      (await get('/@search?SearchableText=nav&use_site_search_settings=1')).items.map((item: any) => item.title);
    expect(await found()).toContain('Nav page');
    await patchPanel('search', { types_not_searched: ['Document'] });
    expect(await found()).not.toContain('Nav page');
    expect(await found()).toContain('Nav folder');
    // A search that does not ask for the site's settings still finds it.
    expect((await get('/@search?SearchableText=nav')).items.map((item: any) => item.title)).toContain('Nav page');
    await patchPanel('search', { types_not_searched: [] });
    expect(await found()).toContain('Nav page');
  });

  it('with e-mail login on, @users makes users from their e-mail', async () => {
    await patchPanel('security', { use_email_as_login: true });
    const named = await t.request('POST', '/@users', {
      body: { username: 'sailor', email: 'sailor@example.com', password: 'a-long-password' },
    });
    expect(named.status).toBe(400);
    const byMail = await t.request('POST', '/@users', {
      body: { email: 'sailor@example.com', password: 'a-long-password' },
    });
    expect(byMail.status).toBe(201);
    await patchPanel('security', { use_email_as_login: false });
    const plain = await t.request('POST', '/@users', { body: { username: 'deckhand', password: 'a-long-password' } });
    expect(plain.status).toBe(201);
  });
});
