import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';

/**
 * `@search` options through the gateway (specification: Search, Search result item; transcripts
 * `search_metadata_fields`, `search_fullobjects`): `metadata_fields` (one, several, `_all`), `fullobjects`,
 * and 400 for an unknown index or a malformed value.
 */

const json = async (response: Response) => (await response.json()) as Record<string, any>;

/** The columns `_all` adds (issue 12, item 2). */
const ALL_COLUMNS = [
  'UID',
  'getId',
  'id',
  'Title',
  'Description',
  'Type',
  'portal_type',
  'review_state',
  'Creator',
  'listCreators',
  'created',
  'modified',
  'effective',
  'expires',
  'start',
  'end',
  'location',
  'Subject',
  'getObjSize',
  'getRemoteUrl',
  'is_folderish',
  'exclude_from_nav',
  'getIcon',
  'image_scales',
  'mime_type',
  'total_comments',
  'last_comment_date',
  'commentators',
  'CreationDate',
  'ModificationDate',
  'EffectiveDate',
  'ExpirationDate',
  'author_name',
  'getPath',
];

const PNG = png(300, 200);

describe('@search options', () => {
  let t: TestSuite;
  const url = (path: string) => t.suite.publicUrl + path;

  beforeAll(async () => {
    t = await startTestSuite();
    await t.adminJson('POST', '/', { '@type': 'Folder', id: 'box', title: 'Box' });
    await t.adminJson('POST', '/box', {
      '@type': 'Document',
      id: 'page',
      title: 'Lorem page',
      subjects: ['alpha'],
      effective: '2024-05-01T08:00:00',
      expires: '2030-01-01T00:00:00',
    });
    await t.adminJson('POST', '/box', {
      '@type': 'Event',
      id: 'party',
      title: 'Lorem party',
      start: '2025-03-01T18:00:00',
      end: '2025-03-01T23:00:00',
      location: 'Hall',
    });
    await t.adminJson('POST', '/box', {
      '@type': 'Link',
      id: 'out',
      title: 'Lorem link',
      remoteUrl: 'https://example.org/',
    });
    await t.adminJson('POST', '/box', {
      '@type': 'File',
      id: 'notes',
      title: 'Lorem notes',
      file: {
        data: Buffer.from('x'.repeat(3000)).toString('base64'),
        encoding: 'base64',
        filename: 'notes.txt',
        'content-type': 'text/plain',
      },
    });
    // Images apart from /box, whose listings other cases count.
    await t.admin('POST', '/', {
      '@type': 'Image',
      id: 'photo',
      title: 'Lorem photo',
      image: upload(PNG, 'p.png', 'image/png'),
    });
    await t.admin('POST', '/', {
      '@type': 'News Item',
      id: 'news',
      title: 'Lorem news',
      image: upload(PNG, 'lead.png', 'image/png'),
    });
    await t.adminJson('POST', '/box/page/@workflow/publish');
  });
  afterAll(async () => {
    await t.stop();
  });

  const search = async (query: string, auth?: string | null) => {
    const response = await t.request('GET', `/@search?${query}`, { auth });
    const body = await json(response);
    if (response.status !== 200) throw new Error(`answered ${response.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const byId = (body: Record<string, any>) =>
    Object.fromEntries(body.items.map((item: Record<string, any>) => [item['@id'], item]));

  describe('metadata_fields', () => {
    it('adds the named columns to the summary, repeatable', async () => {
      const body = await search('getId=page&metadata_fields=modified&metadata_fields=Subject');
      expect(Object.keys(body.items[0]).sort()).toEqual(
        ['@id', '@type', 'Subject', 'description', 'modified', 'review_state', 'title', 'type_title'].sort(),
      );
      expect(body.items[0].Subject).toEqual(['alpha']);
      expect(body.items[0].modified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    });

    it('with _all adds every catalog column, with the object’s values', async () => {
      const items = byId(await search('path.query=/box&path.depth=1&metadata_fields=_all'));
      const page = items[url('/box/page')];
      for (const column of ALL_COLUMNS) expect(page).toHaveProperty(column);
      expect(page).toEqual(
        expect.objectContaining({
          UID: expect.stringMatching(/^[0-9a-f]{32}$/),
          getId: 'page',
          Title: 'Lorem page',
          Type: 'Page',
          portal_type: 'Document',
          review_state: 'published',
          Creator: 'admin',
          listCreators: ['admin'],
          effective: '2024-05-01T08:00:00',
          expires: '2030-01-01T00:00:00',
          EffectiveDate: '2024-05-01T08:00:00+00:00',
          ExpirationDate: '2030-01-01T00:00:00+00:00',
          Subject: ['alpha'],
          is_folderish: false,
          exclude_from_nav: false,
          getPath: '/box/page',
          start: null,
          getRemoteUrl: null,
        }),
      );
      expect(page.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(page.CreationDate).toMatch(/\+00:00$/);
      expect(items[url('/box/party')]).toEqual(
        expect.objectContaining({ start: '2025-03-01T18:00:00', end: '2025-03-01T23:00:00', location: 'Hall' }),
      );
      expect(items[url('/box/out')].getRemoteUrl).toBe('https://example.org/');
      expect(items[url('/box/notes')]).toEqual(
        expect.objectContaining({ getObjSize: '3 KB', mime_type: 'text/plain' }),
      );
      // A private object's unset effective date.
      expect(items[url('/box/party')].EffectiveDate).toBe('None');
    });

    it('image_scales and image_field: an image’s field and scales, downloads relative to the item', async () => {
      const items = byId(
        await search(
          'portal_type=Image&portal_type=News Item&metadata_fields=image_scales&metadata_fields=image_field',
        ),
      );
      const photo = items[url('/photo')];
      const object = await t.adminJson('GET', '/photo');
      // The object's own image, its URLs made relative to it (as the original's catalog keeps them).
      const relative = JSON.parse(JSON.stringify(object.image).replaceAll(`${url('/photo')}/`, ''));
      expect(photo.image_field).toBe('image');
      expect(photo.image_scales).toEqual({ image: [relative] });
      const [image] = photo.image_scales.image;
      expect(image).toEqual(
        expect.objectContaining({ 'content-type': 'image/png', width: 300, height: 200, size: PNG.length }),
      );
      expect(image.download).toMatch(/^@@images\/image-300-[0-9a-f]{12}\.png$/);
      expect(image.scales.thumb).toEqual({ download: expect.stringMatching(/^@@images\//), width: 128, height: 85 });
      // What Volto requests: the item's URL, then the download.
      for (const download of [image.download, image.scales.thumb.download]) {
        const response = await t.request('GET', `/photo/${download}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
      }
      // A News Item's lead image is its `image` field too; no image: no field, no scales.
      expect(items[url('/news')].image_field).toBe('image');
      expect(items[url('/news')].image_scales.image[0].filename).toBe('lead.png');
      const [page] = (await search('getId=page&metadata_fields=image_scales&metadata_fields=image_field')).items;
      expect(page).toEqual(expect.objectContaining({ image_field: '', image_scales: null }));
      // `_all` has them as well.
      const all = byId(await search('getId=photo&metadata_fields=_all'));
      expect(all[url('/photo')].image_scales).toEqual(photo.image_scales);
    });

    it('leaves out a column the catalog does not keep', async () => {
      const body = await search('getId=page&metadata_fields=no_such_column');
      expect(body.items[0]).not.toHaveProperty('no_such_column');
    });
  });

  describe('fullobjects', () => {
    it('answers each result as GET on it would, batched', async () => {
      const body = await search('path.query=/box&path.depth=1&sort_on=getId&fullobjects=1&b_size=2');
      expect(body.items_total).toBe(4);
      expect(body.items.map((item: any) => item.id)).toEqual(['notes', 'out']);
      const direct = await t.adminJson('GET', '/box/out');
      expect(body.items[1]).toEqual(direct);
      expect(body.batching.next).toBeDefined();
    });

    it('takes the bare flag, and fullobjects=0 is off', async () => {
      expect((await search('getId=page&fullobjects')).items[0].UID).toBeDefined();
      expect((await search('getId=page&fullobjects=0')).items[0].UID).toBeUndefined();
    });

    it('shows an anonymous caller only what it may view, in full', async () => {
      const body = await search('path.query=/box&fullobjects=1', null);
      expect(body.items.map((item: any) => item['@id'])).toEqual([url('/box/page')]);
      expect(body.items[0].review_state).toBe('published');
      expect(body.items[0]['@components']).toBeDefined();
    });
  });

  describe('refusals', () => {
    it.each([
      ['an unknown index', 'nonsense=1'],
      ['an unknown dotted index', 'nonsense.query=1'],
      ['a boolean that is not one', 'is_folderish=perhaps'],
      ['a date that is not one', 'created.query=yesterday&created.range=min'],
      ['a malformed range', 'created.query=2024-01-01&created.range=sideways'],
      ['a range without its values', 'created.query=2024-01-01&created.range=min:max'],
      ['a number that is not one', 'getObjPositionInParent=first'],
      ['a name of an object property', 'constructor=1'],
      ['a sort on an object property', 'sort_on=toString'],
    ])('%s is 400 with a message', async (_name, query) => {
      const response = await t.request('GET', `/@search?${query}`);
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.type).toBe('BadRequest');
      expect(body.message).toEqual(expect.any(String));
    });
  });

  describe('indexes the options rely on', () => {
    it('filters dates by range and booleans', async () => {
      const after = await search('path.query=/box&effective.query=2024-01-01&effective.range=min');
      expect(after.items.map((i: any) => i['@id'])).toEqual([url('/box/page')]);
      const folders = await search('path.query=/&is_folderish=true&sort_on=path');
      expect(folders.items.map((i: any) => i['@id'])).toEqual([url(''), url('/box')].map((u) => u || url('/')));
    });
  });
});
