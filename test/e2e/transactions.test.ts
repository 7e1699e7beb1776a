import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@transactions` (issue 26, Volto's Undo panel): the recent writes listed newest first in the original's item
 * shape, undone through the write path, refused (409, nothing written) when a later change depends on them; with
 * the neutral names and with ORIGINAL_IDENTIFIERS on.
 */
const json = async (response: Response) => (await response.json()) as any;
const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');

interface Item {
  description: string;
  id: string;
  size: number;
  time: string;
  username: string;
}

/** How many transactions the suites keep: the last test writes more. */
const LOG_SIZE = 30;

function undoLog(suite: () => TestSuite) {
  const t = () => suite();
  const list = async (): Promise<Item[]> => json(await t().admin('GET', '/@transactions'));
  /** The newest transaction whose description starts with `path` and names `kind`. */
  const find = async (path: string, kind: string) => {
    const found = (await list()).find(
      (item) => item.description.split(' ')[0] === path && item.description.includes(kind),
    );
    if (!found) throw new Error(`no ${kind} of ${path} listed`);
    return found;
  };
  const undo = (ids: string[], auth?: string | null) =>
    t().request('PATCH', '/@transactions', { body: { transaction_ids: ids }, auth });
  const titleOf = async (path: string) => (await json(await t().admin('GET', path))).title;

  beforeAll(async () => {
    await t().admin('POST', '/@users', { username: 'mia', password: 'secret-mia', fullname: 'Mia' });
    await t().admin('POST', '/', { '@type': 'Document', id: 'page', title: 'Page' });
    await t().admin('PATCH', '/page', { title: 'Page edited' });
    await t().admin('POST', '/', { '@type': 'Document', id: 'gone', title: 'Gone' });
    await t().admin('DELETE', '/gone');
  });

  it('lists the writes newest first, in the original item shape', async () => {
    const items = await list();
    expect(items.slice(0, 4).map((item) => item.description)).toEqual([
      '/gone delete',
      '/gone create',
      '/page update',
      '/page create',
    ]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['description', 'id', 'size', 'time', 'username']);
      expect(item.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(item.size).toBeGreaterThan(0);
      // As the original lists them: the opaque id, then the time and the description (Volto filters on it).
      expect(item.id).toBe(`${item.id.split(' ')[0]} ${item.time} ${item.description}`);
    }
    expect(items[0].username).toBe('admin');
    const times = items.map((item) => item.time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('undoes an edit: the title is back, through the write path (history and search follow)', async () => {
    const edit = await find('/page', 'update');
    const searched = async () =>
      (await json(await t().admin('GET', '/@search?SearchableText=edited'))).items.map(
        (i: { title: string }) => i.title,
      );
    expect(await searched()).toContain('Page edited');
    const response = await undo([edit.id]);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: 'Transactions have been reverted successfully.' });
    expect(await titleOf('/page')).toBe('Page');
    // The undo is a transaction of its own, listed first, and a version in the page's history.
    expect((await list())[0].description).toBe('/page undo');
    const history = await json(await t().admin('GET', '/page/@history'));
    expect(history[0]).toMatchObject({ type: 'versioning' });
    expect(await searched()).not.toContain('Page edited');
    // Undone once: the undo depends on it now, so it is not undone twice.
    const again = await undo([edit.id]);
    expect(again.status).toBe(409);
    expect(await titleOf('/page')).toBe('Page');
  });

  it('undoes a creation: the object is gone', async () => {
    await t().admin('POST', '/', { '@type': 'Document', id: 'fresh', title: 'Fresh' });
    const created = await find('/fresh', 'create');
    expect((await undo([created.id.split(' ')[0]])).status).toBe(200);
    expect((await t().request('GET', '/fresh')).status).toBe(404);
  });

  it('skips the empty entries Volto’s Undo panel sends for the rows left unchecked', async () => {
    await t().admin('POST', '/', { '@type': 'Document', id: 'checked', title: 'Checked' });
    const created = await find('/checked', 'create');
    expect((await undo(['', created.id, '', ''])).status).toBe(200);
    expect((await t().request('GET', '/checked')).status).toBe(404);
    // Nothing but empty entries names nothing.
    expect((await undo(['', ' '])).status).toBe(400);
  });

  it('refuses an undo a later change depends on, changing nothing; undone together with it, both go', async () => {
    await t().admin('POST', '/', { '@type': 'Folder', id: 'box', title: 'Box' });
    await t().admin('POST', '/box', { '@type': 'Document', id: 'inside', title: 'Inside' });
    await t().admin('POST', '/', { '@type': 'Document', id: 'later', title: 'Later' });
    await t().admin('PATCH', '/later', { title: 'Later edited' });
    const madeBox = await find('/box', 'create');
    const madeLater = await find('/later', 'create');
    const editedLater = await find('/later', 'update');

    const refused = await undo([madeLater.id]);
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toMatch(/depends on it/);
    expect(await titleOf('/later')).toBe('Later edited');
    // Something made inside what it made depends on it too.
    expect((await undo([madeBox.id])).status).toBe(409);
    expect(await titleOf('/box/inside')).toBe('Inside');

    // A refusal of one of several undoes none of them.
    expect((await undo([editedLater.id, madeBox.id])).status).toBe(409);
    expect(await titleOf('/later')).toBe('Later edited');

    expect((await undo([madeLater.id, editedLater.id])).status).toBe(200);
    expect((await t().request('GET', '/later')).status).toBe(404);
  });

  it('refuses to undo a removal (what was removed is gone), with a 409', async () => {
    const removal = await find('/gone', 'delete');
    const refused = await undo([removal.id]);
    expect(refused.status).toBe(409);
    expect((await t().request('GET', '/gone')).status).toBe(404);
  });

  it('refuses what needs more than content back: a rename, a replaced file (its bytes are released)', async () => {
    await t().admin('POST', '/', { '@type': 'Document', id: 'named', title: 'Named' });
    await t().admin('PATCH', '/named', { id: 'renamed' });
    expect((await undo([(await find('/renamed', 'update')).id])).status).toBe(409);
    expect((await t().request('GET', '/renamed')).status).toBe(200);

    const file = (text: string) => ({
      data: Buffer.from(text).toString('base64'),
      encoding: 'base64',
      filename: `${text}.txt`,
      'content-type': 'text/plain',
    });
    await t().admin('POST', '/', { '@type': 'File', id: 'notes', title: 'Notes', file: file('first') });
    await t().admin('PATCH', '/notes', { file: file('second') });
    const replaced = await undo([(await find('/notes', 'update')).id]);
    expect(replaced.status).toBe(409);
    expect((await json(replaced)).message).toMatch(/replaced a file/);
    expect((await json(await t().admin('GET', '/notes'))).file.filename).toBe('second.txt');
    // An edit that left the file alone is undone.
    await t().admin('PATCH', '/notes', { title: 'Notes retitled' });
    expect((await undo([(await find('/notes', 'update')).id])).status).toBe(200);
    expect(await titleOf('/notes')).toBe('Notes');
    expect((await json(await t().admin('GET', '/notes'))).file.filename).toBe('second.txt');
  });

  it('answers 404 for an id it does not know, and 400 for a bad body', async () => {
    expect((await undo(['bm90LWEtdHJhbnNhY3Rpb24='])).status).toBe(404);
    expect((await undo([])).status).toBe(400);
    const bad = await t().request('PATCH', '/@transactions', { body: { transaction_ids: 'x'.repeat(5000) } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain('x'.repeat(200));
    expect((await t().request('PATCH', '/@transactions', { body: { ids: ['a'] } })).status).toBe(400);
  });

  it('is for managers only: 401 anonymous, 403 a member, for listing and undoing', async () => {
    const first = (await list())[0];
    expect((await t().request('GET', '/@transactions', { auth: null })).status).toBe(401);
    expect((await t().request('GET', '/@transactions', { auth: basic('mia') })).status).toBe(403);
    expect((await undo([first.id], null)).status).toBe(401);
    expect((await undo([first.id], basic('mia'))).status).toBe(403);
    expect((await list())[0].id).toBe(first.id);
  });

  it(`keeps the last ${LOG_SIZE} transactions only`, async () => {
    await t().admin('POST', '/', { '@type': 'Document', id: 'busy', title: 'Busy 0' });
    const oldest = await find('/busy', 'create');
    for (let i = 1; i <= LOG_SIZE; i++) await t().admin('PATCH', '/busy', { title: `Busy ${i}` });
    const items = await list();
    expect(items).toHaveLength(LOG_SIZE);
    expect(items.every((item) => item.description === '/busy update')).toBe(true);
    expect(items.some((item) => item.id === oldest.id)).toBe(false);
    expect((await undo([oldest.id])).status).toBe(404);
  });
}

describe('@transactions with the neutral names', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ TRANSACTION_LOG_SIZE: String(LOG_SIZE) });
  });
  afterAll(async () => {
    await t.stop();
  });
  undoLog(() => t);
});

describe('@transactions with ORIGINAL_IDENTIFIERS=true', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ORIGINAL_IDENTIFIERS: 'true', TRANSACTION_LOG_SIZE: String(LOG_SIZE) });
  });
  afterAll(async () => {
    await t.stop();
  });
  undoLog(() => t);
});
