import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Link integrity and `resolveuid` links (issue 15, items 4 and 5): what refers to an object before it is
 * deleted — links in rich text and blocks, a Link's URL, `relatedItems` — kept in a reference index fed by
 * content events; links to the site's objects are stored by UID and served as their targets' current URLs.
 */

const json = async (response: Response) => (await response.json()) as any;

const RECORD = 'cms.enable_link_integrity_checks';

describe('link integrity', () => {
  let t: TestSuite;
  let base: string;

  /** Creates an object in `parent` (site path) and answers its UID. */
  async function add(parent: string, body: Record<string, unknown>): Promise<string> {
    const response = await t.request('POST', parent, { body });
    if (response.status !== 201) throw new Error(`POST ${parent}: ${response.status} ${await response.text()}`);
    return (await json(response)).UID as string;
  }

  async function check(uids: string[], auth?: string | null): Promise<any[]> {
    const query = uids.map((uid) => `uids=${uid}`).join('&');
    const response = await t.request('GET', `/@linkintegrity?${query}`, { auth });
    expect(response.status).toBe(200);
    return json(response);
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '2000' });
    base = t.suite.publicUrl;
  });
  afterAll(async () => {
    await t.stop();
  });

  it('names the page whose rich text links to the checked one, in the recorded shape', async () => {
    const target = await add('/', { '@type': 'Document', id: 'doc-1', title: 'First document' });
    const source = await add('/', {
      '@type': 'Document',
      id: 'doc-2',
      title: 'Second document',
      text: { data: `<p>See <a href="${base}/doc-1">the first</a>.</p>` },
    });
    expect(await check([target])).toEqual([
      {
        '@id': `${base}/doc-1`,
        '@type': 'Document',
        breaches: [{ '@id': `${base}/doc-2`, title: 'Second document', uid: source }],
        description: '',
        items_total: 0,
        review_state: 'private',
        title: 'First document',
        type_title: 'Page',
      },
    ]);
    // Nothing refers to the source.
    expect((await check([source]))[0].breaches).toEqual([]);
  });

  it('stores links to site objects by UID and serves them at the current URL, also after a move', async () => {
    const target = await add('/', { '@type': 'Document', id: 'moving', title: 'Moving' });
    await add('/', {
      '@type': 'Document',
      id: 'linking',
      title: 'Linking',
      text: { data: `<p><a href="${base}/moving#part">here</a> <a href="https://elsewhere.example/x">there</a></p>` },
      blocks: {
        a: {
          '@type': 'slate',
          value: [{ type: 'p', children: [{ type: 'link', data: { url: '/moving' }, children: [{ text: 'x' }] }] }],
        },
        b: { '@type': 'teaser', href: [{ '@id': `${base}/moving`, title: 'Moving' }] },
      },
      blocks_layout: { items: ['a', 'b'] },
    });
    await add('/', { '@type': 'Folder', id: 'elsewhere', title: 'Elsewhere' });
    expect((await t.request('POST', '/elsewhere/@move', { body: { source: [`${base}/moving`] } })).status).toBe(200);

    const page = await json(await t.request('GET', '/linking'));
    expect(page.text.data).toContain(`href="${base}/elsewhere/moving#part"`);
    expect(page.text.data).toContain('href="https://elsewhere.example/x"');
    expect(page.blocks.a.value[0].children[0].data.url).toBe(`${base}/elsewhere/moving`);
    expect(page.blocks.b.href[0]['@id']).toBe(`${base}/elsewhere/moving`);
    // Still a breach after the move: the link is to the object, not to its old path.
    expect((await check([target]))[0].breaches.map((b: any) => b.title)).toEqual(['Linking']);
  });

  it('names a page linking from a block only, and a Link pointing at the object', async () => {
    const target = await add('/', { '@type': 'Document', id: 'block-target', title: 'Block target' });
    await add('/', {
      '@type': 'Document',
      id: 'block-source',
      title: 'Block source',
      blocks: { i: { '@type': 'image', url: `${base}/block-target/@@images/image` } },
      blocks_layout: { items: ['i'] },
    });
    await add('/', { '@type': 'Link', id: 'pointer', title: 'Pointer', remoteUrl: `${base}/block-target` });
    const [entry] = await check([target]);
    expect(entry.breaches.map((b: any) => b.title)).toEqual(['Block source', 'Pointer']);
    const link = await json(await t.request('GET', '/pointer'));
    expect(link.remoteUrl).toBe(`${base}/block-target`);
  });

  it('names a page relating to the object through relatedItems', async () => {
    const target = await add('/', { '@type': 'Document', id: 'related-target', title: 'Related target' });
    await add('/', { '@type': 'Document', id: 'relating', title: 'Relating', relatedItems: [target] });
    expect((await check([target]))[0].breaches.map((b: any) => b.title)).toEqual(['Relating']);
  });

  it('for a folder: the breaches of what is inside it, and how much is inside it', async () => {
    const folder = await add('/', { '@type': 'Folder', id: 'box', title: 'Box' });
    await add('/box', { '@type': 'Document', id: 'inside', title: 'Inside' });
    await add('/box', { '@type': 'Document', id: 'unlinked', title: 'Unlinked' });
    await add('/', {
      '@type': 'Document',
      id: 'outside',
      title: 'Outside',
      text: { data: `<a href="${base}/box/inside">in the box</a>` },
    });
    const [entry] = await check([folder]);
    expect(entry['@id']).toBe(`${base}/box`);
    expect(entry.items_total).toBe(2);
    expect(entry.breaches.map((b: any) => b['@id'])).toEqual([`${base}/outside`]);
  });

  it('does not count references from inside what is deleted', async () => {
    const folder = await add('/', { '@type': 'Folder', id: 'crate', title: 'Crate' });
    const a = await add('/crate', { '@type': 'Document', id: 'a', title: 'A' });
    await add('/crate', {
      '@type': 'Document',
      id: 'b',
      title: 'B',
      text: { data: `<a href="${base}/crate/a">a</a>` },
    });
    expect((await check([folder]))[0].breaches).toEqual([]);
    // Deleting `a` alone breaks the link from `b`.
    expect((await check([a]))[0].breaches.map((b: any) => b.title)).toEqual(['B']);
    // Deleting both together does not.
    const b = (await json(await t.request('GET', '/crate/b'))).UID;
    expect((await check([a, b])).map((e) => e.breaches)).toEqual([[], []]);
  });

  it('counts, without naming, referring objects the caller may not view', async () => {
    await t.request('POST', '/@users', { body: { username: 'member', password: 'secret-member', roles: ['Member'] } });
    const member = 'Basic ' + Buffer.from('member:secret-member').toString('base64');
    const target = await add('/', { '@type': 'Document', id: 'public-target', title: 'Public target' });
    expect((await t.request('POST', '/public-target/@workflow/publish')).status).toBe(200);
    await add('/', {
      '@type': 'Document',
      id: 'secret-source',
      title: 'Secret source',
      text: { data: `<a href="${base}/public-target">t</a>` },
    });
    const [seen] = await check([target], member);
    expect(seen.breaches).toEqual([]);
    expect(seen.breaches_hidden).toBe(1);
    // The administrator sees it named, and no hidden count.
    const [all] = await check([target]);
    expect(all.breaches.map((b: any) => b.title)).toEqual(['Secret source']);
    expect(all).not.toHaveProperty('breaches_hidden');
    // An object the caller may not view is not checked at all.
    const secret = (await json(await t.request('GET', '/secret-source'))).UID;
    expect(await check([secret], member)).toEqual([]);
  });

  it('forgets the references of a deleted page', async () => {
    const target = await add('/', { '@type': 'Document', id: 'orphan', title: 'Orphan' });
    await add('/', { '@type': 'Document', id: 'doomed', title: 'Doomed', relatedItems: [target] });
    expect((await check([target]))[0].breaches).toHaveLength(1);
    expect((await t.request('DELETE', '/doomed')).status).toBe(204);
    expect((await check([target]))[0].breaches).toEqual([]);
  });

  it('reports no breaches when link integrity checks are off', async () => {
    const target = await add('/', { '@type': 'Document', id: 'off-target', title: 'Off target' });
    await add('/', { '@type': 'Document', id: 'off-source', title: 'Off source', relatedItems: [target] });
    expect((await check([target]))[0].breaches).toHaveLength(1);
    expect((await t.request('PATCH', '/@registry', { body: { [RECORD]: false } })).status).toBe(204);
    try {
      expect(await check([target])).toEqual([]);
    } finally {
      await t.request('PATCH', '/@registry', { body: { [RECORD]: true } });
    }
    expect((await check([target]))[0].breaches).toHaveLength(1);
  });

  it('requires uids (400)', async () => {
    const response = await t.request('GET', '/@linkintegrity');
    expect(response.status).toBe(400);
    expect((await json(response)).type).toBe('BadRequest');
  });
});
