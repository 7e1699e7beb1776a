import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const DISCUSSION = 'cms.app.discussion.interfaces.IDiscussionSettings';
const GLOBALLY = `${DISCUSSION}.globally_enabled`;
const MODERATION = `${DISCUSSION}.moderation_enabled`;

/** `@registry` through the gateway (addendum §3; transcripts registry_*). */
describe('registry through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as any;
  const read = async (name: string) => {
    const response = await t.request('GET', `/@registry/${name}`);
    expect(response.status).toBe(200);
    return json(response);
  };

  it('lists records with their schema and value, 25 per batch', async () => {
    const response = await t.request('GET', '/@registry');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(response);
    const base = `${t.suite.publicUrl}/@registry`;
    expect(Object.keys(body)).toEqual(['@id', 'batching', 'items', 'items_total']);
    expect(body['@id']).toBe(base);
    expect(body.items_total).toBeGreaterThan(25);
    expect(body.items).toHaveLength(25);
    const lastStart = Math.floor((body.items_total - 1) / 25) * 25;
    expect(body.batching).toEqual({
      '@id': base,
      first: `${base}?b_start=0`,
      last: `${base}?b_start=${lastStart}`,
      next: `${base}?b_start=25`,
    });
    const names = body.items.map((item: any) => item.name);
    expect(names).toEqual([...names].sort());
    for (const item of body.items) {
      expect(Object.keys(item)).toEqual(['name', 'schema', 'value']);
      expect(Object.keys(item.schema)).toEqual(['properties']);
      expect(item.schema.properties).toMatchObject({
        title: expect.any(String),
        description: expect.any(String),
        type: expect.stringMatching(/^(string|boolean|integer|array)$/),
        factory: expect.any(String),
      });
    }
    expect(body.items.find((item: any) => item.name === 'cms.allow_anon_views_about')).toEqual({
      name: 'cms.allow_anon_views_about',
      schema: {
        properties: {
          default: false,
          description:
            'If not selected only logged-in users will be able to view information about who created an item and when it was modified.',
          factory: 'Yes/No',
          title: "Allow anyone to view 'about' information",
          type: 'boolean',
        },
      },
      value: false,
    });
    expect(body.items.find((item: any) => item.name === `${DISCUSSION}.captcha`).schema.properties.vocabulary).toEqual({
      '@id': `${t.suite.publicUrl}/@vocabularies/cms.app.discussion.vocabularies.CaptchaVocabulary`,
    });
  });

  it('pages through every record with b_start and b_size', async () => {
    const first = await json(await t.request('GET', '/@registry?b_size=10'));
    const total = first.items_total;
    const seen: string[] = [];
    for (let start = 0; start < total; start += 10) {
      const page = await json(await t.request('GET', `/@registry?b_size=10&b_start=${start}`));
      expect(page['@id']).toBe(`${t.suite.publicUrl}/@registry`);
      expect(page.batching['@id']).toBe(`${t.suite.publicUrl}/@registry?b_size=10&b_start=${start}`);
      if (start > 0) expect(page.batching.prev).toContain(`b_start=${start - 10}`);
      if (start + 10 < total) expect(page.batching.next).toContain(`b_start=${start + 10}`);
      else expect(page.batching).not.toHaveProperty('next');
      seen.push(...page.items.map((item: any) => item.name));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect((await t.request('GET', '/@registry?b_size=x')).status).toBe(400);
  });

  it('filters the list by name prefix with q', async () => {
    const response = await t.request('GET', '/@registry?q=cms.i18nl10n');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toEqual({
      '@id': `${t.suite.publicUrl}/@registry?q=cms.i18nl10n`,
      items: [
        {
          name: 'cms.i18nl10n.override_dateformat.Enabled',
          schema: {
            properties: {
              description: 'Override the translation machinery',
              factory: 'Yes/No',
              title: 'Enabled',
              type: 'boolean',
            },
          },
          value: false,
        },
        {
          name: 'cms.i18nl10n.override_dateformat.date_format_long',
          schema: {
            properties: {
              description: 'Default value: %Y-%m-%d %H:%M (2038-01-19 03:14)',
              factory: 'Text line (String)',
              title: 'old ZMI property: localLongTimeFormat',
              type: 'string',
            },
          },
          value: '%Y-%m-%d %H:%M',
        },
        {
          name: 'cms.i18nl10n.override_dateformat.date_format_short',
          schema: {
            properties: {
              description: 'Default value: %Y-%m-%d (2038-01-19)',
              factory: 'Text line (String)',
              title: 'old ZMI property: localTimeFormat',
              type: 'string',
            },
          },
          value: '%Y-%m-%d',
        },
        {
          name: 'cms.i18nl10n.override_dateformat.time_format',
          schema: {
            properties: {
              description: 'Default value: %H:%M (03:14)',
              factory: 'Text line (String)',
              title: 'old ZMI property: localTimeOnlyFormat',
              type: 'string',
            },
          },
          value: '%H:%M',
        },
      ],
      items_total: 4,
    });
    const none = await json(await t.request('GET', '/@registry?q=no.such.prefix'));
    expect(none).toEqual({ '@id': `${t.suite.publicUrl}/@registry?q=no.such.prefix`, items: [], items_total: 0 });
  });

  it('reads one record as its JSON value', async () => {
    const response = await t.request('GET', '/@registry/cms.app.querystring.field.path.title');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('"Location"');
    expect(await read('cms.use_email_as_login')).toBe(false);
    expect(await read('cms.app.layout.globals.bodyClass.depth')).toBe(4);
    expect(await read(`${DISCUSSION}.moderator_email`)).toBeNull();
  });

  it('answers 404 for an unknown record', async () => {
    const response = await t.request('GET', '/@registry/no.such.record');
    expect(response.status).toBe(404);
    expect(await json(response)).toMatchObject({
      type: 'NotFound',
      message: expect.stringContaining('no.such.record'),
    });
  });

  it('writes records with PATCH (204) and reads them back', async () => {
    const response = await t.request('PATCH', '/@registry/', {
      body: {
        'cms.app.querystring.field.path.title': 'Value',
        [GLOBALLY]: true,
        'cms.allowed_sizes': ['thumb 128:128'],
      },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await read('cms.app.querystring.field.path.title')).toBe('Value');
    expect(await read(GLOBALLY)).toBe(true);
    expect(await read('cms.allowed_sizes')).toEqual(['thumb 128:128']);
    const listed = await json(await t.request('GET', `/@registry?q=${GLOBALLY}`));
    expect(listed.items).toEqual([expect.objectContaining({ name: GLOBALLY, value: true })]);
    expect(listed.items[0].schema.properties.default).toBe(true);
  });

  it('refuses a value of the wrong type with 400 and changes nothing', async () => {
    const before = await read(MODERATION);
    const response = await t.request('PATCH', '/@registry', { body: { [MODERATION]: 'yes' } });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({
      type: 'BadRequest',
      message: expect.any(String),
      errors: [{ field: MODERATION, message: expect.any(String) }],
    });
    expect(await read(MODERATION)).toBe(before);
  });

  it('changes nothing when one of several values is wrong', async () => {
    const dateBefore = await read('cms.i18nl10n.override_dateformat.Enabled');
    const response = await t.request('PATCH', '/@registry', {
      body: {
        'cms.i18nl10n.override_dateformat.Enabled': !dateBefore,
        [MODERATION]: 1,
        'cms.allowed_types': ['text/html', 'application/x-unknown'],
      },
    });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.type).toBe('BadRequest');
    expect(body.errors.map((e: any) => e.field)).toEqual([MODERATION, 'cms.allowed_types']);
    expect(await read('cms.i18nl10n.override_dateformat.Enabled')).toBe(dateBefore);
    expect(await read(MODERATION)).toBe(false);
    expect(await read('cms.allowed_types')).toEqual(['text/html', 'text/x-web-textile']);
  });

  it('refuses an unknown record with 400 and changes nothing', async () => {
    const response = await t.request('PATCH', '/@registry', { body: { [MODERATION]: true, 'no.such.record': true } });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({
      type: 'BadRequest',
      errors: [{ field: 'no.such.record', message: expect.any(String) }],
    });
    expect(await read(MODERATION)).toBe(false);
  });

  it('refuses a body that is not an object', async () => {
    const response = await t.request('PATCH', '/@registry', { body: [GLOBALLY, true] });
    expect(response.status).toBe(400);
    expect((await json(response)).type).toBe('BadRequest');
  });

  it('asks anonymous callers to log in (401 with a challenge)', async () => {
    for (const [method, path, body] of [
      ['GET', '/@registry', undefined],
      ['GET', `/@registry/${GLOBALLY}`, undefined],
      ['PATCH', '/@registry', { [GLOBALLY]: false }],
    ] as const) {
      const response = await t.request(method, path, { auth: null, body });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect((await json(response)).type).toBe('Unauthorized');
    }
    expect(await read(GLOBALLY)).toBe(true);
  });

  it('answers 405 for a method @registry does not take', async () => {
    const response = await t.request('DELETE', '/@registry');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH');
  });

  it('exists on the site root only', async () => {
    expect((await t.request('GET', '/some-folder/@registry')).status).toBe(404);
  });
});
