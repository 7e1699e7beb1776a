import { png, upload } from '../support/images';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Content types as data (issue 11): schema edits through `@types/<type>` and the `cms-types` control panel,
 * decided by the config service, and seen by content on the very next request through the gateway.
 */

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const GENERATED = 'cms.dexterity.schema.generated.cms_0_Document';

/** One field per kind of `@vocabularies/Fields`: the factory token, its title, and a value to write. */
const KINDS: { factory: string; title: string; name: string; value: unknown; type: string }[] = [
  { factory: 'label_choice_field', title: 'Colour', name: 'colour', value: 'red', type: 'string' },
  { factory: 'label_date_field', title: 'Birthday', name: 'birthday', value: '2024-05-01', type: 'string' },
  { factory: 'label_datetime_field', title: 'Meeting', name: 'meeting', value: '2024-05-01T10:30:00', type: 'string' },
  { factory: 'Email', title: 'Author email', name: 'author_email', value: 'ada@example.org', type: 'string' },
  { factory: 'label_email', title: 'Reply to', name: 'reply_to', value: 'bob@example.org', type: 'string' },
  { factory: 'File Upload', title: 'Attachment', name: 'attachment', value: 'file', type: 'object' },
  { factory: 'label_float_field', title: 'Ratio', name: 'ratio', value: 1.5, type: 'number' },
  { factory: 'label_full_name', title: 'Full name', name: 'full_name', value: 'Ada Lovelace', type: 'string' },
  { factory: 'Image', title: 'Picture', name: 'picture', value: 'image', type: 'object' },
  { factory: 'label_integer_field', title: 'Pages', name: 'pages', value: 42, type: 'integer' },
  { factory: 'JSONField', title: 'Extra data', name: 'extra_data', value: { a: [1, 2] }, type: 'dict' },
  { factory: 'label_multi_choice_field', title: 'Colours', name: 'colours', value: ['red', 'blue'], type: 'array' },
  { factory: 'label_password_field', title: 'Pin', name: 'pin', value: 's3cret', type: 'string' },
  { factory: 'Relation Choice', title: 'Main source', name: 'main_source', value: 'relation', type: 'array' },
  { factory: 'Relation List', title: 'Sources', name: 'sources', value: 'relation', type: 'array' },
  { factory: 'Rich Text', title: 'Notes', name: 'notes', value: '<p>Notes</p>', type: 'string' },
  { factory: 'label_text_field', title: 'Abstract', name: 'abstract', value: 'Two\nlines', type: 'string' },
  { factory: 'label_textline_field', title: 'Subtitle', name: 'subtitle', value: 'A line', type: 'string' },
  { factory: 'URL', title: 'Homepage', name: 'homepage', value: 'https://example.org/a', type: 'string' },
  { factory: 'label_boolean_field', title: 'Featured', name: 'featured', value: true, type: 'boolean' },
];

