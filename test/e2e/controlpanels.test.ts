import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** The fourteen panels of the specification, and Discussion as the original lists it: id, group, title. */
const LISTED = [
  ['date-and-time', 'General', 'Date and Time'],
  ['language', 'General', 'Language'],
  ['mail', 'General', 'Mail'],
  ['navigation', 'General', 'Navigation'],
  ['search', 'General', 'Search'],
  ['site', 'General', 'Site'],
  ['socialmedia', 'General', 'Social Media'],
  ['content-rules', 'Content', 'Content Rules'],
  ['cms-types', 'Content', 'Content Types'],
  ['editing', 'Content', 'Editing'],
  ['imaging', 'Content', 'Image Handling'],
  ['markup', 'Content', 'Markup'],
  ['usergroup', 'Users', 'User and Group Settings'],
  ['security', 'Security', 'Security'],
  ['discussion', 'Content', 'Discussion'],
] as const;

/** The panels made of registry records, with a few of their fields and a new site's values. */
const RECORD_PANELS: Record<string, Record<string, unknown>> = {
  'date-and-time': { portal_timezone: { title: 'UTC', token: 'UTC' }, available_timezones: [], first_weekday: 0 },
  language: {
    default_language: { title: 'English', token: 'en' },
    available_languages: ['en'],
    always_show_selector: false,
  },
  mail: { smtp_host: 'localhost', smtp_port: 25, email_charset: 'utf-8', email_from_address: null },
  navigation: {
    navigation_depth: 3,
    generate_tabs: true,
    sort_tabs_on: expect.objectContaining({ token: 'getObjPositionInParent' }),
  },
  search: { enable_livesearch: true, search_results_description_length: 160 },
  site: { site_title: 'CMS site', site_logo: null, robots_txt: expect.stringMatching(/^Sitemap:/) },
  socialmedia: { share_social_data: true, twitter_username: '' },
  editing: {
    available_editors: ['TinyMCE', 'None'],
    default_editor: { title: 'TinyMCE', token: 'TinyMCE' },
    enable_link_integrity_checks: true,
    ext_editor: false,
    lock_on_ttw_edit: true,
    subjects_of_navigation_root: false,
  },
  imaging: {
    allowed_sizes: [
      'huge 1600:65536',
      'great 1200:65536',
      'larger 1000:65536',
      'large 800:65536',
      'teaser 600:65536',
      'preview 400:65536',
      'mini 200:65536',
      'thumb 128:128',
      'tile 64:64',
      'icon 32:32',
      'listing 16:16',
    ],
  },
  markup: {
    default_format: { title: 'text/html', token: 'text/html' },
    allowed_types: ['text/html', 'text/x-web-textile'],
  },
  usergroup: { many_groups: false, many_users: false },
  security: { enable_self_reg: false, use_email_as_login: false, allow_anon_views_about: false },
  discussion: { globally_enabled: false, moderation_enabled: false },
};

