import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@search` through the gateway (specification: Search; issue 12 item 1 and 2): relevance order of
 * `SearchableText` without `sort_on`, the effectiveRange rule, `allowedRolesAndUsers`, the identity and sort
 * indexes (`UID`, `getId`, `id`, `Creator`, `sortable_title`, `start`/`end` with `.query`/`.range`), `sort_limit`
 * and `use_site_search_settings`.
 */

const json = async (response: Response) => (await response.json()) as Record<string, any>;
const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');

describe('@search ranking and rules', () => {
  let t: TestSuite;
  const url = (path: string) => t.suite.publicUrl + path;
  let uidOfNotes = '';

  async function published(body: Record<string, unknown>, parent = '/rank'): Promise<Record<string, any>> {
    const created = await t.adminJson('POST', parent, body);
    await t.adminJson('POST', `${parent}/${created.id}/@workflow/publish`);
    return created;
  }

  const html = (text: string) => ({ data: `<p>${text}</p>`, 'content-type': 'text/html', encoding: 'utf-8' });

  beforeAll(async () => {
    t = await startTestSuite();
    await t.adminJson('POST', '/@users', { username: 'ed', password: 'secret-ed', roles: ['Member'] });
    await published({ '@type': 'Folder', id: 'rank', title: 'Rank' }, '/');
    // The word "orchard" in the text only, in the description, in the title: the paths sort the other way round.
    await published({ '@type': 'Document', id: 'a-text', title: 'Weekly notes', text: html('The orchard club met') });
    await published({ '@type': 'Document', id: 'b-desc', title: 'Club news', description: 'Orchards in spring' });
    await published({ '@type': 'Document', id: 'c-title', title: 'Orchard Fête', description: 'Cider' });
    const notes = await published({ '@type': 'Document', id: 'd-notes', title: 'Zebra notes', subjects: ['z'] });
    uidOfNotes = notes.UID;
    await published({
      '@type': 'Event',
      id: 'fair',
      title: 'Apple fair',
      start: '2025-03-01T10:00:00',
      end: '2025-03-02T18:00:00',
    });
    await published({ '@type': 'Document', id: 'expired', title: 'Old orchard', expires: '2020-01-01T00:00:00' });
    await published({ '@type': 'Document', id: 'future', title: 'Next orchard', effective: '2099-01-01T00:00:00' });
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
  const ids = async (query: string, auth?: string | null) =>
    (await search(query, auth)).items.map((item: Record<string, any>) => item['@id'].split('/').pop());

  describe('relevance', () => {
    it('ranks title matches first, then description, then text, without sort_on', async () => {
      expect(await ids('SearchableText=orchard*', null)).toEqual(['c-title', 'b-desc', 'a-text']);
    });

    it('folds case and accents, needs every word, and takes a trailing * as a prefix', async () => {
      expect(await ids('SearchableText=FETE', null)).toEqual(['c-title']);
      expect(await ids('SearchableText=orchard%20club', null)).toEqual(['a-text']);
      expect(await ids('SearchableText=orchard', null)).toEqual(['c-title', 'a-text']);
      expect(await ids('SearchableText=orch', null)).toEqual([]);
    });

    it('keeps the order across batches and gives way to sort_on', async () => {
      const second = await search('SearchableText=orchard*&b_size=1&b_start=1', null);
      expect(second.items.map((i: Record<string, any>) => i['@id'])).toEqual([url('/rank/b-desc')]);
      expect(second.items_total).toBe(3);
      expect(await ids('SearchableText=orchard*&sort_on=getId', null)).toEqual(['a-text', 'b-desc', 'c-title']);
    });
  });

  it('ranks @querystring-search by relevance too, without sort_on', async () => {
    const body = {
      query: [{ i: 'SearchableText', o: 'cms.app.querystring.operation.string.contains', v: 'orchard*' }],
    };
    const response = await t.request('POST', '/@querystring-search', { body, auth: null });
    expect(response.status).toBe(200);
    const found = (await json(response)).items.map((item: Record<string, any>) => item['@id']);
    expect(found).toEqual([url('/rank/c-title'), url('/rank/b-desc'), url('/rank/a-text')]);
  });

  describe('effectiveRange', () => {
    it('hides expired and not yet effective content from anonymous callers, with show_inactive too', async () => {
      for (const query of ['SearchableText=old', 'SearchableText=next', 'SearchableText=orchard*&show_inactive=1']) {
        const found = await ids(query, null);
        expect(found).not.toContain('expired');
        expect(found).not.toContain('future');
      }
      // Nor to a member without a managing role.
      expect(await ids('SearchableText=old', basic('ed'))).toEqual([]);
    });

    it('shows them to managers', async () => {
      expect(await ids('SearchableText=old')).toEqual(['expired']);
      expect(await ids('SearchableText=next&show_inactive=true')).toEqual(['future']);
    });
  });

  it('accepts allowedRolesAndUsers and applies the caller’s own', async () => {
    await t.adminJson('POST', '/rank', { '@type': 'Document', id: 'private', title: 'Secret orchard' });
    expect(await ids('SearchableText=secret&allowedRolesAndUsers=Manager', null)).toEqual([]);
    expect(await ids('SearchableText=secret&allowedRolesAndUsers=Anonymous')).toEqual(['private']);
  });

  it('filters on UID, getId, id and Creator, and sorts on sortable_title', async () => {
    expect(await ids(`UID=${uidOfNotes}`)).toEqual(['d-notes']);
    expect(await ids('getId=d-notes')).toEqual(['d-notes']);
    expect(await ids('id=c-title')).toEqual(['c-title']);
    expect(await ids('Creator=admin&path.query=/rank&path.depth=1&sort_on=getId&b_size=2')).toEqual([
      'a-text',
      'b-desc',
    ]);
    expect(await ids('Creator=nobody', null)).toEqual([]);
    expect(
      await ids('path.query=/rank&path.depth=1&portal_type=Document&sort_on=sortable_title&sort_order=reverse', null),
    ).toEqual(['d-notes', 'a-text', 'c-title', 'b-desc']);
  });

  it('filters on start and end with .query and .range', async () => {
    expect(await ids('start.query=2025-02-01&start.range=min', null)).toEqual(['fair']);
    expect(await ids('start.query=2025-04-01&start.range=min', null)).toEqual([]);
    expect(await ids('end.query=2025-03-03&end.range=max', null)).toEqual(['fair']);
    expect(await ids('start.query=2025-01-01&start.query=2025-12-31&start.range=min:max', null)).toEqual(['fair']);
    expect((await t.request('GET', '/@search?start.query=soon&start.range=min')).status).toBe(400);
  });

  it('counts at most sort_limit results; a bad one is 400', async () => {
    const body = await search('path.query=/rank&path.depth=1&sort_on=getId&sort_limit=2', null);
    expect(body.items_total).toBe(2);
    expect(body.items).toHaveLength(2);
    const bad = await t.request('GET', '/@search?sort_limit=-1');
    expect(bad.status).toBe(400);
    expect((await json(bad)).type).toBe('BadRequest');
  });

  it('with use_site_search_settings=1 leaves out the excluded types and sorts by the site’s default', async () => {
    expect(await ids('SearchableText=fair&use_site_search_settings=1', null)).toEqual(['fair']);
    await t.adminJson('PATCH', '/@registry', { 'cms.types_not_searched': ['Event'], 'cms.sort_on': 'sortable_title' });
    expect(await ids('SearchableText=fair&use_site_search_settings=1', null)).toEqual([]);
    // Without the parameter no type is excluded (specification, Search rule 3).
    expect(await ids('SearchableText=fair', null)).toEqual(['fair']);
    expect(await ids('SearchableText=orchard*&use_site_search_settings=1', null)).toEqual([
      'b-desc',
      'c-title',
      'a-text',
    ]);
  });
});