describe('type editing', () => {
  let t: TestSuite;
  let base: string;

  beforeAll(async () => {
    t = await startTestSuite();
    base = t.suite.publicUrl;
    const member = await t.request('POST', '/@users', {
      body: { username: 'mia', password: 'secret-mia', roles: ['Member'] },
    });
    expect(member.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
  });

  it('adds a fieldset and a field of each of the 20 kinds; content takes them on the next request', async () => {
    const kinds = await json(await t.request('GET', '/@vocabularies/Fields?b_size=-1'));
    expect(kinds.items.map((i: { token: string }) => i.token).sort()).toEqual(KINDS.map((k) => k.factory).sort());

    const fieldset = await t.request('POST', '/@types/Document', {
      body: { factory: 'fieldset', title: 'Contact Info', description: 'Contact information' },
    });
    expect(fieldset.status).toBe(201);
    expect(await fieldset.json()).toEqual({
      behavior: 'cms.dexterity.schema.generated',
      description: 'Contact information',
      fields: [],
      id: 'contact_info',
      title: 'Contact Info',
    });

    for (const kind of KINDS) {
      const choices = kind.factory.includes('choice_field') ? { values: ['red', 'green', 'blue'] } : {};
      const added = await t.request('POST', '/@types/Document', {
        body: {
          factory: kind.factory,
          title: kind.title,
          description: `The ${kind.title}`,
          required: false,
          ...choices,
        },
      });
      expect([kind.factory, added.status]).toEqual([kind.factory, 201]);
      const body = await json(added);
      expect(body).toMatchObject({ behavior: GENERATED, title: kind.title, description: `The ${kind.title}` });
      expect([kind.factory, body.type]).toEqual([kind.factory, kind.type]);
    }
    const email = await json(await t.request('GET', '/@types/Document/author_email'));
    expect(email).toEqual({
      behavior: GENERATED,
      description: 'The Author email',
      factory: 'Email',
      title: 'Author email',
      type: 'string',
      widget: 'email',
    });
    // The listing's `@type/...` spelling names the same field.
    expect(await json(await t.request('GET', '/@type/Document/author_email'))).toEqual(email);

    const target = await json(
      await t.request('POST', '/', { body: { '@type': 'Document', id: 'target', title: 'Target' } }),
    );
    const values: Record<string, unknown> = {};
    for (const kind of KINDS) {
      if (kind.value === 'file') values[kind.name] = upload(Buffer.from('hello'), 'hello.txt', 'text/plain');
      else if (kind.value === 'image') values[kind.name] = upload(png(4, 4), 'dot.png', 'image/png');
      else if (kind.value === 'relation') values[kind.name] = [target.UID];
      else values[kind.name] = kind.value;
    }
    const created = await t.request('POST', '/', {
      body: { '@type': 'Document', id: 'typed', title: 'Typed', ...values },
    });
    expect(created.status).toBe(201);
    const doc = await json(await t.request('GET', '/typed'));
    expect(doc.colour).toMatchObject({ token: 'red' });
    expect(doc.birthday).toBe('2024-05-01');
    expect(Date.parse(doc.meeting)).toBe(Date.parse('2024-05-01T10:30:00Z'));
    expect(doc.author_email).toBe('ada@example.org');
    expect(doc.reply_to).toBe('bob@example.org');
    expect(doc.attachment).toMatchObject({ filename: 'hello.txt', size: 5 });
    expect(doc.ratio).toBe(1.5);
    expect(doc.full_name).toBe('Ada Lovelace');
    expect(doc.picture).toMatchObject({ filename: 'dot.png', 'content-type': 'image/png' });
    expect(doc.pages).toBe(42);
    expect(doc.extra_data).toEqual({ a: [1, 2] });
    expect(doc.colours.map((c: { token: string }) => c.token)).toEqual(['red', 'blue']);
    expect(doc.pin).toBe('s3cret');
    expect(doc.main_source.map((r: { '@id': string }) => r['@id'])).toEqual([`${base}/target`]);
    expect(doc.sources.map((r: { '@id': string }) => r['@id'])).toEqual([`${base}/target`]);
    expect(doc.notes).toMatchObject({ data: '<p>Notes</p>', 'content-type': 'text/html' });
    expect(doc.abstract).toBe('Two\nlines');
    expect(doc.subtitle).toBe('A line');
    expect(doc.homepage).toBe('https://example.org/a');
    expect(doc.featured).toBe(true);

    // Values are checked against the new fields' kinds.
    const wrong = await t.request('PATCH', '/typed', { body: { pages: 'many', colour: 'purple' } });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(await wrong.json())).toMatch(/pages/);

    const schema = await json(await t.request('GET', '/@types/Document'));
    for (const kind of KINDS) expect(schema.properties[kind.name]).toMatchObject({ behavior: GENERATED });
    expect(schema.fieldsets.map((f: { id: string }) => f.id)).toContain('contact_info');
  });

  it('changes fields and fieldsets: PATCH, PUT, and GET of one of them', async () => {
    expect(
      (
        await t.request('PATCH', '/@types/Document/contact_info', {
          body: { title: 'Contact information', fields: ['author_email'] },
        })
      ).status,
    ).toBe(204);
    expect(await json(await t.request('GET', '/@types/Document/contact_info'))).toEqual({
      behavior: 'cms.dexterity.schema.generated',
      description: 'Contact information',
      fields: ['author_email'],
      id: 'contact_info',
      title: 'Contact information',
    });
    expect(
      (
        await t.request('PATCH', '/@types/Document', {
          body: { properties: { subtitle: { maxLength: 20, minLength: 2, required: true, title: 'Sub title' } } },
        })
      ).status,
    ).toBe(204);
    const schema = await json(await t.request('GET', '/@types/Document'));
    expect(schema.properties.subtitle).toMatchObject({ maxLength: 20, minLength: 2, title: 'Sub title' });
    expect(schema.required).toContain('subtitle');
    // Required now: a new page without it is refused, and the limit applies.
    expect((await t.request('POST', '/', { body: { '@type': 'Document', title: 'No sub' } })).status).toBe(400);
    expect(
      (await t.request('POST', '/', { body: { '@type': 'Document', title: 'Long', subtitle: 'x'.repeat(21) } })).status,
    ).toBe(400);

    // Fields of behaviors and the base fieldsets are not edited here.
    expect((await t.request('PATCH', '/@types/Document/title', { body: { title: 'Name' } })).status).toBe(400);
    expect((await t.request('DELETE', '/@types/Document/title')).status).toBe(400);
    expect((await t.request('DELETE', '/@types/Document/settings')).status).toBe(400);
    expect((await t.request('DELETE', '/@types/Document/nothing_here')).status).toBe(404);
    expect((await t.request('POST', '/@types/Document', { body: { factory: 'Nope', title: 'X' } })).status).toBe(400);
    expect((await t.request('POST', '/@types/Document', { body: { factory: 'URL', title: 'Title' } })).status).toBe(
      400,
    );
    // At the site root only.
    expect((await t.request('POST', '/typed/@types/Document', { body: { factory: 'URL', title: 'Y' } })).status).toBe(
      404,
    );

    // PUT replaces the generated part: only what the body lists stays.
    const put = await t.request('PUT', '/@types/Document', {
      body: {
        fieldsets: [{ id: 'author', title: 'Contact the author', fields: ['author_email', 'author_url'] }],
        properties: {
          title: { behavior: 'cms.dublincore', factory: 'Text line (String)', title: 'Title' },
          author_email: { factory: 'Email', title: 'Author email', description: 'Email of the author' },
          author_url: { factory: 'URL', title: 'Author website', maxLength: 30, minLength: 5 },
          subtitle: { factory: 'Text line (String)', title: 'Subtitle' },
          pages: { factory: 'Integer', title: 'Pages' },
        },
        required: ['title', 'author_email'],
      },
    });
    expect(put.status).toBe(204);
    const replaced = await json(await t.request('GET', '/@types/Document'));
    const generated = Object.entries(replaced.properties)
      .filter(([, p]) => (p as { behavior: string }).behavior === GENERATED)
      .map(([n]) => n);
    expect(generated.sort()).toEqual(['author_email', 'author_url', 'pages', 'subtitle']);
    expect(replaced.fieldsets.find((f: { id: string }) => f.id === 'author')).toMatchObject({
      fields: ['author_email', 'author_url'],
      title: 'Contact the author',
    });
    expect(replaced.required).toEqual(expect.arrayContaining(['title', 'author_email']));
  });

  it('removes a field: content that has a value keeps serving without it, and refuses it', async () => {
    expect((await t.request('DELETE', '/@types/Document/pages')).status).toBe(204);
    const doc = await t.request('GET', '/typed');
    expect(doc.status).toBe(200);
    expect(await json(doc)).not.toHaveProperty('pages');
    const write = await t.request('PATCH', '/typed', { body: { pages: 3, author_email: 'c@example.org' } });
    expect(write.status).toBe(400);
    expect((await json(await t.request('GET', '/@types/Document'))).properties).not.toHaveProperty('pages');
    expect((await t.request('DELETE', '/@types/Document/author')).status).toBe(204);
    const fieldsets = (await json(await t.request('GET', '/@types/Document'))).fieldsets;
    expect(fieldsets.map((f: { id: string }) => f.id)).not.toContain('author');
  });

  it('indexes a field marked searchable: search finds an object by its words on the next request', async () => {
    await t.request('POST', '/@types/News%20Item', { body: { factory: 'label_text_field', title: 'Byline' } });
    const word = `zebu${Date.now().toString(36)}`;
    const before = await t.request('POST', '/', { body: { '@type': 'News Item', title: 'Before', byline: word } });
    expect(before.status).toBe(201);
    const notIndexed = await json(await t.request('GET', `/@search?SearchableText=${word}`));
    expect(notIndexed.items_total).toBe(0);

    expect((await t.request('PATCH', '/@types/News%20Item/byline', { body: { searchable: true } })).status).toBe(204);
    const after = await json(
      await t.request('POST', '/', { body: { '@type': 'News Item', title: 'After', byline: `${word} more` } }),
    );
    const found = await json(await t.request('GET', `/@search?SearchableText=${word}`));
    expect(found.items.map((i: { '@id': string }) => i['@id'])).toEqual([after['@id']]);
  });

  it('creates a type in the cms-types panel, switches the lead image on and off, and removes it', async () => {
    const created = await t.request('POST', '/@controlpanels/cms-types', {
      body: { title: 'My Custom Content Type', description: 'A custom content-type' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${base}/@controlpanels/cms-types/my_custom_content_type`);
    const panel = await json(created);
    expect(panel).toMatchObject({
      '@id': `${base}/@controlpanels/cms-types/my_custom_content_type`,
      description: 'A custom content-type',
      group: 'Content',
      items: [],
      title: 'My Custom Content Type',
    });
    expect(panel.data).toMatchObject({
      allowed_content_types: [],
      filter_content_types: true,
      'cms.dublincore': true,
      'cms.namefromtitle': true,
      'cms.leadimage': false,
      blocks: false,
      'blocks.editable.layout': false,
    });
    expect(
      Object.entries(panel.data)
        .filter(([, on]) => on === true)
        .map(([n]) => n)
        .sort(),
    ).toEqual(['cms.dublincore', 'cms.namefromtitle', 'filter_content_types'].sort());
    expect(panel.schema.fieldsets.map((f: { id: string }) => f.id)).toEqual(['default', 'behaviors']);

    // Addable at once where its container allows it; named from its title.
    const item = await t.request('POST', '/', { body: { '@type': 'my_custom_content_type', title: 'First one' } });
    expect(item.status).toBe(201);
    expect((await json(item))['@id']).toBe(`${base}/first-one`);
    const addable = await json(await t.request('GET', '/@types'));
    expect(addable.map((e: { '@id': string }) => e['@id'])).toContain(`${base}/@types/my_custom_content_type`);

    const list = await json(await t.request('GET', '/@controlpanels/cms-types'));
    expect(list).toMatchObject({ '@id': `${base}/@controlpanels/cms-types`, group: 'Content', title: 'Content Types' });
    expect(list.items.find((e: { id: string }) => e.id === 'my_custom_content_type')).toEqual({
      '@id': `${base}/@controlpanels/cms-types/my_custom_content_type`,
      '@type': 'my_custom_content_type',
      count: 1,
      description: 'A custom content-type',
      id: 'my_custom_content_type',
      meta_type: 'cms-type-info',
      title: 'My Custom Content Type',
    });
    expect(list.items.find((e: { id: string }) => e.id === 'Site Root')).toMatchObject({ count: 1 });

    // The lead image on: the schema and what content takes and shows change on the next request.
    expect(
      (
        await t.request('PATCH', '/@controlpanels/cms-types/my_custom_content_type', {
          body: { 'cms.leadimage': true, title: 'My Content Type' },
        })
      ).status,
    ).toBe(204);
    const withImage = await json(await t.request('GET', '/@types/my_custom_content_type'));
    expect(withImage.title).toBe('My Content Type');
    expect(Object.keys(withImage.properties)).toEqual(expect.arrayContaining(['image', 'image_caption']));
    expect(
      (
        await t.request('PATCH', '/first-one', {
          body: { image_caption: 'A dot', image: upload(png(4, 4), 'lead.png', 'image/png') },
        })
      ).status,
    ).toBe(204);
    expect(await json(await t.request('GET', '/first-one'))).toMatchObject({ image_caption: 'A dot' });
    expect((await json(await t.request('GET', '/@controlpanels/cms-types/my_custom_content_type'))).data).toMatchObject(
      { 'cms.leadimage': true, title: 'My Content Type' },
    );

    expect(
      (
        await t.request('PATCH', '/@controlpanels/cms-types/my_custom_content_type', {
          body: { 'cms.leadimage': false },
        })
      ).status,
    ).toBe(204);
    const without = await json(await t.request('GET', '/@types/my_custom_content_type'));
    expect(without.properties).not.toHaveProperty('image_caption');
    const served = await json(await t.request('GET', '/first-one'));
    expect(served).not.toHaveProperty('image_caption');
    expect(served).not.toHaveProperty('image');
    expect((await t.request('PATCH', '/first-one', { body: { image_caption: 'Again' } })).status).toBe(400);

    // Bad settings are refused; a type with content is not removed.
    expect(
      (await t.request('PATCH', '/@controlpanels/cms-types/my_custom_content_type', { body: { 'cms.nope': true } }))
        .status,
    ).toBe(400);
    const refused = await t.request('DELETE', '/@controlpanels/cms-types/my_custom_content_type');
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toMatch(/still has 1 object/);
    expect((await t.request('DELETE', '/first-one')).status).toBe(204);
    expect((await t.request('DELETE', '/@controlpanels/cms-types/my_custom_content_type')).status).toBe(204);
    expect((await t.request('GET', '/@controlpanels/cms-types/my_custom_content_type')).status).toBe(404);
    expect((await t.request('GET', '/@types/my_custom_content_type')).status).toBe(404);
  });

  it('restricts what a folderish type takes when it filters content types', async () => {
    const folder = await json(await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Shelf' } }));
    const panel = '/@controlpanels/cms-types/Folder';
    const filter = { filter_content_types: true, allowed_content_types: ['News Item'] };
    expect((await t.request('PATCH', panel, { body: filter })).status).toBe(204);
    expect((await json(await t.request('GET', panel))).data).toMatchObject(filter);
    const path = new URL(folder['@id']).pathname;
    expect(
      (await t.request('POST', path, { body: { '@type': 'Link', title: 'L', remoteUrl: 'https://x.org' } })).status,
    ).toBe(400);
    expect((await t.request('POST', path, { body: { '@type': 'News Item', title: 'N' } })).status).toBe(201);
    const addable = await json(await t.request('GET', `${path}/@types`));
    expect(addable.filter((e: { addable: boolean }) => e.addable).map((e: { '@id': string }) => e['@id'])).toEqual([
      `${base}/@types/News Item`,
    ]);
    expect((await t.request('PATCH', panel, { body: { allowed_content_types: ['Nothing'] } })).status).toBe(400);
    expect((await t.request('PATCH', panel, { body: { filter_content_types: false } })).status).toBe(204);
    expect(
      (await t.request('POST', path, { body: { '@type': 'Link', title: 'L', remoteUrl: 'https://x.org' } })).status,
    ).toBe(201);
  });

  it('is for site managers: Members 403, anonymous 401', async () => {
    const mia = basic('mia', 'secret-mia');
    const attempts: [string, string, unknown?][] = [
      ['GET', '/@controlpanels/cms-types'],
      ['POST', '/@controlpanels/cms-types', { title: 'Sneaky' }],
      ['PATCH', '/@controlpanels/cms-types/Document', { 'cms.leadimage': true }],
      ['DELETE', '/@controlpanels/cms-types/Link'],
      ['POST', '/@types/Document', { factory: 'URL', title: 'Sneaky' }],
      ['PATCH', '/@types/Document/author_email', { title: 'Sneaky' }],
      ['PUT', '/@types/Document', {}],
      ['DELETE', '/@types/Document/author_email'],
    ];
    for (const [method, path, body] of attempts) {
      expect([method, path, (await t.request(method, path, { auth: mia, body })).status]).toEqual([method, path, 403]);
      expect([method, path, (await t.request(method, path, { auth: null, body })).status]).toEqual([method, path, 401]);
    }
    expect((await json(await t.request('GET', '/@types/Document'))).properties).toHaveProperty('author_email');
  });
});
