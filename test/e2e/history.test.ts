import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';

/**
 * `@history` through the gateway (specification: History entry, History, Content versions; addendum §8):
 * versions of versioned types, the workflow entries, one version as it was, and reverting.
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as any;

describe('@history', () => {
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    await t.admin('POST', '/@users', { username: 'rae', password: 'secret-rae', fullname: 'Rae Reader' });
    await t.admin('POST', '/', { '@type': 'Folder', id: 'notes', title: 'Notes' });
    await t.admin('POST', '/notes/@sharing', { entries: [{ id: 'rae', roles: { Reader: true } }] });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('a new document has its initial version and its creation', async () => {
    await t.admin('POST', '/notes', { '@type': 'Document', id: 'first', title: 'First draft' });
    const entries = await json(await t.admin('GET', '/notes/first/@history'));
    const actor = {
      '@id': `${t.suite.publicUrl}/@users/admin`,
      fullname: expect.any(String),
      id: 'admin',
      username: null,
    };
    expect(entries).toEqual([
      {
        '@id': `${t.suite.publicUrl}/notes/first/@history/0`,
        action: 'Edited',
        actor,
        comments: 'Initial version',
        may_revert: true,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        transition_title: 'Edited',
        type: 'versioning',
        version: 0,
      },
      {
        action: 'Create',
        actor,
        comments: '',
        review_state: 'private',
        state_title: 'Private',
        time: expect.stringMatching(/Z$/),
        transition_title: 'Create',
        type: null,
      },
    ]);
  });

  it('every edit makes a version with its change note; transitions are listed; newest first', async () => {
    await t.admin('POST', '/notes', { '@type': 'Document', id: 'second', title: 'One' });
    await t.admin('PATCH', '/notes/second', { title: 'Two', changeNote: 'Renamed the title' });
    await t.admin('POST', '/notes/second/@workflow/publish', { comment: 'Looks good' });
    await t.admin('PATCH', '/notes/second', { description: 'Now with a description' });
    const entries = await json(await t.admin('GET', '/notes/second/@history'));
    expect(entries.map((e: any) => [e.type, e.action, e.version ?? e.review_state, e.comments])).toEqual([
      ['versioning', 'Edited', 2, ''],
      ['workflow', 'publish', 'published', 'Looks good'],
      ['versioning', 'Edited', 1, 'Renamed the title'],
      ['versioning', 'Edited', 0, 'Initial version'],
      [null, 'Create', 'private', ''],
    ]);
    expect(entries[1]).toMatchObject({ state_title: 'Published', transition_title: 'Publish' });
    const times = entries.map((e: any) => e.time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('a rename or a change of nothing versioned makes no version', async () => {
    await t.admin('POST', '/notes', { '@type': 'Document', id: 'third', title: 'Third' });
    await t.admin('PATCH', '/notes/third', { id: 'third-renamed' });
    await t.admin('PATCH', '/notes/third-renamed', { title: 'Third' });
    const entries = await json(await t.admin('GET', '/notes/third-renamed/@history'));
    expect(entries.filter((e: any) => e.type === 'versioning').map((e: any) => e.version)).toEqual([0]);
  });

  it('GET @history/<n> is the object as it was; an unknown version is 404', async () => {
    await t.admin('POST', '/notes', { '@type': 'Document', id: 'fourth', title: 'Before', description: 'Old' });
    await t.admin('PATCH', '/notes/fourth', { title: 'After', description: 'New' });
    const then = await json(await t.admin('GET', '/notes/fourth/@history/0'));
    expect(then).toMatchObject({
      '@id': `${t.suite.publicUrl}/notes/fourth`,
      '@type': 'Document',
      title: 'Before',
      description: 'Old',
      version: '0',
    });
    const now = await json(await t.admin('GET', '/notes/fourth'));
    expect(now).toMatchObject({ title: 'After', version: 'current' });
    expect((await t.request('GET', '/notes/fourth/@history/7')).status).toBe(404);
    expect((await t.request('GET', '/notes/fourth/@history/seven')).status).toBe(400);
  });

  it('PATCH @history reverts: the fields come back, and the revert is a version of its own', async () => {
    await t.admin('POST', '/notes', { '@type': 'Document', id: 'fifth', title: 'Welcome', description: 'v0' });
    await t.admin('PATCH', '/notes/fifth', { title: 'Welcome changed', description: 'v1' });
    const reverted = await t.request('PATCH', '/notes/fifth/@history', { body: { version: 0 } });
    expect(reverted.status).toBe(200);
    expect(await json(reverted)).toEqual({ message: 'Welcome has been reverted to revision 0.' });
    expect(await json(await t.admin('GET', '/notes/fifth'))).toMatchObject({ title: 'Welcome', description: 'v0' });
    // The index follows the revert (its event names the restored fields).
    const found = await json(await t.admin('GET', '/notes/@search?path.depth=1&id=fifth&metadata_fields=Description'));
    expect(found.items.map((i: any) => [i.title, i.description])).toEqual([['Welcome', 'v0']]);
    const [latest] = await json(await t.admin('GET', '/notes/fifth/@history'));
    expect(latest).toMatchObject({ type: 'versioning', version: 2, comments: 'Restored from revision 0' });
    expect((await t.request('PATCH', '/notes/fifth/@history', { body: { version: 9 } })).status).toBe(404);
    for (const body of [{}, { version: -1 }, { version: 'one' }]) {
      expect((await t.request('PATCH', '/notes/fifth/@history', { body })).status).toBe(400);
    }
  });

  it('a News Item keeps the image each version had, and a revert brings it back', async () => {
    const first = png(3, 2, 1);
    const second = png(5, 4, 2);
    await t.admin('POST', '/notes', {
      '@type': 'News Item',
      id: 'launch',
      title: 'Launch',
      image: upload(first, 'first.png', 'image/png'),
    });
    await t.admin('PATCH', '/notes/launch', { image: upload(second, 'second.png', 'image/png') });
    const bytes = async () => Buffer.from(await (await t.admin('GET', '/notes/launch/@@images/image')).arrayBuffer());
    expect((await bytes()).equals(second)).toBe(true);
    await t.admin('PATCH', '/notes/launch/@history', { version: 0 });
    expect((await bytes()).equals(first)).toBe(true);
    expect((await json(await t.admin('GET', '/notes/launch'))).image.filename).toBe('first.png');
    await t.admin('PATCH', '/notes/launch/@history', { version: 1 });
    expect((await bytes()).equals(second)).toBe(true);
  });

  it('a Reader sees the history but may not revert; anonymous callers get 401', async () => {
    await t.admin('POST', '/notes', { '@type': 'Document', id: 'sixth', title: 'Sixth' });
    await t.admin('POST', '/notes/sixth/@workflow/publish');
    const seen = await t.request('GET', '/notes/sixth/@history', { auth: basic('rae') });
    expect(seen.status).toBe(200);
    const entries = await json(seen);
    expect(entries.find((e: any) => e.type === 'versioning').may_revert).toBe(false);
    const revert = await t.request('PATCH', '/notes/sixth/@history', { auth: basic('rae'), body: { version: 0 } });
    expect(revert.status).toBe(403);
    expect((await t.request('GET', '/notes/sixth', { auth: null })).status).toBe(200);
    expect((await t.request('GET', '/notes/sixth/@history', { auth: null })).status).toBe(401);
  });

  it('a type without versioning lists only its creation and transitions', async () => {
    await t.admin('POST', '/notes', { '@type': 'Folder', id: 'box', title: 'Box' });
    await t.admin('PATCH', '/notes/box', { title: 'Box renamed' });
    const entries = await json(await t.admin('GET', '/notes/box/@history'));
    expect(entries.map((e: any) => [e.type, e.action])).toEqual([[null, 'Create']]);
  });
});
