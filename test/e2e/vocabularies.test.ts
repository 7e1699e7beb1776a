import { pollUntil } from '../support/poll';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@vocabularies`, `@sources` and `@querysources` through the gateway (specification: Vocabulary listing and
 * terms, Vocabularies and sources; addendum §8): every listed vocabulary answers with real terms from its owner,
 * filtered and batched, tokens only; the caller's rights apply to users and tags.
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;

const APP = 'cms.app.vocabularies.';
/** The names the specification lists (the multilingual ones included, as the reference transcript lists them). */
const NAMES = [
  'cms.contentrules.events',
  'Behaviors',
  ...[
    'AvailableContentLanguages',
    'SupportedContentLanguages',
    'Roles',
    'Permissions',
    'AllowedContentTypes',
    'AllowableContentTypes',
    'PortalTypes',
    'ReallyUserFriendlyTypes',
    'UserFriendlyTypes',
    'Skins',
    'Workflows',
    'WorkflowStates',
    'WorkflowTransitions',
    'AvailableEditors',
    'Keywords',
    'SyndicationFeedTypes',
    'SyndicatableFeedItems',
    'Users',
    'Groups',
    'Principals',
    'Catalog',
    'Actions',
    'PortalActionCategories',
    'Timezones',
    'CommonTimezones',
    'AvailableTimezones',
    'Weekdays',
    'WeekdaysAbbr',
    'WeekdaysShort',
    'Month',
    'MonthAbbr',
    'ImagesScales',
    'MetadataFields',
  ].map((name) => APP + name),
  'cms.app.content.ValidAddableTypes',
  'Fields',
  'cms.schemaeditor.VocabulariesVocabulary',
  'cms.formwidget.relations.cmfcontentsearch',
  'cms.app.event.SynchronizationStrategies',
  'cms.app.contenttypes.metadatafields',
  'cms.app.contenttypes.migration.changed_base_classes',
  'Interfaces',
  'cms.app.discussion.vocabularies.CaptchaVocabulary',
  'cms.app.discussion.vocabularies.TextTransformVocabulary',
  'cms.app.multilingual.vocabularies.AllContentLanguageVocabulary',
  'cms.app.multilingual.vocabularies.AllAvailableLanguageVocabulary',
  'cms.app.multilingual.RootCatalog',
  'cms.app.users.user_registration_fields',
  'cms.app.users.group_ids',
];

/** `@vocabularies/Fields` as the reference transcript records it. */
const FIELDS = [
  ['Choice', 'label_choice_field'],
  ['Date', 'label_date_field'],
  ['Date/Time', 'label_datetime_field'],
  ['Email', 'Email'],
  ['Email', 'label_email'],
  ['File Upload', 'File Upload'],
  ['Floating-point number', 'label_float_field'],
  ['Full Name', 'label_full_name'],
  ['Image', 'Image'],
  ['Integer', 'label_integer_field'],
  ['JSONField', 'JSONField'],
  ['Multiple Choice', 'label_multi_choice_field'],
  ['Password', 'label_password_field'],
  ['Relation Choice', 'Relation Choice'],
  ['Relation List', 'Relation List'],
  ['Rich Text', 'Rich Text'],
  ['Text', 'label_text_field'],
  ['Text line (String)', 'label_textline_field'],
  ['URL', 'URL'],
  ['Yes/No', 'label_boolean_field'],
].map(([title, token]) => ({ title, token }));

describe('vocabularies and sources', () => {
  let t: TestSuite;
  let base: string;
  const voc = (name: string, query = '', auth?: string | null) =>
    t.request('GET', `/@vocabularies/${name}${query}`, { auth });

  beforeAll(async () => {
    t = await startTestSuite();
    base = t.suite.publicUrl;
    for (const [username, roles] of [
      ['mia', ['Member']],
      ['eddie', ['Editor']],
    ] as const) {
      const made = await t.request('POST', '/@users', {
        body: { username, password: `secret-${username}`, fullname: `${username} Example`, roles },
      });
      expect(made.status).toBe(201);
    }
    const create = async (container: string, body: Record<string, unknown>) => {
      const response = await t.request('POST', container, { body });
      expect(response.status).toBe(201);
    };
    await create('/', { '@type': 'Folder', id: 'shelf', title: 'Shelf' });
    await create('/shelf', { '@type': 'Document', id: 'page', title: 'Page', subjects: ['Apples', 'pears'] });
    await create('/shelf', { '@type': 'Document', id: 'target', title: 'Relation Target Zebra' });
    await create('/shelf', { '@type': 'Collection', id: 'news', title: 'News Collection' });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists every vocabulary of the specification as {@id, title}', async () => {
    const response = await t.request('GET', '/@vocabularies');
    expect(response.status).toBe(200);
    const list = (await response.json()) as { '@id': string; title: string }[];
    expect(list.map((v) => v.title).sort()).toEqual([...NAMES].sort());
    for (const entry of list) expect(entry['@id']).toBe(`${base}/@vocabularies/${entry.title}`);
  });

  it('every listed vocabulary answers {@id, items, items_total} with {title, token} terms', async () => {
    for (const name of NAMES) {
      const response = await voc(name, '?b_size=-1');
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
      const body = await json(response);
      expect(body['@id']).toBe(`${base}/@vocabularies/${name}?b_size=-1`);
      expect(body.items_total).toBe(body.items.length);
      for (const term of body.items) {
        expect(Object.keys(term).sort()).toEqual(['title', 'token']);
        expect(typeof term.title).toBe('string');
        expect(term.title.length).toBeGreaterThan(0);
        // Tokens are 7-bit ASCII.
        expect(term.token).toMatch(/^[\x20-\x7e]+$/);
      }
    }
  });

  it('Fields: exactly the 20 documented field kinds', async () => {
    const body = await json(await voc('Fields'));
    expect(body).toEqual({ '@id': `${base}/@vocabularies/Fields`, items: FIELDS, items_total: 20 });
  });

  it('filters by title (substring, any case), token and tokens; title with token is 400', async () => {
    const types = `${APP}ReallyUserFriendlyTypes`;
    const all = await json(await voc(types));
    expect(all.items).toContainEqual({ title: 'Page', token: 'Document' });
    expect(all.items).toContainEqual({ title: 'Comment', token: 'Discussion Item' });
    const byTitle = await json(await voc(types, '?title=LDE'));
    expect(byTitle).toEqual({
      '@id': `${base}/@vocabularies/${types}?title=LDE`,
      items: [{ title: 'Folder', token: 'Folder' }],
      items_total: 1,
    });
    const byToken = await json(await voc(types, '?token=Document'));
    expect(byToken.items).toEqual([{ title: 'Page', token: 'Document' }]);
    const byTokens = await json(await voc(types, '?tokens=Document&tokens=Event'));
    expect(byTokens).toMatchObject({
      items: [
        { title: 'Event', token: 'Event' },
        { title: 'Page', token: 'Document' },
      ],
      items_total: 2,
    });
    const both = await voc(types, '?title=doc&token=Document');
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ type: 'BadRequest' });
  });

  it('batches by 25 with batching links; b_start and b_size choose the batch; b_size=-1 gives all', async () => {
    const name = `${APP}Timezones`;
    const first = await json(await voc(name));
    expect(first.items).toHaveLength(25);
    expect(first.items_total).toBeGreaterThan(100);
    expect(first.batching).toMatchObject({
      '@id': `${base}/@vocabularies/${name}`,
      first: `${base}/@vocabularies/${name}?b_start=0`,
      next: `${base}/@vocabularies/${name}?b_start=25`,
    });
    const page = await json(await voc(name, '?b_start=2&b_size=3'));
    expect(page.items).toEqual(first.items.slice(2, 5));
    expect(page.batching.next).toBe(`${base}/@vocabularies/${name}?b_start=5&b_size=3`);
    const all = await json(await voc(name, '?b_size=-1'));
    expect(all.items).toHaveLength(all.items_total);
    expect(all.batching).toBeUndefined();
    expect((await voc(name, '?b_size=0')).status).toBe(400);
    expect((await voc(name, '?b_start=x')).status).toBe(400);
  });

  it('an unknown vocabulary is 404; the reference names are aliases', async () => {
    const unknown = await voc('no.such.Vocabulary');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'NotFound' });
    const alias = await json(await voc('plone.app.vocabularies.Weekdays'));
    expect(alias.items[0]).toEqual({ title: 'Monday', token: '0' });
  });

  it('types for the context: AllowedContentTypes follows the container and the caller', async () => {
    const inFolder = await json(await t.request('GET', `/shelf/@vocabularies/${APP}AllowedContentTypes`));
    expect(inFolder.items).toContainEqual({ title: 'Page', token: 'Document' });
    expect(inFolder['@id']).toBe(`${base}/shelf/@vocabularies/${APP}AllowedContentTypes`);
    const inPage = await json(await t.request('GET', `/shelf/page/@vocabularies/${APP}AllowedContentTypes`));
    expect(inPage.items).toEqual([]);
    const member = await json(await voc(`${APP}AllowedContentTypes`, '', basic('mia')));
    expect(member.items).toEqual([]);
    const portal = await json(await voc(`${APP}PortalTypes`, '?b_size=-1'));
    expect(portal.items.map((i: { token: string }) => i.token)).toContain('Site Root');
    const behaviors = await json(await voc('Behaviors', '?token=cms.leadimage'));
    expect(behaviors.items).toEqual([{ title: 'Lead Image', token: 'cms.leadimage' }]);
  });

  it('workflow, roles and fixed vocabularies', async () => {
    const states = await json(await voc(`${APP}WorkflowStates`));
    expect(states.items.map((s: { token: string }) => s.token)).toEqual(['private', 'pending', 'published']);
    const transitions = await json(await voc(`${APP}WorkflowTransitions`, '?token=publish'));
    expect(transitions.items).toHaveLength(1);
    const roles = await json(await voc(`${APP}Roles`, '?b_size=-1'));
    expect(roles.items).toContainEqual({ title: 'Manager', token: 'Manager' });
    expect((await json(await voc(`${APP}Month`))).items_total).toBe(12);
    expect((await json(await voc(`${APP}WeekdaysAbbr`))).items[6]).toEqual({ title: 'Sun', token: '6' });
    const languages = await json(await voc(`${APP}SupportedContentLanguages`, '?token=fr'));
    expect(languages.items).toEqual([{ title: 'French', token: 'fr' }]);
  });

  it('Users, Groups and Principals from identity; Members and anonymous callers are refused', async () => {
    const users = await json(await voc(`${APP}Users`, '?b_size=-1'));
    expect(users.items).toContainEqual({ title: 'mia Example', token: 'mia' });
    expect(users.items.map((u: { token: string }) => u.token)).not.toContain('Reviewers');
    const filtered = await json(await voc(`${APP}Users`, '?title=eddie'));
    expect(filtered.items).toEqual([{ title: 'eddie Example', token: 'eddie' }]);
    const groups = await json(await voc(`${APP}Groups`, '?b_size=-1'));
    expect(groups.items.map((g: { token: string }) => g.token)).toContain('Reviewers');
    const principals = await json(await voc(`${APP}Principals`, '?b_size=-1'));
    const tokens = principals.items.map((p: { token: string }) => p.token);
    expect(tokens).toEqual(expect.arrayContaining(['user:mia', 'group:Reviewers']));
    // An Editor may read them; a Member may not, nor may an anonymous caller.
    expect((await voc(`${APP}Users`, '', basic('eddie'))).status).toBe(200);
    expect((await voc(`${APP}Users`, '', basic('mia'))).status).toBe(403);
    expect((await voc(`${APP}Principals`, '', null)).status).toBe(401);
  });

  it('Keywords: the tags in use, from the catalog; Catalog: content the caller may see', async () => {
    const keywords = await pollUntil(
      async () => {
        const body = await json(await voc(`${APP}Keywords`));
        return body.items_total >= 2 ? body : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(keywords.items).toEqual([
      { title: 'Apples', token: 'Apples' },
      { title: 'pears', token: 'pears' },
    ]);
    expect((await json(await voc(`${APP}Keywords`, '?title=PEA'))).items).toEqual([{ title: 'pears', token: 'pears' }]);
    expect((await voc(`${APP}Keywords`, '', basic('mia'))).status).toBe(403);
    const catalog = await json(await voc(`${APP}Catalog`, '?title=zebra'));
    expect(catalog.items).toEqual([{ title: 'Relation Target Zebra', token: expect.any(String) }]);
    // Private content: an anonymous caller finds none of it.
    expect((await json(await voc(`${APP}Catalog`, '', null))).items).toEqual([]);
    const feeds = await json(await voc(`${APP}SyndicatableFeedItems`, '?b_size=-1'));
    expect(feeds.items.map((i: { title: string }) => i.title).sort()).toEqual(['News Collection', 'Shelf']);
    const metadata = await json(await voc(`${APP}MetadataFields`, '?token=Subject'));
    expect(metadata.items).toEqual([{ title: 'Tags', token: 'Subject' }]);
  });

  it("@sources/<field>: the terms of a field's source, filtered", async () => {
    const response = await t.request('GET', '/shelf/page/@sources/allow_discussion');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      '@id': `${base}/shelf/page/@sources/allow_discussion`,
      items: [
        { title: 'Yes', token: 'True' },
        { title: 'No', token: 'False' },
      ],
      items_total: 2,
    });
    const language = await json(await t.request('GET', '/shelf/page/@sources/language?title=fren'));
    expect(language.items).toEqual([{ title: 'French', token: 'fr' }]);
    expect((await t.request('GET', '/shelf/page/@sources/nothing')).status).toBe(404);
    expect((await t.request('GET', '/shelf/page/@sources/title')).status).toBe(400);
    expect((await t.request('GET', '/shelf/page/@sources')).status).toBe(404);
  });

  it('@querysources/<field>?query=: searches the source; relatedItems searches content; no query is 400', async () => {
    const response = await t.request('GET', '/shelf/page/@querysources/relatedItems?query=zeb');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toEqual({
      '@id': `${base}/shelf/page/@querysources/relatedItems?query=zeb`,
      items: [{ title: 'Relation Target Zebra', token: expect.any(String) }],
      items_total: 1,
    });
    const choices = await json(await t.request('GET', '/shelf/page/@querysources/allow_discussion?query=ye'));
    expect(choices.items).toEqual([{ title: 'Yes', token: 'True' }]);
    const missing = await t.request('GET', '/shelf/page/@querysources/relatedItems');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ type: 'BadRequest' });
  });
});
