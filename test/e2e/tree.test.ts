import { ADMIN, startTestSuite, type TestSuite } from '../support/embedded-suite';

/** The shape of the tree: ordering in a folder, rename, @copy and @move, subtree deletion — and what search sees. */
describe('tree operations', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  /** `@id`s and sources are URLs under the public URL. */
  const url = (path: string) => t.suite.publicUrl + path;
  /** The status and `Location` of a request whose redirect is not followed. */
  const redirectOf = async (path: string) => {
    const response = await fetch(t.url(path), { redirect: 'manual', headers: { Authorization: ADMIN } });
    return [response.status, response.headers.get('location')];
  };

  async function create(container: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await t.request('POST', container, { body });
    expect(response.status).toBe(201);
    return json(response);
  }

  async function childIds(folder: string): Promise<string[]> {
    const body = await json(await t.request('GET', `${folder}?b_size=100`));
    return body.items.map((item: { '@id': string }) => item['@id'].split('/').pop());
  }

  async function searchPaths(query: string): Promise<string[]> {
    const body = await json(await t.request('GET', `/@search?${query}&b_size=100`));
    return body.items.map((item: { '@id': string }) => item['@id'].replace(url(''), '')).sort();
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('ordering', () => {
    beforeAll(async () => {
      await create('/', { '@type': 'Folder', id: 'ordered', title: 'Ordered' });
      for (const [id, title] of [
        ['item_1', 'Delta'],
        ['item_2', 'Alpha'],
        ['item_3', 'Charlie'],
        ['item_4', 'Bravo'],
      ]) {
        await create('/ordered', { '@type': 'Document', id, title });
      }
    });

    it('moves an item to the top, to the bottom and by a delta', async () => {
      const top = await t.request('PATCH', '/ordered', {
        body: { ordering: { obj_id: 'item_3', delta: 'top', subset_ids: ['item_1', 'item_2', 'item_3', 'item_4'] } },
      });
      expect(top.status).toBe(204);
      expect(await childIds('/ordered')).toEqual(['item_3', 'item_1', 'item_2', 'item_4']);

      await t.request('PATCH', '/ordered', { body: { ordering: { obj_id: 'item_3', delta: 'bottom' } } });
      expect(await childIds('/ordered')).toEqual(['item_1', 'item_2', 'item_4', 'item_3']);

      await t.request('PATCH', '/ordered', { body: { ordering: { obj_id: 'item_1', delta: 2 } } });
      expect(await childIds('/ordered')).toEqual(['item_2', 'item_4', 'item_1', 'item_3']);

      await t.request('PATCH', '/ordered', { body: { ordering: { obj_id: 'item_3', delta: -1 } } });
      expect(await childIds('/ordered')).toEqual(['item_2', 'item_4', 'item_3', 'item_1']);
    });

    it('moves within a subset: the other items keep their places', async () => {
      const before = await childIds('/ordered'); // item_2, item_4, item_3, item_1
      const response = await t.request('PATCH', '/ordered', {
        body: { ordering: { obj_id: 'item_1', delta: -1, subset_ids: ['item_2', 'item_3', 'item_1'] } },
      });
      expect(response.status).toBe(204);
      expect(before).toEqual(['item_2', 'item_4', 'item_3', 'item_1']);
      expect(await childIds('/ordered')).toEqual(['item_2', 'item_4', 'item_1', 'item_3']);
    });

    it('refuses a subset that is not the current order, and changes nothing', async () => {
      const before = await childIds('/ordered');
      const response = await t.request('PATCH', '/ordered', {
        body: { ordering: { obj_id: 'item_1', delta: 1, subset_ids: ['item_3', 'item_2'] } },
      });
      expect(response.status).toBe(400);
      const unknown = await t.request('PATCH', '/ordered', {
        body: { ordering: { obj_id: 'nope', delta: 'top' } },
      });
      expect(unknown.status).toBe(400);
      expect((await json(unknown)).errors).toEqual([expect.objectContaining({ field: 'ordering.obj_id' })]);
      const badDelta = await t.request('PATCH', '/ordered', { body: { ordering: { obj_id: 'item_1', delta: 'up' } } });
      expect(badDelta.status).toBe(400);
      expect(await childIds('/ordered')).toEqual(before);
    });

    it('re-sorts on a field, both ways, and search sorts by the new positions', async () => {
      const response = await t.request('PATCH', '/ordered', { body: { sort: { on: 'title', order: 'ascending' } } });
      expect(response.status).toBe(204);
      expect(await childIds('/ordered')).toEqual(['item_2', 'item_4', 'item_3', 'item_1']);
      await t.request('PATCH', '/ordered', { body: { sort: { on: 'id', order: 'descending' } } });
      expect(await childIds('/ordered')).toEqual(['item_4', 'item_3', 'item_2', 'item_1']);

      const found = await json(
        await t.request('GET', '/@search?path.query=/ordered&path.depth=1&sort_on=getObjPositionInParent'),
      );
      expect(found.items.map((i: { title: string }) => i.title)).toEqual(['Bravo', 'Charlie', 'Alpha', 'Delta']);

      const unknownField = await t.request('PATCH', '/ordered', { body: { sort: { on: 'colour' } } });
      expect(unknownField.status).toBe(400);
    });

    it('refuses ordering on something that is not a folder', async () => {
      const response = await t.request('PATCH', '/ordered/item_1', {
        body: { ordering: { obj_id: 'item_2', delta: 'top' } },
      });
      expect(response.status).toBe(400);
    });
  });

  describe('copy', () => {
    beforeAll(async () => {
      await create('/', { '@type': 'Document', id: 'front-page', title: 'Front page' });
      await create('/', { '@type': 'Folder', id: 'news', title: 'News' });
      await create('/news', { '@type': 'Document', id: 'story', title: 'Story' });
    });

    it('copies one object next to itself as copy_of_<id> (transcript copy)', async () => {
      const response = await t.request('POST', '/@copy', { body: { source: url('/front-page') } });
      expect(response.status).toBe(200);
      // As the transcript.
      expect(await json(response)).toEqual([{ source: url('/front-page'), target: url('/copy_of_front-page') }]);
      const again = await json(await t.request('POST', '/@copy', { body: { source: url('/front-page') } }));
      expect(again[0].target).toBe(url('/copy2_of_front-page'));

      const original = await json(await t.request('GET', '/front-page'));
      const copy = await json(await t.request('GET', '/copy_of_front-page'));
      expect(copy.UID).not.toBe(original.UID);
      expect(copy.title).toBe(original.title);
      expect(copy.review_state).toBe('private');
    });

    it('copies several sources, a folder with its content, into a folder; by URL, path or UID', async () => {
      const story = await json(await t.request('GET', '/news/story'));
      await create('/', { '@type': 'Folder', id: 'archive', title: 'Archive' });
      const response = await t.request('POST', '/archive/@copy', {
        body: { source: [url('/news'), '/front-page', story.UID] },
      });
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual([
        { source: url('/news'), target: url('/archive/news') },
        { source: url('/front-page'), target: url('/archive/front-page') },
        { source: url('/news/story'), target: url('/archive/story') },
      ]);
      const copiedStory = await json(await t.request('GET', '/archive/news/story'));
      expect(copiedStory.UID).not.toBe(story.UID);
      expect(copiedStory.parent['@id']).toBe(url('/archive/news'));
      // The copies were announced: search finds them at their paths.
      expect(await searchPaths('path.query=/archive')).toEqual([
        '/archive',
        '/archive/front-page',
        '/archive/news',
        '/archive/news/story',
        '/archive/story',
      ]);
    });

    it('gives a copied file its own bytes: removing the original leaves the copy whole', async () => {
      const bytes = Buffer.from('the original bytes');
      await create('/', {
        '@type': 'File',
        id: 'leaflet',
        file: { data: bytes.toString('base64'), encoding: 'base64', filename: 'l.txt', 'content-type': 'text/plain' },
      });
      const copied = await json(await t.request('POST', '/archive/@copy', { body: { source: '/leaflet' } }));
      expect(copied[0].target).toBe(url('/archive/leaflet'));
      expect((await t.request('DELETE', '/leaflet')).status).toBe(204);
      const download = await t.request('GET', '/archive/leaflet/@@download/file');
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('refuses unknown sources and non-folder targets, copying nothing', async () => {
      const missing = await t.request('POST', '/archive/@copy', { body: { source: ['/news', '/nowhere'] } });
      expect(missing.status).toBe(400);
      expect((await json(missing)).errors).toEqual([expect.objectContaining({ field: 'source.1' })]);
      expect(await childIds('/archive')).toEqual(['news', 'front-page', 'story', 'leaflet']);
      expect((await t.request('POST', '/front-page/@copy', { body: { source: '/news' } })).status).toBe(400);
      expect((await t.request('POST', '/archive/@copy', { body: { src: '/news' } })).status).toBe(400);
    });
  });

  describe('move and rename', () => {
    beforeAll(async () => {
      await create('/', { '@type': 'Folder', id: 'from', title: 'From' });
      await create('/from', { '@type': 'Folder', id: 'box', title: 'Box' });
      await create('/from/box', { '@type': 'Document', id: 'letter', title: 'Letter' });
      await create('/', { '@type': 'Folder', id: 'to', title: 'To' });
    });

    it('moves a folder with its content: same UIDs, new paths, old paths gone, search follows', async () => {
      const box = await json(await t.request('GET', '/from/box'));
      const letter = await json(await t.request('GET', '/from/box/letter'));
      const response = await t.request('POST', '/to/@move', { body: { source: url('/from/box') } });
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual([{ source: url('/from/box'), target: url('/to/box') }]);

      const movedBox = await json(await t.request('GET', '/to/box'));
      const movedLetter = await json(await t.request('GET', '/to/box/letter'));
      expect(movedBox.UID).toBe(box.UID);
      expect(movedLetter.UID).toBe(letter.UID);
      expect(movedLetter.parent['@id']).toBe(url('/to/box'));
      // The old paths answer redirects to the new ones (addendum §8).
      expect(await redirectOf('/from/box')).toEqual([302, url('/to/box')]);
      expect(await redirectOf('/from/box/letter')).toEqual([302, url('/to/box/letter')]);
      expect(await childIds('/from')).toEqual([]);
      expect(await searchPaths('path.query=/to')).toEqual(['/to', '/to/box', '/to/box/letter']);
      expect(await searchPaths('path.query=/from')).toEqual(['/from']);
    });

    it('takes copy_of_<id> when the id is taken at the target', async () => {
      await create('/from', { '@type': 'Document', id: 'box', title: 'Another box' });
      const moved = await json(await t.request('POST', '/to/@move', { body: { source: '/from/box' } }));
      expect(moved).toEqual([{ source: url('/from/box'), target: url('/to/copy_of_box') }]);
    });

    it('refuses a move into itself or below itself, and changes nothing', async () => {
      const into = await t.request('POST', '/to/box/@move', { body: { source: '/to/box' } });
      expect(into.status).toBe(400);
      await create('/to/box', { '@type': 'Folder', id: 'inner', title: 'Inner' });
      const below = await t.request('POST', '/to/box/inner/@move', { body: { source: '/to/box' } });
      expect(below.status).toBe(400);
      expect((await t.request('GET', '/to/box/inner')).status).toBe(200);
      expect((await t.request('POST', '/to/@move', { body: { source: '/' } })).status).toBe(400);
    });

    it('renames through PATCH id: the subtree follows, the old path becomes an alias', async () => {
      const response = await t.request('PATCH', '/to/box', {
        body: { id: 'crate' },
        headers: { Prefer: 'return=representation' },
      });
      expect(response.status).toBe(200);
      expect((await json(response))['@id']).toBe(url('/to/crate'));
      expect((await t.request('GET', '/to/crate/letter')).status).toBe(200);
      expect(await redirectOf('/to/box/letter')).toEqual([302, url('/to/crate/letter')]);
      expect(await searchPaths('path.query=/to/crate')).toEqual(['/to/crate', '/to/crate/inner', '/to/crate/letter']);

      const taken = await t.request('PATCH', '/to/crate', { body: { id: 'copy_of_box' } });
      expect(taken.status).toBe(409);
      const invalid = await t.request('PATCH', '/to/crate', { body: { id: '../x' } });
      expect(invalid.status).toBe(400);
      expect((await t.request('GET', '/to/crate')).status).toBe(200);
    });
  });

  it('deletes a subtree: every object inside is gone, from the tree and from search', async () => {
    await create('/', { '@type': 'Folder', id: 'doomed', title: 'Doomed' });
    await create('/doomed', { '@type': 'Folder', id: 'inner', title: 'Inner' });
    await create('/doomed/inner', { '@type': 'Document', id: 'page', title: 'Page' });
    expect(await searchPaths('path.query=/doomed')).toHaveLength(3);
    expect((await t.request('DELETE', '/doomed')).status).toBe(204);
    for (const path of ['/doomed', '/doomed/inner', '/doomed/inner/page']) {
      expect((await t.request('GET', path)).status).toBe(404);
    }
    expect(await searchPaths('path.query=/doomed')).toEqual([]);
  });
});
