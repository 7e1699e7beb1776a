import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** What callers learn about objects they may not view: nothing but what the URL they asked for already says. */
describe('private objects do not leak', () => {
  let t: TestSuite;
  let base: string;
  const anonymous = { auth: null };
  const member = basic('mallory', 'secret-mallory');
  const writer = basic('wendy', 'secret-wendy');
  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  async function create(container: string, body: Record<string, unknown>, auth?: string) {
    const response = await t.request('POST', container, { body, auth });
    if (response.status !== 201) throw new Error(`POST ${container}: ${response.status} ${await response.text()}`);
    return json(response);
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    base = t.suite.publicUrl;
    for (const username of ['mallory', 'wendy']) {
      const created = await t.request('POST', '/@users', {
        body: { username, password: `secret-${username}`, email: `${username}@example.com` },
      });
      expect(created.status).toBe(201);
    }
    await create('/', { '@type': 'Folder', id: 'vault', title: 'Merger plans', description: 'Buying ACME in May' });
    await create('/vault', { '@type': 'Document', id: 'press', title: 'Press release' });
    expect((await t.request('POST', '/vault/press/@workflow/publish')).status).toBe(200);
    await create('/', { '@type': 'Document', id: 'open', title: 'Open page' });
    expect((await t.request('POST', '/open/@workflow/publish')).status).toBe(200);
    await create('/', { '@type': 'Document', id: 'private-doc', title: 'Private page' });
    // wendy may add content in her workspace, and see it, but nothing else that is private.
    await create('/', { '@type': 'Folder', id: 'workspace', title: 'Workspace' });
    const granted = await t.request('POST', '/workspace/@sharing', {
      body: { entries: [{ id: 'wendy', type: 'user', roles: { Contributor: true } }] },
    });
    expect(granted.status).toBe(204);
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('the parent of a published object in a private folder', () => {
    it('shows anonymous callers only its URL, which the object URL already holds', async () => {
      const response = await t.request('GET', '/vault/press', anonymous);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).not.toMatch(/Merger plans|Buying ACME/);
      expect(JSON.parse(text).parent).toEqual({ '@id': `${base}/vault` });
    });

    it('shows a Member who may not view it only its URL too', async () => {
      const body = await json(await t.request('GET', '/vault/press', { auth: member }));
      expect(body.parent).toEqual({ '@id': `${base}/vault` });
    });

    it('is summarised in full for those who may view it', async () => {
      const body = await json(await t.request('GET', '/vault/press'));
      expect(body.parent).toMatchObject({
        '@id': `${base}/vault`,
        '@type': 'Folder',
        title: 'Merger plans',
        description: 'Buying ACME in May',
        review_state: 'private',
      });
      const open = await json(await t.request('GET', '/open', anonymous));
      expect(open.parent).toMatchObject({ '@id': base, title: 'Site' });
    });
  });

  describe('a transition on an object the caller may not view', () => {
    it('answers anonymous callers 401 without naming its state', async () => {
      for (const transition of ['publish', 'retract', 'reject', 'submit']) {
        const response = await t.request('POST', `/private-doc/@workflow/${transition}`, anonymous);
        expect(response.status).toBe(401);
        expect(await response.text()).not.toMatch(/private|state/i);
      }
    });

    it('answers a Member 403 without naming its state', async () => {
      for (const transition of ['publish', 'retract', 'reject', 'submit']) {
        const response = await t.request('POST', `/private-doc/@workflow/${transition}`, { auth: member });
        expect(response.status).toBe(403);
        expect(await response.text()).not.toMatch(/private|state/i);
      }
      const status = await json(await t.request('GET', '/private-doc/@workflow'));
      expect(status.state.id).toBe('private');
    });
  });

  describe('relatedItems', () => {
    const MISSING = '0123456789abcdef0123456789abcdef';
    let privateUid: string;
    let openUid: string;

    beforeAll(async () => {
      privateUid = (await json(await t.request('GET', '/private-doc'))).UID;
      openUid = (await json(await t.request('GET', '/open'))).UID;
      expect((await t.request('GET', '/private-doc', { auth: writer })).status).toBe(403);
    });

    /** The refusal of a reference, with the reference itself replaced: what tells one refusal from another. */
    async function refusal(response: Response, ref: string) {
      expect(response.status).toBe(400);
      return JSON.stringify(await json(response))
        .split(ref)
        .join('<ref>');
    }

    it('refuses an object the caller may not view exactly as one that does not exist', async () => {
      const post = (ref: string) =>
        t.request('POST', '/workspace', {
          auth: writer,
          body: { '@type': 'Document', title: 'Mine', relatedItems: [ref] },
        });
      const missing = await refusal(await post(MISSING), MISSING);
      expect(missing).toContain('no content object');
      expect(await refusal(await post(privateUid), privateUid)).toBe(missing);
      for (const ref of ['/private-doc', `${base}/private-doc`]) {
        const gone = ref.replace('private-doc', 'no-such-doc');
        expect(await refusal(await post(ref), ref)).toBe(await refusal(await post(gone), gone));
      }
      // Nothing was created by the refused writes.
      expect((await json(await t.request('GET', '/workspace'))).items_total).toBe(0);
    });

    it('refuses it in a PATCH too, and takes objects the caller may view', async () => {
      const own = await create('/workspace', { '@type': 'Document', id: 'own', title: 'Own' }, writer);
      expect(own.relatedItems).toEqual([]);
      const patch = (ref: string) =>
        t.request('PATCH', '/workspace/own', { auth: writer, body: { relatedItems: [openUid, ref] } });
      expect(await refusal(await patch(privateUid), privateUid)).toBe(await refusal(await patch(MISSING), MISSING));
      const ok = await t.request('PATCH', '/workspace/own', {
        auth: writer,
        body: { relatedItems: [openUid] },
        headers: { Prefer: 'return=representation' },
      });
      expect(ok.status).toBe(200);
      const body = await json(await t.request('GET', '/workspace/own', { auth: writer }));
      expect(body.relatedItems.map((r: { '@id': string }) => r['@id'])).toEqual([`${base}/open`]);
    });
  });
});
