import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';
import { COMPONENTS, CONTENT_MEMBERS, type MemberShape } from './fixtures/content-members';

/**
 * The content types through the gateway: a round trip of every type and
 * field kind, a validation failure per field kind (nothing changes), and the
 * shape of each type's GET compared with its reference transcript.
 */
describe('content types', () => {
  let t: TestSuite;
  let base: string;
  let targetUid: string;

  beforeAll(async () => {
    t = await startTestSuite();
    base = t.suite.publicUrl;
    // Comments on for the site: an object's `allow_discussion` is served as whether they are on for it.
    await t.admin('PATCH', '/@registry', {
      'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled': true,
    });
    expect((await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Types' } })).status).toBe(201);
    const target = await t.request('POST', '/types', { body: { '@type': 'Document', title: 'Target' } });
    targetUid = (await target.json()).UID;
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const get = async (path: string, auth?: string | null) => json(await t.request('GET', path, { auth }));
  const contentDate = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

  async function create(body: Record<string, unknown>, container = '/types') {
    const response = await t.request('POST', container, { body });
    const created = await json(response);
    if (response.status !== 201) throw new Error(`POST ${JSON.stringify(body)}: ${JSON.stringify(created)}`);
    expect(response.headers.get('location')).toBe(created['@id']);
    return created;
  }

  describe('round trip of every type and field kind (POST, then GET)', () => {
    const pathOf = (created: Record<string, any>) => created['@id'].slice(base.length);

    async function roundTrip(body: Record<string, unknown>, expected: Record<string, unknown>) {
      const created = await create(body);
      expect(created).toMatchObject(expected);
      const read = await get(pathOf(created));
      expect(read).toMatchObject(expected);
      expect(read.created).toMatch(contentDate);
      expect(read.modified).toMatch(contentDate);
      return read;
    }

    it('Document: Dublin Core, settings, relations, versioning, table of contents, rich text', async () => {
      const doc = await roundTrip(
        {
          '@type': 'Document',
          title: 'Round Doc',
          description: 'two\nlines',
          subjects: ['alpha', 'beta', 'alpha'],
          language: 'fr',
          effective: '2030-01-01T10:00:00+02:00',
          expires: '2031-01-01T00:00:00Z',
          creators: ['admin', 'editor'],
          contributors: ['helper'],
          rights: 'CC BY',
          exclude_from_nav: true,
          allow_discussion: 'True',
          relatedItems: [targetUid],
          changeNote: 'first version',
          versioning_enabled: false,
          table_of_contents: true,
          text: { data: '<p>Hello <b>world</b></p>', 'content-type': 'text/html', encoding: 'utf8' },
        },
        {
          '@type': 'Document',
          type_title: 'Page',
          id: 'round-doc',
          title: 'Round Doc',
          description: 'two\nlines',
          subjects: ['alpha', 'beta'],
          language: { title: 'French', token: 'fr' },
          effective: '2030-01-01T08:00:00',
          expires: '2031-01-01T00:00:00',
          creators: ['admin', 'editor'],
          contributors: ['helper'],
          rights: 'CC BY',
          exclude_from_nav: true,
          allow_discussion: true,
          relatedItems: [
            {
              '@id': `${base}/types/target`,
              '@type': 'Document',
              description: '',
              review_state: 'private',
              title: 'Target',
              type_title: 'Page',
            },
          ],
          // A change note goes to the history, not onto the object.
          changeNote: '',
          versioning_enabled: false,
          table_of_contents: true,
          text: { 'content-type': 'text/html', data: '<p>Hello <b>world</b></p>', encoding: 'utf-8' },
          layout: 'document_view',
          review_state: 'private',
          is_folderish: false,
        },
      );
      // Relations may also be given as a URL, a site path, or a summary with @id.
      for (const ref of [`${base}/types/target`, '/types/target', { '@id': `${base}/types/target` }]) {
        const patched = await t.request('PATCH', '/types/round-doc', {
          body: { relatedItems: [ref] },
          headers: { Prefer: 'return=representation' },
        });
        expect((await json(patched)).relatedItems.map((r: any) => r['@id'])).toEqual([`${base}/types/target`]);
      }
      // null unsets a field: it shows its default again.
      await t.request('PATCH', '/types/round-doc', { body: { language: null, text: null, relatedItems: [] } });
      expect(await get('/types/round-doc')).toMatchObject({ language: '', text: null, relatedItems: [] });
      expect(doc.UID).toMatch(/^[0-9a-f]{32}$/);
    });

    it('News Item: rich text from a plain string, lead image and caption', async () => {
      const bytes = png(4, 3);
      const item = await roundTrip(
        {
          '@type': 'News Item',
          title: 'Big News',
          text: '<p>Lorem ipsum</p>',
          image: upload(bytes, 'lead.png', 'image/png'),
          image_caption: 'A caption',
        },
        {
          '@type': 'News Item',
          layout: 'newsitem_view',
          text: { 'content-type': 'text/html', data: '<p>Lorem ipsum</p>', encoding: 'utf-8' },
          image: {
            'content-type': 'image/png',
            download: expect.stringMatching(new RegExp(`^${base}/types/big-news/@@images/image-4-[0-9a-f]{12}\\.png$`)),
            filename: 'lead.png',
            size: bytes.length,
            width: 4,
            height: 3,
          },
          image_caption: 'A caption',
        },
      );
      expect(item.image.scales).toEqual(expect.any(Object));
    });

    it('Event: dates, flags, recurrence, location, attendees and contact', async () => {
      await roundTrip(
        {
          '@type': 'Event',
          title: 'Launch',
          start: '2030-05-01T09:00:00Z',
          end: '2030-05-01T17:30',
          whole_day: false,
          open_end: true,
          recurrence: 'RRULE:FREQ=DAILY;COUNT=3',
          location: 'Main hall',
          event_url: 'https://example.org/launch',
          attendees: ['ann', 'bob'],
          contact_name: 'Ann',
          contact_email: 'ann@example.org',
          contact_phone: '+1 555 0100',
          sync_uid: 'launch-2030',
        },
        {
          '@type': 'Event',
          layout: 'event_view',
          start: '2030-05-01T09:00:00',
          end: '2030-05-01T17:30:00',
          whole_day: false,
          open_end: true,
          recurrence: 'RRULE:FREQ=DAILY;COUNT=3',
          location: 'Main hall',
          event_url: 'https://example.org/launch',
          attendees: ['ann', 'bob'],
          contact_name: 'Ann',
          contact_email: 'ann@example.org',
          contact_phone: '+1 555 0100',
          sync_uid: 'launch-2030',
          text: null,
        },
      );
    });

    it('Link: the remote URL (an internal link sent as ${portal_url}/… is served as its target URL)', async () => {
      await roundTrip(
        { '@type': 'Link', title: 'Elsewhere', remoteUrl: '${portal_url}/types/target' },
        { '@type': 'Link', layout: 'link_redirect_view', remoteUrl: `${base}/types/target` },
      );
      await roundTrip(
        { '@type': 'Link', title: 'Outside', remoteUrl: 'https://example.org/x' },
        { '@type': 'Link', remoteUrl: 'https://example.org/x' },
      );
    });

    it('File: the upload, no workflow, id from the file name; the bytes come back', async () => {
      const bytes = Buffer.from('quarterly figures\n');
      const file = await roundTrip(
        { '@type': 'File', file: upload(bytes, 'Report 2030.txt', 'text/plain') },
        {
          '@type': 'File',
          id: 'report-2030.txt',
          title: '',
          review_state: null,
          layout: 'file_view',
          file: {
            'content-type': 'text/plain',
            download: `${base}/types/report-2030.txt/@@download/file`,
            filename: 'Report 2030.txt',
            size: bytes.length,
          },
        },
      );
      const download = await fetch(file.file.download, { headers: { Authorization: 'Basic YWRtaW46YWRtaW4=' } });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
      const again = await create({ '@type': 'File', file: upload(bytes, 'Report 2030.txt', 'text/plain') });
      expect(again.id).toBe('report-2030-1.txt');
    });

    it('Image: the upload with its pixel size, no workflow', async () => {
      const bytes = png(5, 7);
      await roundTrip(
        { '@type': 'Image', title: 'Portrait', image: upload(bytes, 'portrait.png', 'image/png') },
        {
          '@type': 'Image',
          id: 'portrait',
          review_state: null,
          layout: 'image_view',
          image: { 'content-type': 'image/png', filename: 'portrait.png', size: bytes.length, width: 5, height: 7 },
        },
      );
    });

    it('Collection: query, sort, limits, table columns (as terms) and text', async () => {
      const query = [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Document'] }];
      await roundTrip(
        {
          '@type': 'Collection',
          title: 'All Pages',
          query,
          sort_on: 'sortable_title',
          sort_reversed: true,
          limit: 50,
          item_count: 10,
          customViewFields: ['Title', { token: 'getId', title: 'Short name' }],
          text: { data: 'plain', 'content-type': 'text/plain' },
        },
        {
          '@type': 'Collection',
          layout: 'listing_view',
          query,
          sort_on: 'sortable_title',
          sort_reversed: true,
          limit: 50,
          item_count: 10,
          customViewFields: [
            { title: 'Title', token: 'Title' },
            { title: 'Short name', token: 'getId' },
          ],
          text: { 'content-type': 'text/plain', data: 'plain', encoding: 'utf-8' },
        },
      );
      // Unset, the table columns and limits show their defaults.
      const plain = await create({ '@type': 'Collection', title: 'Defaults' });
      expect(plain).toMatchObject({ limit: 1000, item_count: 30, query: null, sort_on: null, sort_reversed: null });
      expect(plain.customViewFields.map((c: any) => c.token)).toEqual(['Title', 'Creator', 'Type', 'ModificationDate']);
    });

    it('Folder: next/previous toggle, a chosen layout, items', async () => {
      const folder = await roundTrip(
        { '@type': 'Folder', title: 'Shelf', nextPreviousEnabled: true, layout: 'summary_view' },
        { '@type': 'Folder', is_folderish: true, nextPreviousEnabled: true, layout: 'summary_view', items_total: 0 },
      );
      expect(folder.items).toEqual([]);
      expect(await create({ '@type': 'Document', title: 'On the shelf' }, '/types/shelf')).toMatchObject({
        parent: { '@id': `${base}/types/shelf`, '@type': 'Folder', review_state: 'private', type_title: 'Folder' },
      });
      expect((await get('/types/shelf')).items_total).toBe(1);
    });

    it('the site root: language as a term, items, no dates or version of its own (transcript siteroot)', async () => {
      const root = await get('/');
      expect(root).toMatchObject({
        '@type': 'Site Root',
        title: 'Site',
        language: { title: 'English', token: 'en' },
        parent: {},
        review_state: null,
        text: null,
        table_of_contents: null,
      });
      for (const absent of ['created', 'modified', 'version', 'next_item', 'previous_item']) {
        expect(root).not.toHaveProperty([absent]);
      }
      const patched = await t.request('PATCH', '/', {
        body: { title: 'Renamed Site', text: '<p>Welcome</p>' },
        headers: { Prefer: 'return=representation' },
      });
      expect(await json(patched)).toMatchObject({ title: 'Renamed Site', text: { data: '<p>Welcome</p>' } });
      await t.request('PATCH', '/', { body: { title: 'Site', text: null } });
    });
  });

  describe('validation: 400 with per-field errors, and nothing changes', () => {
    let fixtures: Record<string, string>;
    beforeAll(async () => {
      await create({ '@type': 'Folder', title: 'Checks' }, '/');
      const make = async (body: Record<string, unknown>) =>
        (await create(body, '/checks'))['@id'].slice(base.length) as string;
      fixtures = {
        doc: await make({ '@type': 'Document', title: 'Checked', subjects: ['keep'], effective: '2030-01-01' }),
        event: await make({ '@type': 'Event', title: 'Meet', start: '2030-01-01T10:00', end: '2030-01-01T11:00' }),
        collection: await make({ '@type': 'Collection', title: 'List' }),
        file: await make({ '@type': 'File', title: 'F', file: upload(Buffer.from('x'), 'x.txt', 'text/plain') }),
        image: await make({ '@type': 'Image', title: 'I', image: upload(png(2, 2), 'i.png', 'image/png') }),
      };
    });

    async function expectInvalid(response: Response, fields: string[]) {
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.type).toBe('BadRequest');
      expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
      for (const error of body.errors) expect(error.message).toEqual(expect.any(String));
    }

    // [what, fixture, PATCH body, fields named in the errors]
    const patches: [string, string, Record<string, unknown>, string[]][] = [
      ['textline: a second line', 'doc', { title: 'one\ntwo' }, ['title']],
      ['text: not a string', 'doc', { description: 5 }, ['description']],
      [
        'richtext: an unknown mime type',
        'doc',
        { text: { data: 'x', 'content-type': 'app/x' } },
        ['text.content-type'],
      ],
      ['boolean: a string', 'doc', { exclude_from_nav: 'yes' }, ['exclude_from_nav']],
      ['yes/no choice: not True or False', 'doc', { allow_discussion: 'maybe' }, ['allow_discussion']],
      ['int: not an integer', 'collection', { limit: 2.5 }, ['limit']],
      ['int: out of range', 'collection', { item_count: 0 }, ['item_count']],
      ['datetime: no such day', 'doc', { effective: '2030-02-30T10:00:00' }, ['effective']],
      ['choice: not a choice', 'doc', { language: 'xx' }, ['language']],
      ['multiple choice: not a choice', 'collection', { customViewFields: ['Nope'] }, ['customViewFields.0']],
      ['list: not a list', 'doc', { subjects: 'keep' }, ['subjects']],
      ['url: not http', 'event', { event_url: 'javascript:alert(1)' }, ['event_url']],
      ['email: no domain', 'event', { contact_email: 'nobody' }, ['contact_email']],
      [
        'file: not base64 encoding',
        'file',
        { file: { data: 'eA==', encoding: 'hex', filename: 'x' } },
        ['file.encoding'],
      ],
      ['file: no data', 'file', { file: { encoding: 'base64', filename: 'x' } }, ['file.data']],
      [
        'image: not an image type',
        'image',
        { image: { data: 'eA==', encoding: 'base64', filename: 'x.png', 'content-type': 'text/plain' } },
        ['image.content-type'],
      ],
      [
        'relation list: no such object',
        'doc',
        { relatedItems: ['0123456789abcdef0123456789abcdef'] },
        ['relatedItems.0'],
      ],
      ['querystring: a criterion without operator', 'collection', { query: [{ i: 'portal_type' }] }, ['query.0.o']],
      ['required: unset', 'doc', { title: null }, ['title']],
      ['unknown field', 'doc', { colour: 'red', start: '2030-01-01' }, ['colour', 'start']],
      ['another type', 'doc', { '@type': 'Folder' }, ['@type']],
      ['a layout the type does not have', 'doc', { layout: 'album_view' }, ['layout']],
      ['event ends before it starts', 'event', { end: '2029-12-31T10:00:00' }, ['end']],
      ['ordering of a folder PATCH', 'doc', { ordering: { obj_id: 'x', delta: 'sideways' } }, ['ordering.delta']],
      ['several at once', 'doc', { title: 3, subjects: [1], exclude_from_nav: null }, ['title', 'subjects.0']],
    ];
    // The float, date and JSON kinds are not used by a built-in type: services/content/test/content-schema.test.ts checks them.

    it.each(patches)('PATCH %s', async (_what, fixture, body, fields) => {
      const path = fixtures[fixture];
      const before = await get(path);
      await expectInvalid(await t.request('PATCH', path, { body }), fields);
      expect(await get(path)).toEqual(before);
    });

    // [what, container, POST body, fields]
    const posts: [string, string, Record<string, unknown>, string[]][] = [
      ['no @type', '/checks', { title: 'x' }, ['@type']],
      ['an unknown @type', '/checks', { '@type': 'Spaceship', title: 'x' }, ['@type']],
      ['the site root type', '/checks', { '@type': 'Site Root', title: 'x' }, ['@type']],
      ['a required title missing', '/checks', { '@type': 'Document' }, ['title']],
      ['a required URL missing', '/checks', { '@type': 'Link', title: 'l' }, ['remoteUrl']],
      ['event dates missing', '/checks', { '@type': 'Event', title: 'e' }, ['start', 'end']],
      ['a required file missing', '/checks', { '@type': 'File', title: 'f' }, ['file']],
      [
        'an image that is not one',
        '/checks',
        { '@type': 'Image', image: upload(Buffer.from('no'), 'n.png', 'image/png') },
        ['image.data'],
      ],
      ['an id that is no path segment', '/checks', { '@type': 'Document', title: 'x', id: 'a/b' }, ['id']],
      ['inside an item that is not a folder', '/checks/checked', { '@type': 'Document', title: 'x' }, ['@type']],
    ];

    it.each(posts)('POST %s', async (_what, container, body, fields) => {
      const before = await get('/checks');
      await expectInvalid(await t.request('POST', container, { body }), fields);
      expect((await get('/checks')).items_total).toBe(before.items_total);
      expect(await get('/checks/checked')).not.toHaveProperty('items');
    });

    it('a caller without Add permission gets 401 (anonymous) or 403, and nothing is added', async () => {
      expect(
        (await t.request('POST', '/@users', { body: { username: 'reader', password: 'reader-pass' } })).status,
      ).toBe(201);
      const body = { '@type': 'Document', title: 'Intruder' };
      expect((await t.request('POST', '/checks', { body, auth: null })).status).toBe(401);
      const member = 'Basic ' + Buffer.from('reader:reader-pass').toString('base64');
      expect((await t.request('POST', '/checks', { body, auth: member })).status).toBe(403);
      expect((await t.request('PATCH', '/checks/checked', { body: { title: 'x' }, auth: member })).status).toBe(403);
      expect((await get('/checks')).items.map((i: any) => i.title)).not.toContain('Intruder');
    });
  });

  describe('writes', () => {
    it("ignores what a client sends back that is no field (Volto's add form, a GET's members); not a misspelling", async () => {
      const response = await t.request('POST', '/', {
        body: {
          '@type': 'Document',
          title: 'From the add form',
          parent: { '@id': base, title: 'Site' },
          selected: 'abc',
          '@static_behaviors': [],
          review_state: 'published',
        },
      });
      expect(response.status).toBe(201);
      const created = await json(response);
      expect(created).toMatchObject({ title: 'From the add form', review_state: 'private' });
      expect(created).not.toHaveProperty('selected');
      const path = created['@id'].slice(base.length);
      const typo = await t.request('PATCH', path, { body: { titel: 'typo' } });
      expect(typo.status).toBe(400);
      expect(JSON.stringify(await json(typo))).toContain('titel');
    });

    it('PATCH: 204, the own @type tolerated, an empty body changes nothing, representation on request', async () => {
      const doc = await create({ '@type': 'Document', title: 'Edit Me' });
      const path = doc['@id'].slice(base.length);
      const patched = await t.request('PATCH', path, { body: { '@type': 'Document', subjects: ['new'] } });
      expect(patched.status).toBe(204);
      expect(await patched.text()).toBe('');
      const after = await get(path);
      expect(after.subjects).toEqual(['new']);
      expect((await t.request('PATCH', path, { body: '' })).status).toBe(204);
      expect(await get(path)).toEqual(after);
      const represented = await t.request('PATCH', path, {
        body: { title: 'Edited' },
        headers: { Prefer: 'return=representation' },
      });
      expect(represented.status).toBe(200);
      expect(await json(represented)).toMatchObject({
        title: 'Edited',
        subjects: ['new'],
        '@components': { workflow: { '@id': `${doc['@id']}/@workflow` } },
      });
    });

    it('PATCH with a new id renames; with ordering re-orders the items', async () => {
      await create({ '@type': 'Folder', title: 'Order' }, '/');
      for (const title of ['One', 'Two', 'Three']) await create({ '@type': 'Document', title }, '/order');
      const reordered = await t.request('PATCH', '/order', {
        body: { ordering: { obj_id: 'three', delta: 'top' }, description: 'sorted' },
      });
      expect(reordered.status).toBe(204);
      const folder = await get('/order');
      expect(folder.items.map((i: any) => i.title)).toEqual(['Three', 'One', 'Two']);
      expect(folder.description).toBe('sorted');
      const renamed = await t.request('PATCH', '/order/one', {
        body: { id: 'first', title: 'First' },
        headers: { Prefer: 'return=representation' },
      });
      expect(await json(renamed)).toMatchObject({ '@id': `${base}/order/first`, id: 'first', title: 'First' });
      // The old path answers a redirect to the new one (addendum §8).
      const old = await fetch(t.url('/order/one'), { redirect: 'manual' });
      expect([old.status, old.headers.get('location')]).toEqual([302, `${base}/order/first`]);
    });

    it('DELETE: 204, and the subtree (with its files) goes with it', async () => {
      await create({ '@type': 'Folder', title: 'Doomed' }, '/');
      await create({ '@type': 'Folder', title: 'Inner' }, '/doomed');
      await create({ '@type': 'File', file: upload(Buffer.from('bye'), 'bye.txt', 'text/plain') }, '/doomed/inner');
      expect((await t.request('DELETE', '/doomed')).status).toBe(204);
      for (const path of ['/doomed', '/doomed/inner', '/doomed/inner/bye.txt']) {
        expect((await t.request('GET', path)).status).toBe(404);
      }
    });

    it('next_item / previous_item: only when the parent enables them, only what the caller may view', async () => {
      await create({ '@type': 'Folder', title: 'Steps', nextPreviousEnabled: true }, '/');
      for (const title of ['A', 'B', 'C']) await create({ '@type': 'Document', title, description: title }, '/steps');
      for (const path of ['/steps', '/steps/a', '/steps/c']) {
        expect((await t.request('POST', `${path}/@workflow/publish`)).status).toBe(200);
      }
      const summaryOf = (id: string) => ({
        '@id': `${base}/steps/${id}`,
        '@type': 'Document',
        description: id.toUpperCase(),
        title: id.toUpperCase(),
      });
      const middle = await get('/steps/b');
      expect(middle.previous_item).toEqual(summaryOf('a'));
      expect(middle.next_item).toEqual(summaryOf('c'));
      // Anonymous callers do not see the private B.
      const last = await get('/steps/c', null);
      expect(last.previous_item).toEqual(summaryOf('a'));
      expect(last.next_item).toEqual({});
      await t.request('PATCH', '/steps', { body: { nextPreviousEnabled: false } });
      expect(await get('/steps/b')).toMatchObject({ previous_item: {}, next_item: {} });
    });

    it('related items the caller may not view are left out', async () => {
      await create({ '@type': 'Folder', title: 'Open' }, '/');
      const secret = await create({ '@type': 'Document', title: 'Secret' }, '/open');
      await create({ '@type': 'Document', title: 'Public', relatedItems: [secret.UID] }, '/open');
      for (const path of ['/open', '/open/public']) await t.request('POST', `${path}/@workflow/publish`);
      expect((await get('/open/public')).relatedItems).toHaveLength(1);
      expect((await get('/open/public', null)).relatedItems).toEqual([]);
    });
  });

  describe('the shape of each type matches its transcript (same members, same value types)', () => {
    const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

    /** Members and value types, one level into objects (`image.scales` by type); `lock` and `@components` by type. */
    function shape(value: Record<string, unknown>): Record<string, MemberShape> {
      const members = (v: object) => Object.fromEntries(Object.entries(v).map(([key, x]) => [key, kind(x)]));
      const byTypeOnly = (key: string, v: unknown) =>
        key === 'lock' ||
        key === '@components' ||
        key === 'blocks' ||
        v === null ||
        typeof v !== 'object' ||
        Array.isArray(v);
      return Object.fromEntries(
        Object.entries(value).map(([key, v]) => [
          key,
          (byTypeOnly(key, v) ? kind(v) : members(v as object)) as MemberShape,
        ]),
      );
    }
    /** The expected members of `label` (fixtures/content-members.ts), less those not served. */
    const expected = (label: string, notServed: string[] = []) =>
      Object.fromEntries(Object.entries(CONTENT_MEMBERS[label].members).filter(([key]) => !notServed.includes(key)));
    const served = (ours: Record<string, unknown>, notServed: string[] = []) =>
      Object.fromEntries(Object.entries(shape(ours)).filter(([key]) => !notServed.includes(key)));

    // Deliberate differences, each said once:
    // - dates: the transcripts end in +00:00; convention 5 serves content dates without a zone (checked below);
    // - `lock`: transcripts of types without the locking behavior show `{}`; the specification's unlocked form is
    //   `{locked: false, stealable: true}` for every object (so `lock` is compared by type only);
    // - image `scales`: not produced yet (empty object; clients fall back to `download`);
    // - `@components`: compared by member names (the transcript's are links too);
    // - `blocks`/`blocks_layout`: not in the recordings; on for Document, News Item, Event and the site root
    //   (a site made for Volto has them); `blocks` is compared by type only (its members are block ids);
    // - Collection `items`/`items_total`: the query's results are not served inside the Collection yet (they come
    //   from @querystring-search); left out of the comparison.

    // Made in the site root, where the recorded objects are (their `parent` has no review_state).
    const atRoot = async (body: Record<string, unknown>) => (await create(body, '/'))['@id'] as string;
    const folderWithItem = async (title: string) => {
      const folder = await atRoot({ '@type': 'Folder', title });
      await create({ '@type': 'Document', title: 'In it' }, folder.slice(base.length));
      return folder;
    };
    const cases: [string, string, () => Promise<string>, string[]][] = [
      ['Document', 'document', () => atRoot({ '@type': 'Document', title: 'Shape Doc', text: '<p>x</p>' }), []],
      [
        'News Item',
        'newsitem',
        () =>
          atRoot({
            '@type': 'News Item',
            title: 'Shape News',
            text: '<p>x</p>',
            image: upload(png(3, 3), 'n.png', 'image/png'),
            image_caption: 'caption',
          }),
        [],
      ],
      [
        'Event',
        'event',
        () => atRoot({ '@type': 'Event', title: 'Shape Event', start: '2013-01-01T10:00', end: '2013-01-01T12:00' }),
        [],
      ],
      ['Link', 'link', () => atRoot({ '@type': 'Link', title: 'Shape Link', remoteUrl: 'http://localhost:8080' }), []],
      [
        'File',
        'file',
        () =>
          atRoot({
            '@type': 'File',
            title: 'Shape File',
            file: upload(Buffer.from('%PDF'), 'f.pdf', 'application/pdf'),
          }),
        [],
      ],
      [
        'Image',
        'image',
        () => atRoot({ '@type': 'Image', title: 'Shape Image', image: upload(png(2, 2), 'i.png', 'image/png') }),
        [],
      ],
      [
        'Collection',
        'collection',
        () =>
          atRoot({
            '@type': 'Collection',
            title: 'Shape Collection',
            query: [{ i: 'portal_type', o: 'cms.app.querystring.operation.string.is', v: 'Document' }],
          }),
        ['items', 'items_total'],
      ],
      ['Folder', 'folder', () => folderWithItem('Shape Folder'), []],
      [
        'Folder with metadata_fields',
        'content_get_folder',
        async () => `${await folderWithItem('Shape Folder Two')}?metadata_fields=UID&metadata_fields=Creator`,
        [],
      ],
      ['Site Root', 'siteroot', async () => base, []],
    ];

    it.each(cases)('%s (transcript %s)', async (label, _transcript, make, notServed) => {
      const url = await make();
      const ours = await json(await fetch(url, { headers: { Authorization: 'Basic YWRtaW46YWRtaW4=' } }));
      expect(served(ours, notServed)).toEqual(expected(label, notServed));
      expect(Object.keys(ours['@components']).sort()).toEqual(COMPONENTS);
      for (const member of ['created', 'modified', 'start', 'end']) {
        if (CONTENT_MEMBERS[label].members[member] === 'string') expect(ours[member]).toMatch(contentDate);
      }
    });

    it('POST and PATCH answers have the shape of content_post and content_patch_representation', async () => {
      const folder = await create({ '@type': 'Folder', title: 'Posting' });
      const response = await t.request('POST', folder['@id'].slice(base.length), {
        body: { '@type': 'Document', title: 'My Document' },
      });
      const posted = await json(response);
      expect(shape(posted)).toEqual(expected('POST answer'));
      const patched = await t.request('PATCH', posted['@id'].slice(base.length), {
        body: { title: 'My New Document Title' },
        headers: { Prefer: 'return=representation' },
      });
      expect(shape(await json(patched))).toEqual(expected('PATCH answer'));
      expect(shape(await get(posted['@id'].slice(base.length)))).toEqual(expected('GET after POST and PATCH'));
    });
  });
});
