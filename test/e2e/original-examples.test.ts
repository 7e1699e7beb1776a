import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * What the original platform's documented examples show (issue 30) and its URL management (issue 26): CSV export
 * and import of users and aliases, the alias listings, redirects from moved content. Each runs with the neutral
 * names and with ORIGINAL_IDENTIFIERS on.
 */
const json = async (response: Response) => (await response.json()) as any;

/** A `multipart/form-data` body with one file, as a browser's form sends it. */
function csvUpload(csv: string, { field = 'file', type = 'text/csv' } = {}) {
  const form = new FormData();
  form.append(field, new Blob([csv], { type }), 'upload.csv');
  return form;
}

function examples(suite: () => TestSuite) {
  const t = () => suite();
  const upload = (path: string, form: FormData) =>
    fetch(t().url(path), {
      method: 'POST',
      headers: { Authorization: 'Basic ' + Buffer.from('admin:admin').toString('base64'), Accept: 'application/json' },
      body: form,
    });

  /** A request whose redirect is not followed. */
  const unfollowed = (method: string, path: string, body?: unknown) =>
    fetch(t().url(path), {
      method,
      redirect: 'manual',
      headers: {
        Authorization: 'Basic ' + Buffer.from('admin:admin').toString('base64'),
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  describe('moved content (addendum §8)', () => {
    beforeAll(async () => {
      const created = [
        await t().request('POST', '/', { body: { '@type': 'Folder', id: 'old-folder', title: 'Folder' } }),
        await t().request('POST', '/old-folder', { body: { '@type': 'Document', id: 'child', title: 'Child' } }),
        await t().request('POST', '/old-folder', {
          body: {
            '@type': 'File',
            id: 'notes',
            title: 'Notes',
            file: { data: Buffer.from('notes').toString('base64'), encoding: 'base64', filename: 'notes.txt' },
          },
        }),
        await t().request('POST', '/', { body: { '@type': 'Document', id: 'old-page', title: 'Page' } }),
      ];
      expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      expect((await t().request('PATCH', '/old-folder', { body: { id: 'new-folder' } })).status).toBe(204);
      expect((await t().request('PATCH', '/old-page', { body: { id: 'new-page' } })).status).toBe(204);
    });

    it('a GET of the old path answers 302 to the new one, with the rest of the path and the query', async () => {
      const page = await unfollowed('GET', '/old-page');
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe(t().suite.publicUrl + '/new-page');
      const below = await unfollowed('GET', '/old-folder/child/@history?b_size=5&x=a%20b');
      expect(below.status).toBe(302);
      expect(below.headers.get('location')).toBe(t().suite.publicUrl + '/new-folder/child/@history?b_size=5&x=a+b');
      // Through another service (discussion asks content for the context).
      const comments = await unfollowed('GET', '/old-page/@comments');
      expect(comments.status).toBe(302);
      expect(comments.headers.get('location')).toBe(t().suite.publicUrl + '/new-page/@comments');
      const file = await unfollowed('GET', '/old-folder/notes/@@download/file');
      expect(file.status).toBe(302);
      expect(file.headers.get('location')).toBe(t().suite.publicUrl + '/new-folder/notes/@@download/file');
      // Followed, it reaches the object.
      const location = new URL((await unfollowed('GET', '/old-folder/child')).headers.get('location')!);
      expect((await json(await unfollowed('GET', location.pathname)))['@id']).toMatch(/\/new-folder\/child$/);
    });

    it('any other method answers 307, and the write is not made at the old path', async () => {
      const patched = await unfollowed('PATCH', '/old-page', { title: 'Changed' });
      expect(patched.status).toBe(307);
      expect(patched.headers.get('location')).toBe(t().suite.publicUrl + '/new-page');
      expect((await json(await t().request('GET', '/new-page'))).title).toBe('Page');
      const transition = await unfollowed('POST', '/old-folder/child/@workflow/publish');
      expect(transition.status).toBe(307);
      expect(transition.headers.get('location')).toBe(t().suite.publicUrl + '/new-folder/child/@workflow/publish');
    });

    it('a manual alias redirects too; a path that never was is still 404', async () => {
      expect((await t().request('POST', '/new-page/@aliases', { body: { items: [{ path: '/promo' }] } })).status).toBe(
        204,
      );
      const promo = await unfollowed('GET', '/promo');
      expect(promo.status).toBe(302);
      expect(promo.headers.get('location')).toBe(t().suite.publicUrl + '/new-page');
      const missing = await unfollowed('GET', '/new-folder/never-was');
      expect(missing.status).toBe(404);
      expect((await json(missing)).context).toBe(t().suite.publicUrl + '/new-folder');
      expect(JSON.stringify(await json(await unfollowed('GET', '/nothing/here')))).not.toMatch(/moved/);
    });
  });

  it('`@registry?q=` takes the original prefix (Products.CMFPlone, plone.) through the identifier aliases', async () => {
    const listed = await json(await t().request('GET', '/@registry?q=Products.CMFPlone'));
    expect(listed.items_total).toBe(4);
    expect(listed.items.map((i: any) => i.name.replace(/^(cms|Products\.CMFPlone)\./, ''))).toEqual([
      'i18nl10n.override_dateformat.Enabled',
      'i18nl10n.override_dateformat.date_format_long',
      'i18nl10n.override_dateformat.date_format_short',
      'i18nl10n.override_dateformat.time_format',
    ]);
    expect((await json(await t().request('GET', '/@registry?q=plone.site_title'))).items_total).toBe(1);
    expect((await json(await t().request('GET', '/@registry?q=cms.site_title'))).items_total).toBe(1);
    const value = await t().request('GET', '/@registry/Products.CMFPlone.i18nl10n.override_dateformat.time_format');
    expect(await json(value)).toBe('%H:%M');
  });

  it('a Collection’s `?fullobjects` gives its items as full objects, as `@search` does', async () => {
    const made = [
      await t().request('POST', '/', { body: { '@type': 'Folder', id: 'shelf', title: 'Shelf' } }),
      await t().request('POST', '/shelf', { body: { '@type': 'Document', id: 'book', title: 'Book' } }),
      await t().request('POST', '/', {
        body: {
          '@type': 'Collection',
          id: 'books',
          title: 'Books',
          query: [
            { i: 'portal_type', o: 'plone.app.querystring.operation.selection.any', v: ['Document'] },
            { i: 'path', o: 'plone.app.querystring.operation.string.absolutePath', v: '/shelf' },
          ],
        },
      }),
    ];
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const summaries = await json(await t().request('GET', '/books'));
    expect(summaries.items).toEqual([expect.not.objectContaining({ UID: expect.anything() })]);
    const full = await json(await t().request('GET', '/books?fullobjects'));
    expect(full.items_total).toBe(1);
    const book = await json(await t().request('GET', '/shelf/book'));
    expect(full.items[0]).toEqual(book);
    expect((await json(await t().request('GET', '/books?fullobjects=0'))).items).toEqual(summaries.items);
  });

  describe('@relations, @addons, @upgrade, @userschema in the shapes of the original’s recorded examples', () => {
    const keys = (value: object) => Object.keys(value).sort();

    it('@relations: the listing by source, the statistics, one relation with its field’s settings', async () => {
      for (const id of ['rel-source', 'rel-target']) {
        expect((await t().request('POST', '/', { body: { '@type': 'Document', id, title: id } })).status).toBe(201);
      }
      const relation = { relation: 'relatedItems', source: '/rel-source', target: '/rel-target' };
      expect((await t().request('POST', '/@relations', { body: { items: [relation] } })).status).toBe(204);
      const bySource = await json(await t().request('GET', '/@relations?source=/rel-source'));
      expect(keys(bySource)).toEqual(['@id', 'relations']);
      expect(keys(bySource.relations.relatedItems)).toEqual(['items', 'items_total']);
      const [item] = bySource.relations.relatedItems.items;
      const summary = ['@id', '@type', 'UID', 'description', 'review_state', 'title', 'type_title'];
      expect([keys(item), keys(item.source), keys(item.target)]).toEqual([['source', 'target'], summary, summary]);
      const stats = await json(await t().request('GET', '/@relations'));
      expect(keys(stats)).toEqual(['@id', 'broken', 'stats']);
      expect(stats.stats.relatedItems).toBeGreaterThanOrEqual(1);
      const named = await json(await t().request('GET', '/@relations?relation=relatedItems'));
      expect(keys(named.relations.relatedItems)).toEqual([
        'items',
        'items_total',
        'readonly',
        'staticCatalogVocabularyQuery',
      ]);
    });

    it('@addons lists add-ons as the original does (this service has none to install)', async () => {
      const addons = await json(await t().request('GET', '/@addons'));
      expect(keys(addons)).toEqual(['@id', 'items', 'items_total']);
    });

    it('@upgrade: the steps and versions, and a dry run’s report', async () => {
      const status = await json(await t().request('GET', '/@upgrade'));
      expect(keys(status)).toEqual(['@id', 'upgrade_steps', 'versions']);
      expect(keys(status.versions)).toEqual(['fs', 'instance']);
      const dry = await json(await t().request('POST', '/@upgrade', { body: { dry_run: true } }));
      expect(keys(dry)).toEqual(['@id', 'dry_run', 'report', 'upgraded', 'versions']);
    });

    it('@userschema: the fields and their words as the original’s forms show them', async () => {
      const schema = await json(await t().request('GET', '/@userschema'));
      expect(keys(schema)).toEqual(['fieldsets', 'properties', 'required', 'type']);
      expect(schema.properties.fullname).toEqual({
        description: 'Enter full name, for example, John Smith.',
        factory: 'Text line (String)',
        title: 'Full Name',
        type: 'string',
      });
      const registration = await json(await t().request('GET', '/@userschema/registration'));
      expect(registration.properties.username.description).toMatch(
        /^Enter a user name, usually something like 'jsmith'\./,
      );
    });
  });

  it('the `language` field of a type schema defaults to the site’s language', async () => {
    const schema = async () => (await json(await t().request('GET', '/@types/Document'))).properties.language;
    expect((await schema()).default).toBe('en');
    const set = (language: string) =>
      t().request('PATCH', '/@registry', { body: { 'plone.default_language': language } });
    expect((await set('de')).status).toBe(204);
    try {
      expect((await schema()).default).toBe('de');
    } finally {
      expect((await set('en')).status).toBe(204);
    }
  });

  describe('@users as CSV', () => {
    const users = [
      'username,email,fullname,description,roles,home_page,password',
      'jdoe,jdoe@example.com,John Doe,Software developer from Berlin,"Member, Contributor",https://jdoe.dev,pass1234',
      'asmith,asmith@example.com,Alice Smith,Frontend engineer,Member,https://alice.design,alicePwd!',
      'bwayne,bwayne@example.com,Bruce Wayne,Tech entrepreneur,,https://wayneenterprises.com,batman42',
    ].join('\n');

    it('a CSV file uploaded to @users creates every user in it', async () => {
      const response = await upload('/@users', csvUpload(users));
      expect(response.status).toBe(201);
      const body = await json(response);
      expect(body.items_total).toBe(3);
      expect(body.items.map((u: any) => [u.id, u.fullname, u.roles])).toEqual([
        ['jdoe', 'John Doe', ['Contributor', 'Member']],
        ['asmith', 'Alice Smith', ['Member']],
        ['bwayne', 'Bruce Wayne', ['Member']],
      ]);
      expect(body.items[0]).toMatchObject({ email: 'jdoe@example.com', home_page: 'https://jdoe.dev' });
      const login = await t().request('GET', '/@users/jdoe', {
        auth: 'Basic ' + Buffer.from('jdoe:pass1234').toString('base64'),
      });
      expect(login.status).toBe(200);
    });

    it('a bad CSV file is 400 naming its line, and creates no one', async () => {
      const bad = 'username,email,password\nfirst-one,first@example.com,secret-1\nsecond,not-an-email,secret-2\n';
      const response = await upload('/@users', csvUpload(bad));
      expect(response.status).toBe(400);
      expect((await json(response)).message).toMatch(/line 3/);
      const taken = 'username,password\nnew-one,secret-1\njdoe,secret-2\n';
      const again = await upload('/@users', csvUpload(taken));
      expect(again.status).toBe(400);
      expect((await json(again)).message).toMatch(/line 3.*already exists/);
      expect((await t().request('GET', '/@users/first-one')).status).toBe(404);
      expect((await t().request('GET', '/@users/new-one')).status).toBe(404);
    });

    it('`Accept: text/csv` answers the CSV export of the users', async () => {
      const response = await t().request('GET', '/@users', { headers: { Accept: 'text/csv' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename=users.csv');
      const lines = (await response.text()).split('\r\n');
      expect(lines[0]).toBe('id,username,fullname,email,roles,groups');
      expect(lines).toContain('admin,admin,,,Manager,AuthenticatedUsers');
      expect(lines).toContain('jdoe,jdoe,John Doe,jdoe@example.com,"Contributor, Member",AuthenticatedUsers');
    });
  });

  describe('@aliases', () => {
    beforeAll(async () => {
      const page = { '@type': 'Document', id: 'front-page', title: 'Front page' };
      expect((await t().request('POST', '/', { body: page })).status).toBe(201);
      const added = await t().request('POST', '/front-page/@aliases', {
        body: { items: [{ path: '/simple-alias', datetime: '2022-05-05T00:00:00Z' }] },
      });
      expect(added.status).toBe(204);
    });

    it('an object’s listing carries datetime, manual and redirect-to, as the site-root one does', async () => {
      const listed = await json(await t().request('GET', '/front-page/@aliases'));
      expect(listed).toEqual({
        '@id': expect.stringMatching(/\/front-page\/@aliases$/),
        items: [
          { datetime: '2022-05-05T00:00:00.000Z', manual: true, path: '/simple-alias', 'redirect-to': '/front-page' },
        ],
        items_total: 1,
      });
      const expanded = await json(await t().request('GET', '/front-page?expand=aliases'));
      expect(expanded['@components'].aliases.items).toEqual(listed.items);
      const root = await json(await t().request('GET', '/@aliases?q=/simple-alias'));
      expect(root.items).toEqual(listed.items);
    });

    it('empty filters (Volto’s URL management panel sends them) are no filters', async () => {
      const response = await t().request('GET', '/@aliases?q=&manual=&start=&end=&datetime=&b_size=10&b_start=0');
      expect(response.status).toBe(200);
      expect((await json(response)).items.map((i: any) => i.path)).toContain('/simple-alias');
      expect((await t().request('GET', '/@aliases?start=yesterday')).status).toBe(400);
    });

    it('the site root answers `Accept: text/csv` with the CSV file of every alias', async () => {
      const response = await t().request('GET', '/@aliases', { headers: { Accept: 'text/csv' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename=redirects.csv');
      const lines = (await response.text()).split('\r\n');
      expect(lines[0]).toBe('old path,new path,datetime,manual');
      expect(lines).toContain('/simple-alias,/front-page,2022/05/05 00:00:00 GMT+0,True');
    });

    it('a CSV file uploaded to the site root adds its aliases', async () => {
      const csv = 'old path,new path,datetime,manual\r\n/old-home,/front-page,2022/01/01 00:00:00 GMT+0,True\r\n';
      const response = await upload('/@aliases', csvUpload(csv));
      expect(response.status).toBe(204);
      const listed = await json(await t().request('GET', '/front-page/@aliases'));
      expect(listed.items).toContainEqual({
        datetime: '2022-01-01T00:00:00.000Z',
        manual: true,
        path: '/old-home',
        'redirect-to': '/front-page',
      });
    });

    it('a bad CSV file is 400 naming its line, and adds nothing', async () => {
      const csv = 'old path,new path\n/fine-one,/front-page\n/bad-one,/no-such-page\n';
      const response = await upload('/@aliases', csvUpload(csv));
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.message).toMatch(/line 3/);
      const broken = await upload('/@aliases', csvUpload('old path,new path\n"/open,/front-page\n'));
      expect(broken.status).toBe(400);
      expect((await json(broken)).message).toMatch(/line 2/);
      expect((await upload('/@aliases', csvUpload('x', { type: 'image/png' }))).status).toBe(400);
      const paths = (await json(await t().request('GET', '/@aliases'))).items.map((i: any) => i.path);
      expect(paths).not.toContain('/fine-one');
    });
  });

  // Last: it switches the site to multilingual.
  describe('a multilingual site', () => {
    beforeAll(async () => {
      const response = await t().request('PATCH', '/@controlpanels/language', {
        body: { available_languages: ['en', 'de'] },
      });
      expect(response.status).toBe(204);
    });

    it('lists no `translations` component on the site root, as the original does; its content does', async () => {
      const root = await json(await t().request('GET', '/'));
      expect(Object.keys(root['@components'])).not.toContain('translations');
      // Asked for them (Volto asks every page it shows), the root leaves them out as the original does.
      const expanded = await t().request('GET', '/?expand=translations');
      expect(expanded.status).toBe(200);
      expect(Object.keys((await json(expanded))['@components'])).not.toContain('translations');
      const page = await json(await t().request('GET', '/en'));
      expect(Object.keys(page['@components'])).toContain('translations');
    });
  });
}

describe('original examples with the neutral names', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });
  examples(() => t);
});

describe('original examples with ORIGINAL_IDENTIFIERS=true', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ORIGINAL_IDENTIFIERS: 'true' });
  });
  afterAll(async () => {
    await t.stop();
  });
  examples(() => t);
});
