import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/** simple_publication_workflow through the gateway, and what anonymous callers see in each state. */
describe('workflow and visibility', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'News' } });
    await t.request('POST', '/news', { body: { '@type': 'Document', title: 'Launch' } });
  });
  afterAll(async () => {
    await t.stop();
  });

  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const anonymous = { auth: null };

  it('starts private: anonymous callers get 401 and see it in no listing or search', async () => {
    const response = await t.request('GET', '/news/launch', anonymous);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await json(await t.request('GET', '/', anonymous))).items).toEqual([]);
    expect((await json(await t.request('GET', '/@search?SearchableText=launch', anonymous))).items_total).toBe(0);
    expect((await json(await t.request('GET', '/@search?SearchableText=launch'))).items_total).toBe(1);
  });

  it('shows the state, the history and the transitions the caller may take', async () => {
    const status = await json(await t.request('GET', '/news/launch/@workflow'));
    const self = `${t.suite.publicUrl}/news/launch/@workflow`;
    expect(status).toEqual({
      '@id': self,
      history: [
        {
          action: null,
          actor: 'admin',
          comments: '',
          review_state: 'private',
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
          title: 'Private',
        },
      ],
      state: { id: 'private', title: 'Private' },
      transitions: [
        { '@id': `${self}/publish`, title: 'Publish' },
        { '@id': `${self}/submit`, title: 'Submit for publication' },
      ],
    });
  });

  it('publishes, after which anonymous callers see it at once', async () => {
    const response = await t.request('POST', '/news/launch/@workflow/publish', { body: { comment: 'go' } });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      action: 'publish',
      actor: 'admin',
      comments: 'go',
      review_state: 'published',
      title: 'Published',
    });
    const doc = await json(await t.request('GET', '/news/launch', anonymous));
    expect(doc).toMatchObject({ review_state: 'published' });
    expect(doc.effective).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    // The folder is still private, so anonymous callers cannot list it, but search finds the published page.
    expect((await t.request('GET', '/news', anonymous)).status).toBe(401);
    expect((await json(await t.request('GET', '/@search?SearchableText=launch', anonymous))).items_total).toBe(1);
    const history = (await json(await t.request('GET', '/news/launch/@workflow'))).history;
    expect(history.map((h: { action: string | null }) => h.action)).toEqual([null, 'publish']);
  });

  it('shows the history (review comments, actors) only to those who may request or give a review', async () => {
    const anonymousView = await json(await t.request('GET', '/news/launch/@workflow', anonymous));
    expect(anonymousView).toMatchObject({ state: { id: 'published' }, history: [], transitions: [] });
    expect(JSON.stringify(anonymousView)).not.toMatch(/"go"|admin/);
    const managerView = await json(await t.request('GET', '/news/launch/@workflow'));
    expect(managerView.history.map((h: { comments: string }) => h.comments)).toContain('go');
  });

  it('refuses unknown and unavailable transitions with 400, anonymous ones with 401, and changes nothing', async () => {
    const again = await t.request('POST', '/news/launch/@workflow/publish');
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ type: 'BadRequest' });
    expect((await t.request('POST', '/news/launch/@workflow/fly')).status).toBe(400);
    expect((await t.request('POST', '/news/launch/@workflow')).status).toBe(400);
    const anon = await t.request('POST', '/news/launch/@workflow/retract', anonymous);
    expect(anon.status).toBe(401);
    expect(
      (await t.request('POST', '/news/launch/@workflow/retract', { body: { include_children: 'yes' } })).status,
    ).toBe(400);
    expect((await json(await t.request('GET', '/news/launch'))).review_state).toBe('published');
    expect((await t.request('POST', '/@workflow/publish')).status).toBe(400);
  });

  it('takes a transition on a whole subtree with include_children, with the given dates', async () => {
    await t.request('POST', '/news', { body: { '@type': 'Document', title: 'Second' } });
    const response = await t.request('POST', '/news/@workflow/publish', {
      body: { include_children: true, effective: '2030-01-21T08:00:00', expires: '2031-01-21T08:00:00' },
    });
    expect(response.status).toBe(200);
    const folder = await json(await t.request('GET', '/news', anonymous));
    expect(folder).toMatchObject({
      review_state: 'published',
      effective: '2030-01-21T08:00:00',
      expires: '2031-01-21T08:00:00',
    });
    expect(folder.items.map((i: { title: string }) => i.title)).toEqual(['Launch', 'Second']);
  });

  it('retracting hides it from anonymous callers again', async () => {
    expect((await t.request('POST', '/news/launch/@workflow/retract')).status).toBe(200);
    expect((await t.request('GET', '/news/launch', anonymous)).status).toBe(401);
    const listing = await json(await t.request('GET', '/news', anonymous));
    expect(listing.items.map((i: { title: string }) => i.title)).toEqual(['Second']);
    expect(listing.items_total).toBe(1);
    expect((await json(await t.request('GET', '/@search?SearchableText=launch', anonymous))).items_total).toBe(0);
  });

  it('answers @workflow on the site root, which has no workflow', async () => {
    const status = await json(await t.request('GET', '/@workflow', anonymous));
    expect(status).toEqual({ '@id': `${t.suite.publicUrl}/@workflow`, history: [], transitions: [] });
  });
});
