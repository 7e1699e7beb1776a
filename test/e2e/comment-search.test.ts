import { pollUntil } from '../support/poll';
import { ADMIN, startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Comments in search through the gateway (issue 14 item 6, search side): `Discussion Item` entries fed by the
 * discussion service's events, found by the moderation panel's query (moderators only while pending) and by their
 * text (whoever may view the object), at `<content url>/++conversation++default/<comment_id>`; the conversation's
 * columns (`total_comments`, `last_comment_date`, `commentators`) on the content's entry.
 */

const basic = (user: string) =>
  user === 'admin' ? ADMIN : 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const SETTINGS = 'cms.app.discussion.interfaces.IDiscussionSettings';
const PENDING = '/@search?portal_type=Discussion%20Item&review_state=pending';

describe('comments in search', () => {
  let t: TestSuite;

  async function comment(doc: string, text: string, user: string): Promise<string> {
    const response = await t.request('POST', `${doc}/@comments/`, { body: { text }, auth: basic(user) });
    expect(response.status).toBe(204);
    return (response.headers.get('location') ?? '').split('/').pop() as string;
  }

  const search = async (query: string, user: string | null) => {
    const response = await t.request('GET', query, { auth: user === null ? null : basic(user) });
    expect(response.status).toBe(200);
    return json(response);
  };
  const ids = async (query: string, user: string | null) =>
    (await search(query, user)).items.map((item: Record<string, any>) => item['@id'] as string);

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '60000' });
    for (const [username, roles] of [
      ['ann', ['Member']],
      ['rev', ['Reviewer']],
    ] as const) {
      await t.admin('POST', '/@users', { username, password: `secret-${username}`, roles });
    }
    await t.admin('PATCH', '/@registry', { [`${SETTINGS}.globally_enabled`]: true });
    await t.admin('POST', '/', { '@type': 'Document', id: 'talk', title: 'Talk' });
    await t.admin('POST', '/talk/@workflow/publish');
    await t.admin('PATCH', '/talk', { allow_discussion: true });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists a pending comment for moderators only, at its ++conversation++ address', async () => {
    await t.admin('PATCH', '/@registry', { [`${SETTINGS}.moderation_enabled`]: true });
    let id: string;
    try {
      id = await comment('/talk', 'Rhubarb season is here', 'ann');
    } finally {
      await t.admin('PATCH', '/@registry', { [`${SETTINGS}.moderation_enabled`]: false });
    }
    const address = `${t.suite.publicUrl}/talk/++conversation++default/${id}`;
    expect(await pollUntil(async () => (await ids(PENDING, 'rev')).includes(address), 10_000)).toBe(true);
    const [item] = (await search(PENDING, 'rev')).items;
    expect(item).toMatchObject({ '@id': address, '@type': 'Discussion Item', review_state: 'pending' });
    expect(await ids(PENDING, null)).toEqual([]);
    expect(await ids(PENDING, 'ann')).toEqual([]);
    expect(await ids('/@search?SearchableText=rhubarb', null)).toEqual([]);

    // Approved: found by its text by whoever may view the object, and counted on it.
    const approved = await t.request('POST', `/talk/@comments/${id}/@workflow/publish`, { auth: basic('rev') });
    expect(approved.status).toBe(200);
    expect(await ids(PENDING, 'rev')).toEqual([]);
    expect(await ids('/@search?SearchableText=rhubarb', null)).toEqual([address]);
    const [talk] = (
      await search('/@search?getId=talk&metadata_fields=total_comments&metadata_fields=commentators', null)
    ).items;
    expect(talk).toMatchObject({ total_comments: 1, commentators: ['ann'] });
  });

  it("lists a pending comment whole in Volto's moderation view query (fullobjects, no review_state)", async () => {
    await t.admin('PATCH', '/@registry', { [`${SETTINGS}.moderation_enabled`]: true });
    let id: string;
    try {
      id = await comment('/talk', 'Quince paste awaits', 'ann');
    } finally {
      await t.admin('PATCH', '/@registry', { [`${SETTINGS}.moderation_enabled`]: false });
    }
    // As Volto 18's Site Setup → Moderate comments asks it (ModerateComments.jsx: searchContent).
    const VOLTO_QUERY = '/@search?portal_type=Discussion%20Item&fullobjects=true';
    const address = `${t.suite.publicUrl}/talk/++conversation++default/${id}`;
    const found = await pollUntil(async () => {
      const items = (await search(VOLTO_QUERY, 'admin')).items as Record<string, any>[];
      return items.find((item) => item['@id'] === address);
    }, 10_000);
    expect(found).toMatchObject({
      '@type': 'Discussion Item',
      review_state: 'pending',
      text: { data: 'Quince paste awaits' },
      author_name: expect.any(String),
      // The panel's Delete button: a moderator may delete any comment.
      is_deletable: true,
    });
    // Whoever is no moderator finds no pending comment, whole or not.
    const anonymous = (await search(VOLTO_QUERY, null)).items as Record<string, any>[];
    expect(anonymous.map((item) => item['@id'])).not.toContain(address);
    await t.request('DELETE', `/talk/@comments/${id}`, { auth: basic('ann') });
  });

  it('a rejected comment leaves the moderation queue', async () => {
    await t.admin('PATCH', '/@registry', { [`${SETTINGS}.moderation_enabled`]: true });
    let id: string;
    try {
      id = await comment('/talk', 'Buy cheap watches', 'ann');
    } finally {
      await t.admin('PATCH', '/@registry', { [`${SETTINGS}.moderation_enabled`]: false });
    }
    const address = `${t.suite.publicUrl}/talk/++conversation++default/${id}`;
    expect(await pollUntil(async () => (await ids(PENDING, 'rev')).includes(address), 10_000)).toBe(true);
    const rejected = await t.request('POST', `/talk/++conversation++default/${id}/@workflow/reject`, {
      auth: basic('rev'),
    });
    expect(rejected.status).toBe(200);
    expect(await ids(PENDING, 'rev')).not.toContain(address);
    expect(await ids('/@search?SearchableText=watches', null)).toEqual([]);
  });

  it('keeps the content’s conversation columns, and forgets removed comments', async () => {
    const id = await comment('/talk', 'Gooseberry fool', 'ann');
    await comment('/talk', 'Gooseberry jam', 'rev');
    const columns = async () =>
      (await search('/@search?getId=talk&metadata_fields=_all', null)).items[0] as Record<string, any>;
    const withTwo = await pollUntil(async () => {
      const c = await columns();
      return c.total_comments === 3 ? c : undefined;
    }, 10_000);
    expect(withTwo.commentators).toEqual(['ann', 'rev']);
    expect(withTwo.last_comment_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(await ids('/@search?SearchableText=gooseberry&sort_on=getId', null)).toHaveLength(2);

    expect((await t.request('DELETE', `/talk/@comments/${id}`, { auth: basic('ann') })).status).toBe(204);
    expect(await ids('/@search?SearchableText=fool', null)).toEqual([]);
    expect((await columns()).total_comments).toBe(2);
  });

  it('shows comments of private content only to whom may view it', async () => {
    await t.admin('POST', '/', { '@type': 'Document', id: 'quiet', title: 'Quiet' });
    await t.admin('PATCH', '/quiet', { allow_discussion: true });
    await comment('/quiet', 'Whispered damson note', 'admin');
    expect(await ids('/@search?SearchableText=damson', 'admin')).toHaveLength(1);
    expect(await ids('/@search?SearchableText=damson', null)).toEqual([]);
    expect(await ids('/@search?SearchableText=damson', 'ann')).toEqual([]);
    // Published: its comments follow.
    await t.admin('POST', '/quiet/@workflow/publish');
    expect(await ids('/@search?SearchableText=damson', null)).toHaveLength(1);
  });
});