/** `@controlpanels` through the gateway (spec "Control panels"; transcripts controlpanels_get*, controlpanels_patch). */
describe('control panels through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    expect(
      (await t.request('POST', '/@users', { body: { username: 'mia', password: 'secret-mia', roles: ['Member'] } }))
        .status,
    ).toBe(201);
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
  const get = async (path: string) => {
    const response = await t.request('GET', path);
    expect(response.status).toBe(200);
    return json(response);
  };
  const panel = (id: string) => get(`/@controlpanels/${id}`);

  it('lists the panels with their ids, groups and titles', async () => {
    const list = await get('/@controlpanels');
    expect(list.map((p: any) => [p['@id'], p.group, p.title])).toEqual(
      LISTED.map(([id, group, title]) => [`${t.suite.publicUrl}/@controlpanels/${id}`, group, title]),
    );
    const editing = list.find((p: any) => p.title === 'Editing');
    expect(editing.searchable_text).toEqual([
      'Editing',
      'Content',
      'Available editors',
      'Default editor',
      'Enable External Editor feature',
      'Enable link integrity checks',
      'Enable locking for through-the-web edits',
      'Limit tags/keywords to the current navigation root',
    ]);
  });

  it.each(Object.entries(RECORD_PANELS))('serves the %s panel with its schema and data', async (id, sample) => {
    const body = await panel(id);
    expect(Object.keys(body).sort()).toEqual(['@id', 'data', 'group', 'schema', 'title']);
    expect(body['@id']).toBe(`${t.suite.publicUrl}/@controlpanels/${id}`);
    const { schema, data } = body;
    expect(schema.type).toBe('object');
    expect(schema.fieldsets).toEqual([
      { behavior: 'cms', fields: Object.keys(schema.properties), id: 'default', title: 'Default' },
    ]);
    expect(Object.keys(data)).toEqual(Object.keys(schema.properties));
    for (const name of schema.required) expect(schema.properties).toHaveProperty(name);
    for (const definition of Object.values<any>(schema.properties)) {
      expect(['string', 'boolean', 'integer', 'array']).toContain(definition.type);
      expect(typeof definition.title).toBe('string');
      expect(typeof definition.factory).toBe('string');
    }
    expect(data).toMatchObject(sample);
  });

  it('serves the editing panel as recorded', async () => {
    const { schema } = await panel('editing');
    expect(schema.required).toEqual(['available_editors', 'default_editor']);
    expect(schema.properties.default_editor).toEqual({
      default: 'TinyMCE',
      description:
        'Select the default wysiwyg editor. Users will be able to choose their own or select to use the site default.',
      factory: 'Choice',
      title: 'Default editor',
      type: 'string',
      vocabulary: { '@id': `${t.suite.publicUrl}/@vocabularies/cms.app.vocabularies.AvailableEditors` },
    });
    expect(schema.properties.available_editors).toMatchObject({
      additionalItems: true,
      factory: 'List',
      items: { description: '', factory: 'Text line (String)', title: '', type: 'string' },
      type: 'array',
      uniqueItems: false,
    });
  });

  it('writes a panel: default_editor as a string, read back as a term; the registry sees it', async () => {
    const response = await t.request('PATCH', '/@controlpanels/editing', {
      body: { default_editor: 'CKeditor', ext_editor: true },
    });
    expect(response.status).toBe(204);
    const { data } = await panel('editing');
    expect(data.default_editor).toEqual({ title: 'CKeditor', token: 'CKeditor' });
    expect(data.ext_editor).toBe(true);
    expect(await get('/@registry/cms.default_editor')).toBe('CKeditor');
    // A term as read is accepted back.
    expect(
      (await t.request('PATCH', '/@controlpanels/editing', { body: { default_editor: data.default_editor } })).status,
    ).toBe(204);
    expect((await t.request('PATCH', '/@controlpanels/editing', { body: { ext_editor: false } })).status).toBe(204);
  });

  it('and a registry write shows in the panel', async () => {
    expect((await t.request('PATCH', '/@registry', { body: { 'cms.navigation_depth': 5 } })).status).toBe(204);
    expect((await panel('navigation')).data.navigation_depth).toBe(5);
    expect((await t.request('PATCH', '/@controlpanels/navigation', { body: { navigation_depth: 3 } })).status).toBe(
      204,
    );
  });

  it.each([
    ['editing', { ext_editor: 'yes' }, 'ext_editor'],
    ['navigation', { navigation_depth: 2.5 }, 'navigation_depth'],
    ['navigation', { navigation_depth: 0 }, 'navigation_depth'],
    ['mail', { smtp_port: '25' }, 'smtp_port'],
    ['site', { site_title: 'two\nlines' }, 'site_title'],
    ['site', { site_title: null }, 'site_title'],
    ['date-and-time', { portal_timezone: 'Mars/Olympus' }, 'portal_timezone'],
    ['language', { available_languages: ['en', 'xx'] }, 'available_languages'],
    ['language', { available_languages: [] }, 'available_languages'],
    ['imaging', { allowed_sizes: 'huge 1600:65536' }, 'allowed_sizes'],
    ['navigation', { sort_tabs_on: 'modified' }, 'sort_tabs_on'],
    ['editing', { no_such_field: true }, 'no_such_field'],
    ['site', { robots_txt: 42 }, 'robots_txt'],
    ['markup', { allowed_types: ['text/html', 'text/html'] }, 'allowed_types'],
    ['markup', { default_format: 'text/unknown' }, 'default_format'],
    ['security', { enable_self_reg: null }, 'enable_self_reg'],
  ])('refuses a bad value on %s (%j): 400, nothing changed', async (id, body, field) => {
    const before = (await panel(id)).data;
    const response = await t.request('PATCH', `/@controlpanels/${id}`, {
      // A valid change beside the bad one must not be written either.
      body: { ...body, ...(id === 'site' ? { webstats_js: 'changed' } : {}) },
    });
    expect(response.status).toBe(400);
    const error = await json(response);
    expect(error.type).toBe('BadRequest');
    expect(error.errors.map((e: any) => e.field)).toContain(field);
    expect((await panel(id)).data).toEqual(before);
  });

  it('refuses a body that is not an object', async () => {
    const response = await t.request('PATCH', '/@controlpanels/editing', { body: [1] });
    expect(response.status).toBe(400);
  });

  it('answers 404 for an unknown panel', async () => {
    const read = await t.request('GET', '/@controlpanels/no-such-panel');
    expect(read.status).toBe(404);
    expect((await json(read)).type).toBe('NotFound');
    expect((await t.request('PATCH', '/@controlpanels/no-such-panel', { body: {} })).status).toBe(404);
  });

  it('serves the content rules panel with no rules yet', async () => {
    expect(await panel('content-rules')).toEqual({
      '@id': `${t.suite.publicUrl}/@controlpanels/content-rules`,
      group: 'Content',
      items: [[]],
      title: 'Content Rules',
    });
  });

  it('is for site managers: Members 403, anonymous 401, Site Administrators allowed', async () => {
    for (const [method, path] of [
      ['GET', '/@controlpanels'],
      ['GET', '/@controlpanels/editing'],
      ['PATCH', '/@controlpanels/editing'],
    ] as const) {
      const body = method === 'PATCH' ? { ext_editor: true } : undefined;
      expect((await t.request(method, path, { auth: null, body })).status).toBe(401);
      expect((await t.request(method, path, { auth: basic('mia', 'secret-mia'), body })).status).toBe(403);
    }
    expect((await panel('editing')).data.ext_editor).toBe(false);
    expect((await t.request('GET', '/@controlpanels/site', { auth: basic('sam', 'secret-sam') })).status).toBe(200);
  });

  it('takes effect: use_email_as_login from the security panel governs @users', async () => {
    expect((await t.request('PATCH', '/@controlpanels/security', { body: { use_email_as_login: true } })).status).toBe(
      204,
    );
    const created = await t.request('POST', '/@users', { body: { email: 'eve@example.com', password: 'secret-eve' } });
    expect(created.status).toBe(201);
    const login = await t.request('POST', '/@login', {
      auth: null,
      body: { login: 'eve@example.com', password: 'secret-eve' },
    });
    expect(login.status).toBe(200);
    expect((await t.request('PATCH', '/@controlpanels/security', { body: { use_email_as_login: false } })).status).toBe(
      204,
    );
  });

  it('takes effect: the site panel’s title is the title @site shows', async () => {
    expect((await t.request('PATCH', '/@controlpanels/site', { body: { site_title: 'Renamed' } })).status).toBe(204);
    expect((await get('/@site'))['cms.site_title']).toBe('Renamed');
  });

  it('takes effect: two languages make @site multilingual', async () => {
    expect((await get('/@site')).features.multilingual).toBe(false);
    expect(
      (await t.request('PATCH', '/@controlpanels/language', { body: { available_languages: ['en', 'es'] } })).status,
    ).toBe(204);
    expect((await get('/@site')).features.multilingual).toBe(true);
    expect((await panel('language')).data.available_languages).toEqual(['en', 'es']);
  });

  it('takes effect: the discussion panel switches comments on in the registry', async () => {
    const GLOBALLY = 'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled';
    expect((await t.request('PATCH', '/@controlpanels/discussion', { body: { globally_enabled: true } })).status).toBe(
      204,
    );
    expect(await get(`/@registry/${GLOBALLY}`)).toBe(true);
    expect((await t.request('PATCH', '/@registry', { body: { [GLOBALLY]: false } })).status).toBe(204);
  });
});
