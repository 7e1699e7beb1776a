import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';

/**
 * What an editor meets in a day of work in Volto (issue 26): each block is one defect the original platform does
 * not have, checked through the gateway as Volto calls it.
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe("an editor's day", () => {
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    for (const username of ['colleague', 'author']) {
      await t.admin('POST', '/@users', { username, password: `secret-${username}`, fullname: username });
    }
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('published content (addendum §8: simple_publication_workflow)', () => {
    it('a colleague given "Can edit" through Sharing locks and edits a published page, and sees it may', async () => {
      await t.admin('POST', '/', { '@type': 'Document', id: 'news-page', title: 'News page' });
      await t.admin('POST', '/news-page/@workflow/publish');
      const colleague = { auth: basic('colleague') };
      expect((await t.request('PATCH', '/news-page', { ...colleague, body: { title: 'Not yet' } })).status).toBe(403);

      await t.admin('POST', '/news-page/@sharing', {
        entries: [{ id: 'colleague', type: 'user', roles: { Editor: true } }],
      });
      const actions = await json(await t.request('GET', '/news-page/@actions', colleague));
      expect(actions.object.map((a: { id: string }) => a.id)).toContain('edit');
      const lock = await t.request('POST', '/news-page/@lock', colleague);
      expect(lock.status).toBe(200);
      const token = (await json(lock)).token as string;
      const edited = await t.request('PATCH', '/news-page', {
        ...colleague,
        headers: { 'Lock-Token': token },
        body: { title: 'Edited by a colleague' },
      });
      expect(edited.status).toBe(204);
      expect((await t.request('DELETE', '/news-page/@lock', colleague)).status).toBe(200);
      const page = await json(await t.request('GET', '/news-page', { auth: null }));
      expect(page).toMatchObject({ title: 'Edited by a colleague', review_state: 'published' });
    });

    it("the page's schema links its Users and Keywords vocabularies to the page, where the colleague reads them", async () => {
      // plone.restapi links a schema's vocabularies to where the schema was asked: at the page, where the colleague holds
      // Modify, they answer (a client that follows the links gets them; Volto 18 asks them by name at the site root,
      // where the colleague holds nothing and gets 403, as from the original).
      await t.admin('POST', '/', { '@type': 'Document', id: 'shared-page', title: 'Shared page' });
      await t.admin('POST', '/shared-page/@sharing', {
        entries: [{ id: 'colleague', type: 'user', roles: { Editor: true } }],
      });
      const colleague = { auth: basic('colleague') };
      const schema = await json(await t.request('GET', '/shared-page/@types/Document', colleague));
      const pathOf = (property: { widgetOptions: { vocabulary: { '@id': string } } }) =>
        new URL(property.widgetOptions.vocabulary['@id']).pathname;
      const keywords = pathOf(schema.properties.subjects);
      expect(keywords).toBe('/shared-page/@vocabularies/cms.app.vocabularies.Keywords');
      expect((await t.request('GET', keywords, colleague)).status).toBe(200);
      const creators = pathOf(schema.properties.creators);
      expect(creators).toBe('/shared-page/@vocabularies/cms.app.vocabularies.Users');
      expect((await t.request('GET', creators, colleague)).status).toBe(200);
      expect((await t.request('GET', '/@vocabularies/cms.app.vocabularies.Keywords', colleague)).status).toBe(403);
    });

    it('the owner keeps editing what was published, and a Reader given nothing more still cannot', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'desk', title: 'Desk' });
      await t.admin('POST', '/desk/@sharing', {
        entries: [
          { id: 'author', type: 'user', roles: { Contributor: true } },
          { id: 'colleague', type: 'user', roles: { Reader: true } },
        ],
      });
      const created = await t.request('POST', '/desk', {
        auth: basic('author'),
        body: { '@type': 'Document', id: 'mine', title: 'Mine' },
      });
      expect(created.status).toBe(201);
      await t.admin('POST', '/desk/mine/@workflow/publish');
      expect(
        (await t.request('PATCH', '/desk/mine', { auth: basic('author'), body: { description: 'still mine' } })).status,
      ).toBe(204);
      expect(
        (await t.request('PATCH', '/desk/mine', { auth: basic('colleague'), body: { description: 'not mine' } }))
          .status,
      ).toBe(403);
      expect((await json(await t.request('GET', '/desk/mine'))).description).toBe('still mine');
    });
  });

  describe('type schemas', () => {
    it('the blocks fields carry the json widget that the history diff draws them with', async () => {
      const schema = await json(await t.request('GET', '/@types/Document'));
      expect(schema.properties.blocks).toMatchObject({ factory: 'JSONField', type: 'dict', widget: 'json' });
      expect(schema.properties.blocks_layout).toMatchObject({ factory: 'JSONField', type: 'dict', widget: 'json' });
    });

    it('every fieldset has a description, the first and one added through @types too', async () => {
      await t.admin('POST', '/@types/News%20Item', { factory: 'fieldset', title: 'Extras' });
      for (const type of ['Document', 'News%20Item', 'Folder']) {
        const schema = await json(await t.request('GET', `/@types/${type}`));
        expect(schema.fieldsets.length).toBeGreaterThan(1);
        for (const fieldset of schema.fieldsets) expect(typeof fieldset.description).toBe('string');
      }
    });
  });

  describe('Site Setup', () => {
    it('@system has the REST API version Volto reads to open the User Group Membership panel', async () => {
      const system = await json(await t.request('GET', '/@system'));
      // Volto: parseFloat(plone_restapi_version.slice(0, 4)) >= 8.24
      expect(parseFloat(String(system.plone_restapi_version).slice(0, 4))).toBeGreaterThanOrEqual(8.24);
    });

    it('lists Discussion, and every listed panel opens as a form (Volto hides only markup and content-rules)', async () => {
      const panels = (await json(await t.request('GET', '/@controlpanels'))) as { '@id': string; title: string }[];
      const ids = panels.map((p) => p['@id'].split('/').pop()!);
      expect(ids).toContain('discussion');
      for (const id of ids.filter((i) => !['markup', 'content-rules'].includes(i))) {
        const response = await t.request('GET', `/@controlpanels/${id}`);
        expect([id, response.status]).toEqual([id, 200]);
        const panel = await json(response);
        expect(typeof panel.title).toBe('string');
        expect(panel.data).toEqual(expect.any(Object));
        const fields = panel.schema.fieldsets.flatMap((f: { fields: string[] }) => f.fields);
        expect(fields.length).toBeGreaterThan(0);
        for (const field of fields) expect([id, field, panel.schema.properties[field]?.type]).not.toContain(undefined);
      }
    });

    it('the content types panel saved through that form renames types; an unknown type is refused whole', async () => {
      const panel = await json(await t.request('GET', '/@controlpanels/cms-types'));
      expect(panel.data).toMatchObject({ Document: 'Page', Folder: 'Folder' });
      expect(panel.items.map((i: { id: string }) => i.id)).toEqual(Object.keys(panel.data));

      const refused = await t.request('PATCH', '/@controlpanels/cms-types', {
        body: { ...panel.data, Document: 'Article', NoSuchType: 'x' },
      });
      expect(refused.status).toBe(400);
      expect((await json(await t.request('GET', '/@types/Document'))).title).toBe('Page');

      const saved = await t.request('PATCH', '/@controlpanels/cms-types', {
        body: { ...panel.data, Document: 'Article' },
      });
      expect(saved.status).toBe(204);
      expect((await json(await t.request('GET', '/@types/Document'))).title).toBe('Article');
      await t.admin('PATCH', '/@controlpanels/cms-types', { Document: 'Page' });
    });
  });

  describe('the listing block', () => {
    it('offers every addable type as a Type criterion, not only the types in use', async () => {
      const { indexes } = await json(await t.request('GET', '/@querystring'));
      const offered = Object.keys(indexes.portal_type.values);
      for (const type of ['Collection', 'Event', 'File', 'Image', 'Link', 'News Item', 'Document', 'Folder'])
        expect(offered).toContain(type);
      expect(offered).not.toContain('Site Root');
      const terms = await json(await t.request('GET', '/@vocabularies/plone.app.vocabularies.ReallyUserFriendlyTypes'));
      expect(terms.items.map((term: { token: string }) => term.token)).toEqual(expect.arrayContaining(offered));
    });
  });

  describe('the API behaviours clients rely on', () => {
    it('reorders a folder within subset_ids, top and bottom too: the items outside keep their places', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'stack', title: 'Stack' });
      for (const id of ['a', 'b', 'c', 'd']) await t.admin('POST', '/stack', { '@type': 'Document', id, title: id });
      const ids = async () =>
        (await json(await t.request('GET', '/stack'))).items.map((i: { '@id': string }) => i['@id'].split('/').pop());
      await t.admin('PATCH', '/stack', { ordering: { obj_id: 'd', delta: 'top', subset_ids: ['b', 'c', 'd'] } });
      expect(await ids()).toEqual(['a', 'd', 'b', 'c']);
      await t.admin('PATCH', '/stack', { ordering: { obj_id: 'a', delta: 'bottom', subset_ids: ['a', 'b'] } });
      expect(await ids()).toEqual(['b', 'd', 'a', 'c']);
      await t.admin('PATCH', '/stack', { ordering: { obj_id: 'c', delta: -1, subset_ids: ['d', 'c'] } });
      expect(await ids()).toEqual(['b', 'c', 'a', 'd']);
    });

    it('@actions answers only the categories asked for', async () => {
      const two = await json(await t.request('GET', '/@actions?categories=user&categories:list=object'));
      expect(Object.keys(two).sort()).toEqual(['object', 'user']);
      expect(Object.keys(await json(await t.request('GET', '/@actions?categories=nope')))).toEqual([]);
      expect(Object.keys(await json(await t.request('GET', '/@actions')))).toContain('portal_tabs');
    });

    it("@site reports the site root's own title", async () => {
      await t.admin('PATCH', '/', { title: 'Our intranet' });
      expect((await json(await t.request('GET', '/@site')))['cms.site_title']).toBe('Our intranet');
    });

    it('takes a UID at creation from site managers only', async () => {
      const uid = '0123456789abcdef0123456789abcdef';
      const byAuthor = await t.request('POST', '/desk', {
        auth: basic('author'),
        body: { '@type': 'Document', id: 'with-uid', title: 'With UID', UID: uid },
      });
      expect(byAuthor.status).toBe(403);
      expect((await t.request('GET', '/desk/with-uid')).status).toBe(404);
      const invalid = await t.request('POST', '/desk', {
        body: { '@type': 'Document', title: 'Bad', UID: 'x'.repeat(500) },
      });
      expect(invalid.status).toBe(400);
      expect(JSON.stringify(await json(invalid))).not.toContain('x'.repeat(100));

      const created = await t.request('POST', '/desk', {
        body: { '@type': 'Document', id: 'with-uid', title: 'With UID', UID: uid },
      });
      expect(created.status).toBe(201);
      expect((await json(created)).UID).toBe(uid);
      expect((await json(await t.request('GET', '/desk/with-uid'))).UID).toBe(uid);
      const again = await t.request('POST', '/desk', { body: { '@type': 'Document', title: 'Twin', UID: uid } });
      expect(again.status).toBe(409);
    });

    it('a folder leaves its items out with include_items=false, and serializes them whole with fullobjects', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'shelf', title: 'Shelf' });
      await t.admin('POST', '/shelf', { '@type': 'Folder', id: 'box', title: 'Box' });
      await t.admin('POST', '/shelf/box', { '@type': 'Document', id: 'note', title: 'Note' });
      await t.admin('POST', '/shelf', { '@type': 'Document', id: 'card', title: 'Card', description: 'A card' });

      const without = await json(await t.request('GET', '/shelf?include_items=false'));
      expect(without.title).toBe('Shelf');
      expect(without).not.toHaveProperty('items');
      expect(without).not.toHaveProperty('items_total');

      const full = await json(await t.request('GET', '/shelf?fullobjects=1'));
      expect(full.items_total).toBe(2);
      const [box, card] = full.items;
      expect(card).toMatchObject({
        '@id': `${t.suite.publicUrl}/shelf/card`,
        UID: expect.any(String),
        created: expect.any(String),
      });
      expect(card.description).toBe('A card');
      // The items' own items are summaries: no deeper serialization.
      expect(box.items).toEqual([
        expect.objectContaining({ '@id': `${t.suite.publicUrl}/shelf/box/note`, title: 'Note' }),
      ]);
      expect(box.items[0]).not.toHaveProperty('UID');
      const summaries = await json(await t.request('GET', '/shelf'));
      expect(summaries.items[1]).not.toHaveProperty('UID');
    });

    it('a replaced image gets a new download URL; the old one no longer answers', async () => {
      await t.admin('POST', '/', {
        '@type': 'Image',
        id: 'photo',
        title: 'Photo',
        image: upload(png(40, 30), 'a.png', 'image/png'),
      });
      const first = (await json(await t.request('GET', '/photo'))).image.download as string;
      const served = await t.request('GET', new URL(first).pathname);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');

      await t.admin('PATCH', '/photo', { image: upload(png(40, 30, 7), 'b.png', 'image/png') });
      const second = (await json(await t.request('GET', '/photo'))).image.download as string;
      expect(second).not.toBe(first);
      expect((await t.request('GET', new URL(second).pathname)).status).toBe(200);
      expect((await t.request('GET', new URL(first).pathname)).status).toBe(404);
    });
  });

  describe('conditional requests (addendum §8)', () => {
    it('If-Match on a write: 412 and nothing changed once the object changed, the write when it still matches', async () => {
      await t.admin('POST', '/', { '@type': 'Document', id: 'guarded', title: 'Guarded' });
      const etag = (await t.request('GET', '/guarded')).headers.get('etag') as string;
      expect(etag).toBeTruthy();
      const first = await t.request('PATCH', '/guarded', { headers: { 'If-Match': etag }, body: { title: 'First' } });
      expect(first.status).toBe(204);
      const stale = await t.request('PATCH', '/guarded', { headers: { 'If-Match': etag }, body: { title: 'Second' } });
      expect(stale.status).toBe(412);
      expect((await json(stale)).type).toBe('PreconditionFailed');
      expect((await json(await t.request('GET', '/guarded'))).title).toBe('First');
      expect((await t.request('DELETE', '/guarded', { headers: { 'If-Match': `W/${etag}` } })).status).toBe(412);
      const fresh = (await t.request('GET', '/guarded')).headers.get('etag') as string;
      expect(
        (
          await t.request('PATCH', '/guarded', {
            headers: { 'If-Match': `"other", ${fresh}` },
            body: { title: 'Third' },
          })
        ).status,
      ).toBe(204);
      expect(
        (await t.request('PATCH', '/guarded', { headers: { 'If-Match': '*' }, body: { title: 'Any' } })).status,
      ).toBe(204);
    });

    it('If-Modified-Since never answers 304 once the items shown or the state changed', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'board', title: 'Board' });
      await t.admin('POST', '/board/@workflow/publish');
      const read = await t.request('GET', '/board', { auth: null });
      const lastModified = read.headers.get('last-modified') as string;
      const since = { auth: null, headers: { 'If-Modified-Since': lastModified } };
      expect((await t.request('GET', '/board', since)).status).toBe(304);

      await t.admin('POST', '/board', { '@type': 'Document', id: 'notice', title: 'Notice' });
      await t.admin('POST', '/board/notice/@workflow/publish');
      const changed = await t.request('GET', '/board', since);
      expect(changed.status).toBe(200);
      expect((await json(changed)).items_total).toBe(1);
      const later = { auth: null, headers: { 'If-Modified-Since': changed.headers.get('last-modified') as string } };
      expect((await t.request('GET', '/board', later)).status).toBe(304);

      await t.admin('POST', '/board/@workflow/retract');
      await t.admin('POST', '/board/@sharing', {
        entries: [{ id: 'AuthenticatedUsers', type: 'group', roles: { Reader: true } }],
      });
      const asColleague = { auth: basic('colleague') };
      const before = await t.request('GET', '/board', asColleague);
      expect(before.status).toBe(200);
      await t.admin('POST', '/board/@workflow/publish');
      const after = await t.request('GET', '/board', {
        ...asColleague,
        headers: { 'If-Modified-Since': before.headers.get('last-modified') as string },
      });
      expect(after.status).toBe(200);
      expect((await json(after)).review_state).toBe('published');
    });
  });

  describe('working copies', () => {
    it('a checked-out original refuses edits, its holder’s too, so the check-in cannot silently revert them', async () => {
      await t.admin('POST', '/', { '@type': 'Document', id: 'policy', title: 'Policy', description: 'v1' });
      const checkedOut = await t.request('POST', '/policy/@workingcopy');
      expect(checkedOut.status).toBe(201);
      const copy = new URL((await json(checkedOut))['@id']).pathname;

      const edit = await t.request('PATCH', '/policy', { body: { description: 'edited on the original' } });
      expect(edit.status).toBe(409);
      expect((await json(await t.request('GET', '/policy'))).description).toBe('v1');

      expect((await t.request('PATCH', copy, { body: { title: 'Policy 2' } })).status).toBe(204);
      expect((await t.request('PATCH', '/policy/@workingcopy')).status).toBe(204);
      expect(await json(await t.request('GET', '/policy'))).toMatchObject({ title: 'Policy 2', description: 'v1' });
      // Checked in: the original takes edits again.
      expect((await t.request('PATCH', '/policy', { body: { description: 'v2' } })).status).toBe(204);
    });
  });
});

describe("an editor's day on a multilingual site with the original identifiers", () => {
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500', ORIGINAL_IDENTIFIERS: 'true' });
    await t.admin('PATCH', '/@controlpanels/language', { available_languages: ['en', 'de'] });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('breadcrumbs below a language root start at that navigation root', async () => {
    await t.admin('POST', '/de', { '@type': 'Folder', id: 'ordner', title: 'Ordner' });
    await t.admin('POST', '/de/ordner', { '@type': 'Document', id: 'seite', title: 'Seite' });
    const base = t.suite.publicUrl;
    expect(await json(await t.request('GET', '/de/ordner/seite/@breadcrumbs'))).toEqual({
      '@id': `${base}/de/ordner/seite/@breadcrumbs`,
      items: [
        { '@id': `${base}/de/ordner`, title: 'Ordner' },
        { '@id': `${base}/de/ordner/seite`, title: 'Seite' },
      ],
      root: `${base}/de`,
    });
    expect((await json(await t.request('GET', '/de/@breadcrumbs'))).items).toEqual([]);
  });

  it("the Editing panel's help names the original multilingual package", async () => {
    const panel = await json(await t.request('GET', '/@controlpanels/editing'));
    const help = panel.schema.properties.subjects_of_navigation_root.description as string;
    expect(help).toContain('plone.app.multilingual');
    expect(help).not.toContain('cms.app');
  });
});
