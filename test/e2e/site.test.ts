import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** `@site`, `@system`, `@userschema` and the deprecated `@tiles` through the gateway (transcript site_get). */
describe('site information through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    expect(
      (
        await t.request('POST', '/@users', {
          body: { username: 'sam', password: 'secret-sam', roles: ['Site Administrator'] },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as any;

  it('@site shows the features and public settings to anyone', async () => {
    const response = await t.request('GET', '/@site', { auth: null });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(
      [
        '@id',
        'features',
        'cms.allowed_sizes',
        'cms.available_languages',
        'cms.default_language',
        'cms.portal_timezone',
        'cms.robots_txt',
        'cms.site_logo',
        'cms.site_title',
      ].sort(),
    );
    expect(body).toMatchObject({
      '@id': `${t.suite.publicUrl}/@site`,
      features: { filter_aliases_by_date: true, multilingual: false },
      'cms.available_languages': ['en'],
      'cms.default_language': 'en',
      'cms.portal_timezone': 'UTC',
      'cms.site_logo': null,
      // The site root's own title (SITE_TITLE, `Site` by default), as the original reports it.
      'cms.site_title': 'Site',
    });
    expect(body['cms.allowed_sizes']).toContain('huge 1600:65536');
    expect(body['cms.allowed_sizes']).toHaveLength(11);
    expect(body['cms.robots_txt']).toMatch(/^Sitemap: \{portal_url\}\/sitemap.xml.gz\n/);
  });

  it('@site follows the registry', async () => {
    expect(
      (await t.request('PATCH', '/@registry', { body: { 'cms.site_title': 'Renamed', 'cms.default_language': 'de' } }))
        .status,
    ).toBe(204);
    const body = await json(await t.request('GET', '/++api++/@site'));
    expect(body['cms.site_title']).toBe('Renamed');
    expect(body['cms.default_language']).toBe('de');
  });

  it('@system gives versions to Managers only', async () => {
    const response = await t.request('GET', '/@system');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toEqual({
      '@id': `${t.suite.publicUrl}/@system`,
      cms_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      plone_restapi_version: '8.43.0',
      node_version: process.versions.node,
      store: { kind: 'embedded', driver_version: null },
      broker: { kind: 'in-process', driver_version: null },
      debug_mode: false,
      upgradeable: false,
    });
    expect((await t.request('GET', '/@system', { auth: null })).status).toBe(401);
    expect((await t.request('GET', '/@system', { auth: basic('sam', 'secret-sam') })).status).toBe(403);
  });

  it('@userschema is the schema of the user fields', async () => {
    const response = await t.request('GET', '/@userschema', { auth: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\+schema/);
    const body = await json(response);
    const fields = ['fullname', 'email', 'home_page', 'description', 'location', 'portrait'];
    expect(body.type).toBe('object');
    expect(body.fieldsets).toEqual([{ behavior: 'cms', fields, id: 'default', title: 'Default' }]);
    expect(Object.keys(body.properties)).toEqual(fields);
    expect(body.required).toEqual(['email']);
    expect(body.properties.email).toMatchObject({ factory: 'Email', type: 'string', widget: 'email' });
    expect(body.properties.description).toMatchObject({ type: 'string', widget: 'textarea' });
    expect(body.properties.portrait).toMatchObject({ factory: 'Image', type: 'object' });
  });

  it('@userschema/registration is the schema of the registration form', async () => {
    const body = await json(await t.request('GET', '/@userschema/registration', { auth: null }));
    expect(Object.keys(body.properties)).toEqual(['fullname', 'email', 'username', 'password', 'password_ctl']);
    expect(body.required).toEqual(['email', 'username', 'password', 'password_ctl']);
    expect((await t.request('GET', '/@userschema/other')).status).toBe(404);
  });

  it('@tiles answers an empty list, and an empty schema for any tile', async () => {
    const list = await t.request('GET', '/@tiles');
    expect(list.status).toBe(200);
    expect(await json(list)).toEqual([]);
    const tile = await t.request('GET', '/@tiles/title');
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toMatch(/^application\/json\+schema/);
    expect(await json(tile)).toEqual({ properties: {}, required: [], title: '', type: 'object' });
  });
});
