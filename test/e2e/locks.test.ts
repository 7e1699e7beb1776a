import { pollUntil } from '../support/poll';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@lock` through the gateway (specification: Lock, Locking; addendum §4, §5, §8): who may take, refresh and
 * release a lock, and that a locked object refuses every change but its holder's (or one with its Lock-Token).
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('locks', () => {
  let t: TestSuite;
  const as = (user: string) => ({ auth: basic(user) });
  let n = 0;

  /** A fresh private document in /desk, where ed and eve are Editors and rae a Reader. */
  async function documentToLock(): Promise<string> {
    const id = `page-${++n}`;
    await t.admin('POST', '/desk', { '@type': 'Document', id, title: `Page ${n}` });
    return `/desk/${id}`;
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    for (const username of ['ed', 'eve', 'rae']) {
      await t.admin('POST', '/@users', {
        username,
        password: `secret-${username}`,
        fullname: `${username.toUpperCase()} Example`,
      });
    }
    await t.admin('POST', '/', { '@type': 'Folder', id: 'desk', title: 'Desk' });
    await t.admin('POST', '/desk/@sharing', {
      entries: [
        { id: 'ed', roles: { Editor: true } },
        { id: 'eve', roles: { Editor: true } },
        { id: 'rae', roles: { Reader: true } },
      ],
    });
    // Where eve may add, so that only the lock stops her moving a page there.
    await t.admin('POST', '/', { '@type': 'Folder', id: 'tray', title: 'Tray' });
    await t.admin('POST', '/tray/@sharing', { entries: [{ id: 'eve', roles: { Contributor: true } }] });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('an unlocked object shows only locked: false and stealable: true, on @lock and in its content', async () => {
    const doc = await documentToLock();
    expect(await json(await t.request('GET', `${doc}/@lock`, as('rae')))).toEqual({ locked: false, stealable: true });
    expect((await json(await t.request('GET', doc, as('rae')))).lock).toEqual({ locked: false, stealable: true });
  });

  it('POST @lock answers the full lock; its token is shown only to the holder', async () => {
    const doc = await documentToLock();
    const response = await t.request('POST', `${doc}/@lock`, as('ed'));
    expect(response.status).toBe(200);
    const lock = await json(response);
    expect(lock).toEqual({
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      creator: 'ed',
      creator_name: 'ED Example',
      creator_url: `${t.suite.publicUrl}/author/ed`,
      locked: true,
      name: 'cms.locking.stealable',
      stealable: true,
      time: expect.any(Number),
      timeout: 600,
      token: expect.any(String),
    });
    expect(Math.abs(lock.time - Date.parse(lock.created) / 1000)).toBeLessThan(1);
    expect((await json(await t.request('GET', doc, as('ed')))).lock).toEqual(lock);
    const { token, ...seenByOthers } = lock;
    expect(token.length).toBeGreaterThan(20);
    expect((await json(await t.request('GET', doc, as('eve')))).lock).toEqual(seenByOthers);
    expect(await json(await t.request('GET', `${doc}/@lock`, as('rae')))).toEqual(seenByOthers);
  });

  it('reports the real stealable and timeout it was created with (addendum §5)', async () => {
    const doc = await documentToLock();
    const lock = await json(
      await t.request('POST', `${doc}/@lock`, { ...as('ed'), body: { stealable: false, timeout: 3600 } }),
    );
    expect(lock).toMatchObject({ locked: true, stealable: false, timeout: 3600 });
  });

  it('refuses every change by anyone but the holder, with a message that says it is locked', async () => {
    const doc = await documentToLock();
    await t.request('POST', `${doc}/@lock`, as('ed'));
    const attempts: [string, string, unknown][] = [
      ['PATCH', doc, { title: 'Taken over' }],
      ['PATCH', doc, { id: 'renamed' }],
      ['POST', `${doc}/@workflow/submit`, undefined],
      ['POST', `${doc}/@sharing`, { entries: [{ id: 'rae', roles: { Editor: true } }] }],
      ['POST', '/tray/@move', { source: `${t.suite.publicUrl}${doc}` }],
      ['DELETE', doc, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const response = await t.request(method, path, { ...as('eve'), body });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      expect((await json(response)).message).toMatch(/locked/);
    }
    const after = await json(await t.request('GET', doc, as('eve')));
    expect(after).toMatchObject({ title: expect.stringMatching(/^Page /), review_state: 'private' });
  });

  it("lets the holder's own writes through, and anyone's that carry the Lock-Token", async () => {
    const doc = await documentToLock();
    const { token } = await json(await t.request('POST', `${doc}/@lock`, as('ed')));
    expect((await t.request('PATCH', doc, { ...as('ed'), body: { title: 'By the holder' } })).status).toBe(204);
    const withToken = await t.request('PATCH', doc, {
      ...as('eve'),
      body: { title: 'With the token' },
      headers: { 'Lock-Token': token },
    });
    expect(withToken.status).toBe(204);
    expect((await json(await t.request('GET', doc, as('eve')))).title).toBe('With the token');
    const wrongToken = await t.request('PATCH', doc, {
      ...as('eve'),
      body: { title: 'Wrong token' },
      headers: { 'Lock-Token': 'not-the-token' },
    });
    expect(wrongToken.status).toBe(403);
  });

  it("POST @lock on someone else's lock leaves it as it is", async () => {
    const doc = await documentToLock();
    const first = await json(await t.request('POST', `${doc}/@lock`, as('ed')));
    const second = await json(await t.request('POST', `${doc}/@lock`, as('eve')));
    expect(second).toMatchObject({ locked: true, creator: 'ed', created: first.created });
    expect(second.token).toBeUndefined();
    expect((await t.request('PATCH', doc, { ...as('eve'), body: { title: 'No' } })).status).toBe(403);
  });

  it('DELETE @lock: the holder releases; another without force gets the lock unchanged; with force breaks it', async () => {
    const doc = await documentToLock();
    await t.request('POST', `${doc}/@lock`, as('ed'));
    const unforced = await t.request('DELETE', `${doc}/@lock`, as('eve'));
    expect(unforced.status).toBe(200);
    expect(await json(unforced)).toMatchObject({ locked: true, creator: 'ed' });
    const forced = await t.request('DELETE', `${doc}/@lock`, { ...as('eve'), body: { force: true } });
    expect(forced.status).toBe(200);
    expect(await json(forced)).toEqual({ locked: false, stealable: true });
    expect((await t.request('PATCH', doc, { ...as('eve'), body: { title: 'Free again' } })).status).toBe(204);

    await t.request('POST', `${doc}/@lock`, as('ed'));
    const released = await t.request('DELETE', `${doc}/@lock`, as('ed'));
    expect(await json(released)).toEqual({ locked: false, stealable: true });
  });

  it('a lock that is not stealable is broken only by a site manager', async () => {
    const doc = await documentToLock();
    await t.request('POST', `${doc}/@lock`, { ...as('ed'), body: { stealable: false } });
    const refused = await t.request('DELETE', `${doc}/@lock`, { ...as('eve'), body: { force: true } });
    expect(refused.status).toBe(403);
    expect((await json(await t.request('GET', `${doc}/@lock`, as('eve')))).locked).toBe(true);
    const broken = await t.request('DELETE', `${doc}/@lock`, { body: { force: true } });
    expect(await json(broken)).toEqual({ locked: false, stealable: true });
  });

  it('PATCH @lock refreshes the holder’s lock and refuses anyone else', async () => {
    const doc = await documentToLock();
    const { token } = await json(await t.request('POST', `${doc}/@lock`, as('ed')));
    const refreshed = await t.request('PATCH', `${doc}/@lock`, as('ed'));
    expect(refreshed.status).toBe(200);
    expect(await json(refreshed)).toMatchObject({ locked: true, token });
    const refused = await t.request('PATCH', `${doc}/@lock`, as('eve'));
    expect(refused.status).toBe(403);
    expect((await json(refused)).message).toMatch(/locked/);
  });

  it('the deprecated @refresh-lock and @unlock do what PATCH and DELETE @lock do', async () => {
    const doc = await documentToLock();
    await t.request('POST', `${doc}/@lock`, as('ed'));
    const refreshed = await t.request('POST', `${doc}/@refresh-lock`, as('ed'));
    expect(await json(refreshed)).toMatchObject({ locked: true, creator: 'ed' });
    const unlocked = await t.request('POST', `${doc}/@unlock`, as('ed'));
    expect(await json(unlocked)).toEqual({ locked: false, stealable: true });
  });

  it('a lock past its timeout is gone', async () => {
    const doc = await documentToLock();
    await t.request('POST', `${doc}/@lock`, { ...as('ed'), body: { timeout: 1 } });
    await pollUntil(
      async () => (await json(await t.request('GET', `${doc}/@lock`, as('eve')))).locked === false,
      10_000,
      { description: 'the lock to time out' },
    );
    expect((await t.request('PATCH', doc, { ...as('eve'), body: { title: 'After the timeout' } })).status).toBe(204);
  });

  it('needs the edit permission to lock, and a valid body', async () => {
    const doc = await documentToLock();
    expect((await t.request('POST', `${doc}/@lock`, as('rae'))).status).toBe(403);
    expect((await t.request('POST', `${doc}/@lock`, {})).status).toBe(200);
    await t.request('DELETE', `${doc}/@lock`, {});
    for (const body of [{ timeout: 'soon' }, { timeout: 0 }, { timeout: 10 ** 9 }, { stealable: 'no' }, { other: 1 }]) {
      const response = await t.request('POST', `${doc}/@lock`, { ...as('ed'), body });
      expect([body, response.status]).toEqual([body, 400]);
    }
    expect((await json(await t.request('GET', `${doc}/@lock`, as('ed')))).locked).toBe(false);
  });
});
