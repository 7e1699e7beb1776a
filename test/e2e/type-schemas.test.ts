import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { documentSchema } from './fixtures/document-schema';

/**
 * `@types/<type>` through the gateway (specification: Type schema, Types): the JSON schema of every built-in
 * type, which clients draw their add and edit forms from, and `@types` on a context with what may be added there.
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;

/** The `factory` labels a schema may show (the Fields vocabulary's titles and the reference's own labels). */
const FACTORIES = [
  'Text line (String)',
  'Text',
  'Rich Text',
  'Yes/No',
  'Choice',
  'Integer',
  'Floating-point number',
  'Date/Time',
  'Date',
  'Multiple Choice',
  'Tuple',
  'List',
  'URL',
  'Email',
  'File Upload',
  'Image',
  'Relation List',
  'JSONField',
];

describe('type schemas', () => {
  let t: TestSuite;
  let base: string;

  beforeAll(async () => {
    t = await startTestSuite();
    base = t.suite.publicUrl;
    const made = await t.request('POST', '/@users', {
      body: { username: 'mia', password: 'secret-mia', fullname: 'Mia Member' },
    });
    expect(made.status).toBe(201);
    expect((await t.request('POST', '/', { body: { '@type': 'Folder', id: 'shelf', title: 'Shelf' } })).status).toBe(
      201,
    );
    expect(
      (await t.request('POST', '/shelf', { body: { '@type': 'Document', id: 'page', title: 'Page' } })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('Document: the schema of the reference transcript, as application/json+schema', async () => {
    const response = await t.request('GET', '/@types/Document');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\+schema/);
    expect(await response.json()).toEqual(documentSchema(base));
  });

  it('every built-in type: fieldsets cover every property once, each property fully described', async () => {
    const listed = await json(await t.request('GET', '/@types'));
    const names = (listed as unknown as { id: string; title: string }[]).map((entry) => entry.id);
    expect(names.sort()).toEqual(['Collection', 'Document', 'Event', 'File', 'Folder', 'Image', 'Link', 'News Item']);
    for (const entry of listed as unknown as { '@id': string; id: string; title: string }[]) {
      const response = await t.request('GET', `/@types/${encodeURIComponent(entry.id)}`);
      expect(response.status).toBe(200);
      const schema = await json(response);
      expect(schema.title).toBe(entry.title);
      expect(schema.type).toBe('object');
      expect(schema.layouts.length).toBeGreaterThan(0);
      const inFieldsets = schema.fieldsets.flatMap((f: { fields: string[] }) => f.fields);
      expect([...inFieldsets].sort()).toEqual(Object.keys(schema.properties).sort());
      for (const fieldset of schema.fieldsets) {
        expect(fieldset).toMatchObject({ behavior: 'cms', id: expect.any(String), title: expect.any(String) });
      }
      for (const [name, property] of Object.entries<Record<string, unknown>>(schema.properties)) {
        expect({ name, ...property }).toMatchObject({
          name,
          behavior: expect.any(String),
          title: expect.any(String),
          description: expect.any(String),
          type: expect.any(String),
        });
        expect(FACTORIES).toContain(property.factory);
      }
      for (const name of schema.required) expect(schema.properties).toHaveProperty([name]);
      expect(schema.required).toContain(entry.id === 'File' || entry.id === 'Image' ? entry.id.toLowerCase() : 'title');
    }
  });

  it('each type shows the fields of its own schema and behaviors', async () => {
    const schema = async (name: string) => json(await t.request('GET', `/@types/${encodeURIComponent(name)}`));
    const event = await schema('Event');
    expect(event.required).toEqual(expect.arrayContaining(['title', 'start', 'end']));
    expect(event.properties.start).toMatchObject({
      behavior: 'cms.eventbasic',
      factory: 'Date/Time',
      widget: 'datetime',
    });
    expect(event.properties.contact_email).toMatchObject({ factory: 'Email', widget: 'email' });
    expect(event.properties.event_url).toMatchObject({ factory: 'URL', widget: 'url' });
    const news = await schema('News Item');
    expect(news.properties.image).toMatchObject({ behavior: 'cms.leadimage', factory: 'Image', type: 'object' });
    expect(news.properties.image_caption).toMatchObject({ behavior: 'cms.leadimage' });
    expect(news.layouts).toEqual(['newsitem_view']);
    const link = await schema('Link');
    expect(link.properties.remoteUrl).toMatchObject({ behavior: 'cms', default: 'http://' });
    expect(link.required).toEqual(expect.arrayContaining(['title', 'remoteUrl']));
    const file = await schema('File');
    expect(file.properties.file).toMatchObject({ behavior: 'cms', factory: 'File Upload', widget: 'file' });
    expect(file.required).not.toContain('title');
    const collection = await schema('Collection');
    expect(collection.properties.query).toMatchObject({ widget: 'querystring', type: 'array' });
    expect(collection.properties.limit).toMatchObject({ type: 'integer', default: 1000, minimum: 1 });
    expect(collection.properties.customViewFields).toMatchObject({
      factory: 'Multiple Choice',
      items: { vocabulary: { '@id': `${base}/@vocabularies/cms.app.vocabularies.MetadataFields` } },
    });
    const folder = await schema('Folder');
    expect(folder.properties.nextPreviousEnabled).toMatchObject({
      behavior: 'cms.nextpreviousenabled',
      default: false,
    });
    expect(folder.layouts).toContain('listing_view');
    // The site root's type, also by the reference's name.
    const root = await schema('Site Root');
    expect(root.title).toBe('Site Root');
    expect(await schema('Plone Site')).toEqual(root);
  });

  it('answers on any context, to any logged-in caller; anonymous 401, unknown type 404', async () => {
    expect((await t.request('GET', '/shelf/page/@types/Document')).status).toBe(200);
    expect((await t.request('GET', '/@types/Document', { auth: basic('mia') })).status).toBe(200);
    const anonymous = await t.request('GET', '/@types/Document', { auth: null });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ type: 'Unauthorized' });
    const unknown = await t.request('GET', '/@types/Nothing');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'NotFound' });
    // One field or fieldset of a type (schema editing itself: type-editing.test.ts).
    expect((await t.request('GET', '/@types/Document/nothing')).status).toBe(404);
    expect(await (await t.request('GET', '/@types/Document/title')).json()).toMatchObject({
      behavior: 'cms.dublincore',
      title: 'Title',
    });
  });

  it('@types on a context: addable and immediately_addable say what the caller may add there', async () => {
    const entry = (list: any[], id: string) => list.find((e) => e.id === id);
    const inFolder = (await json(await t.request('GET', '/shelf/@types'))) as unknown as any[];
    expect(entry(inFolder, 'Document')).toEqual({
      '@id': `${base}/@types/Document`,
      addable: true,
      id: 'Document',
      immediately_addable: true,
      title: 'Page',
    });
    // Nothing goes into a page; a Member may add nowhere.
    const inPage = (await json(await t.request('GET', '/shelf/page/@types'))) as unknown as any[];
    expect(inPage.every((e) => !e.addable && !e.immediately_addable)).toBe(true);
    const asMember = (await json(await t.request('GET', '/@types', { auth: basic('mia') }))) as unknown as any[];
    expect(asMember.length).toBe(8);
    expect(asMember.every((e) => !e.addable)).toBe(true);
    expect((await t.request('GET', '/@types', { auth: null })).status).toBe(401);
  });
});
