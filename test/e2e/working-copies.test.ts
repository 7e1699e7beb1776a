import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';
import { blobsOnDisk } from '../support/blobs';

/**
 * `@workingcopy` through the gateway (specification: Working copy reference, Working copy, Lock; addendum §3,
 * §4, §8; transcripts workingcopy_*): checking out, checking in, cancelling, who may, and the check-out lock.
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;
/** Content dates: `YYYY-MM-DDTHH:MM:SS`, no zone (addendum §8). */
const CONTENT_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

describe('working copies', () => {
  let t: TestSuite;
  const as = (user: string) => ({ auth: basic(user) });
  const url = (path: string) => t.suite.publicUrl + path;
  let n = 0;

  /** A fresh Document in /desk (created by `by`), with its path. */
  async function document(by = 'admin', body: Record<string, unknown> = {}): Promise<string> {
    const id = `page-${++n}`;
    const response = await t.request('POST', '/desk', {
      ...(by === 'admin' ? {} : as(by)),
      body: { '@type': 'Document', id, title: `Page ${n}`, ...body },
    });
    if (response.status !== 201) throw new Error(`POST /desk as ${by}: ${response.status} ${await response.text()}`);
    return `/desk/${id}`;
  }

  async function checkOut(path: string, by = 'ed'): Promise<string> {
    const response = await t.request('POST', `${path}/@workingcopy`, as(by));
    if (response.status !== 201) throw new Error(`check-out of ${path}: ${response.status} ${await response.text()}`);
    return new URL((await json(response))['@id']).pathname;
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    for (const username of ['ed', 'eve', 'rae', 'cody']) {
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
        { id: 'cody', roles: { Contributor: true } },
      ],
    });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('check-out', () => {
    let original: string;
    let copy: string;
    let post: Response;

    beforeAll(async () => {
      original = await document();
      post = await t.request('POST', `${original}/@workingcopy`, as('ed'));
      copy = `/desk/copy_of_${original.split('/').pop()}`;
    });

    it('answers 201 with the copy’s @id, and Location naming the original (workingcopy_post)', async () => {
      expect(post.status).toBe(201);
      expect(post.headers.get('location')).toBe(url(original));
      expect(await json(post)).toEqual({ '@id': url(copy) });
    });

    it('locks the original for the caller with a lock that is not stealable and never expires', async () => {
      const body = await json(await t.request('GET', original, as('ed')));
      expect(body.lock).toEqual({
        created: expect.stringMatching(/Z$/),
        creator: 'ed',
        creator_name: 'ED Example',
        creator_url: url('/author/ed'),
        locked: true,
        name: 'iterate.lock',
        stealable: false,
        time: expect.any(Number),
        timeout: 4294967280,
        token: expect.any(String),
      });
    });

    it('shows working_copy on the original and both on the copy (workingcopy_baseline_get, workingcopy_wc_get)', async () => {
      const [base, wc] = await Promise.all([
        json(await t.request('GET', original, as('ed'))),
        json(await t.request('GET', copy, as('ed'))),
      ]);
      const reference = {
        '@id': url(copy),
        created: expect.stringMatching(CONTENT_DATE),
        creator_name: 'ED Example',
        creator_url: url('/author/ed'),
        title: base.title,
      };
      expect(base.working_copy).toEqual(reference);
      expect(Object.keys(base.working_copy)).toEqual(['@id', 'created', 'creator_name', 'creator_url', 'title']);
      expect(base.working_copy_of).toBeNull();
      expect(wc.working_copy).toEqual(reference);
      expect(wc.working_copy_of).toEqual({ '@id': url(original), title: base.title });
      // The copy: private, unlocked, with the original's content and creation date, in the same folder.
      expect(wc).toMatchObject({
        id: copy.split('/').pop(),
        review_state: 'private',
        lock: { locked: false, stealable: true },
        title: base.title,
        created: base.created,
        creators: base.creators,
        parent: { '@id': url('/desk') },
      });
      expect(wc.UID).not.toBe(base.UID);
      expect(wc.working_copy.created).toBe(wc.created);
    });

    it('GET @workingcopy answers {working_copy, working_copy_of} on either side (workingcopy_get)', async () => {
      const onOriginal = await t.request('GET', `${original}/@workingcopy`, as('eve'));
      expect(onOriginal.status).toBe(200);
      const fromOriginal = await json(onOriginal);
      expect(fromOriginal).toEqual({
        working_copy: expect.objectContaining({ '@id': url(copy), creator_name: 'ED Example' }),
        working_copy_of: null,
      });
      const fromCopy = await json(await t.request('GET', `${copy}/@workingcopy`, as('eve')));
      expect(fromCopy).toEqual({
        working_copy: fromOriginal.working_copy,
        working_copy_of: { '@id': url(original), title: expect.any(String) },
      });
    });

    it('tells no one about it who may only view the original', async () => {
      expect(await json(await t.request('GET', `${original}/@workingcopy`, as('rae')))).toEqual({
        working_copy: null,
        working_copy_of: null,
      });
      expect((await json(await t.request('GET', original, as('rae')))).working_copy).toBeNull();
      const plain = await document();
      expect(await json(await t.request('GET', `${plain}/@workingcopy`, as('ed')))).toEqual({
        working_copy: null,
        working_copy_of: null,
      });
    });

    it('a second check-out is 409, by anyone, and the copy cannot be checked out', async () => {
      for (const user of ['ed', 'eve']) {
        const again = await t.request('POST', `${original}/@workingcopy`, as(user));
        expect([user, again.status]).toEqual([user, 409]);
        expect(await json(again)).toMatchObject({ type: 'Conflict', message: expect.stringContaining(url(copy)) });
      }
      expect((await t.request('POST', `${copy}/@workingcopy`, as('ed'))).status).toBe(409);
      const listing = await json(await t.request('GET', '/desk', as('ed')));
      expect(listing.items.filter((i: any) => i['@id'].includes('copy')).length).toBe(1);
    });

    it('the copy is owned by the caller: a contributor checking out her own page may edit the copy', async () => {
      const own = await document('cody');
      const wc = await checkOut(own, 'cody');
      expect((await t.request('PATCH', wc, { ...as('cody'), body: { title: 'Cody’s draft' } })).status).toBe(204);
      expect((await json(await t.request('GET', own, as('cody')))).working_copy.creator_name).toBe('CODY Example');
    });

    it('a free copy_of id is found, and folders and the site root are refused', async () => {
      const taken = await document();
      await t.admin('POST', '/desk', {
        '@type': 'Document',
        id: `copy_of_${taken.split('/').pop()}`,
        title: 'In the way',
      });
      expect(await checkOut(taken)).toBe(`/desk/copy2_of_${taken.split('/').pop()}`);
      expect((await t.request('POST', '/desk/@workingcopy')).status).toBe(400);
      expect((await t.request('POST', '/@workingcopy')).status).toBe(400);
    });
  });

  describe('check-in', () => {
    it('carries a field and a file into the original, which keeps its id, UID, path and state; the copy goes', async () => {
      const first = png(8, 8, 1);
      const second = png(9, 7, 2);
      const created = await json(
        await t.admin('POST', '/desk', {
          '@type': 'News Item',
          id: 'news',
          title: 'Old news',
          image: upload(first, 'first.png', 'image/png'),
        }),
      );
      await t.admin('POST', '/desk/news/@workflow/publish');
      const blobsBefore = blobsOnDisk(t.dataDir);
      const wc = await checkOut('/desk/news');
      expect((await t.request('PATCH', wc, { ...as('ed'), body: { title: 'Fresh news' } })).status).toBe(204);
      const edited = await t.request('PATCH', wc, {
        ...as('ed'),
        body: { image: upload(second, 'second.png', 'image/png') },
      });
      expect(edited.status).toBe(204);
      // Nothing of the copy shows on the original before the check-in.
      expect((await json(await t.request('GET', '/desk/news', { auth: null }))).title).toBe('Old news');

      const checkIn = await t.request('PATCH', `${wc}/@workingcopy`, {
        ...as('ed'),
        body: { message: 'Fresh from the copy' },
      });
      expect(checkIn.status).toBe(204);
      expect(await checkIn.text()).toBe('');

      const after = await json(await t.request('GET', '/desk/news', as('ed')));
      expect(after).toMatchObject({
        '@id': url('/desk/news'),
        UID: created.UID,
        id: 'news',
        review_state: 'published',
        title: 'Fresh news',
        image: { filename: 'second.png', width: 9, height: 7 },
        lock: { locked: false, stealable: true },
        working_copy: null,
        working_copy_of: null,
      });
      const bytes = Buffer.from(
        await (await t.request('GET', '/desk/news/@@images/image', { auth: null })).arrayBuffer(),
      );
      expect(bytes.equals(second)).toBe(true);
      expect((await t.request('GET', wc, as('ed'))).status).toBe(404);
      // The check-in is a version of the original, with the message as its comment.
      const history = (await json(await t.request('GET', '/desk/news/@history', as('ed')))) as unknown as any[];
      expect(history[0]).toMatchObject({ type: 'versioning', comments: 'Fresh from the copy', actor: { id: 'ed' } });
      // Search sees the new title at the original, and no longer the copy.
      const found = await json(await t.request('GET', '/@search?SearchableText=fresh', as('ed')));
      expect(found.items.map((i: any) => i['@id'])).toEqual([url('/desk/news')]);
      // Blobs: the copy's went with it; the original's old one stays while its version 0 refers to it; nothing leaks.
      const blobsAfter = blobsOnDisk(t.dataDir);
      expect([...blobsBefore].every((b) => blobsAfter.has(b))).toBe(true);
      expect(blobsAfter.size).toBe(blobsBefore.size + 1);
      // The original is open to others' edits again (published: to site managers).
      expect((await t.request('PATCH', '/desk/news', { body: { description: 'd' } })).status).toBe(204);
    });

    it('works from the original too, by another editor, and with no body', async () => {
      const original = await document();
      const wc = await checkOut(original, 'ed');
      await t.request('PATCH', wc, { ...as('ed'), body: { description: 'Written in the copy' } });
      const response = await t.request('PATCH', `${original}/@workingcopy`, as('eve'));
      expect(response.status).toBe(204);
      expect(await json(await t.request('GET', original, as('eve')))).toMatchObject({
        description: 'Written in the copy',
        working_copy: null,
        lock: { locked: false },
      });
      expect((await t.request('GET', wc, as('ed'))).status).toBe(404);
    });

    it('on an object that is not checked out is 400, and a bad body is 400', async () => {
      const plain = await document();
      for (const method of ['PATCH', 'DELETE']) {
        const response = await t.request(method, `${plain}/@workingcopy`, as('ed'));
        expect([method, response.status]).toEqual([method, 400]);
      }
      const original = await document();
      await checkOut(original);
      const bad = await t.request('PATCH', `${original}/@workingcopy`, { ...as('ed'), body: { message: 3 } });
      expect(bad.status).toBe(400);
      expect((await json(await t.request('GET', original, as('ed')))).working_copy).not.toBeNull();
    });
  });

  describe('cancel', () => {
    it('by DELETE @workingcopy on the copy or on the original: the copy goes, the original is unchanged and free', async () => {
      for (const side of ['copy', 'original']) {
        const original = await document();
        const wc = await checkOut(original);
        await t.request('PATCH', wc, { ...as('ed'), body: { title: 'Never to be seen' } });
        const response = await t.request('DELETE', `${side === 'copy' ? wc : original}/@workingcopy`, as('ed'));
        expect([side, response.status]).toEqual([side, 204]);
        expect((await t.request('GET', wc, as('ed'))).status).toBe(404);
        const after = await json(await t.request('GET', original, as('eve')));
        expect(after).toMatchObject({
          title: expect.stringMatching(/^Page /),
          working_copy: null,
          lock: { locked: false },
        });
        expect((await t.request('PATCH', original, { ...as('eve'), body: { title: 'Free' } })).status).toBe(204);
        // It can be checked out again.
        expect(await checkOut(original, 'eve')).toBe(wc);
      }
    });

    it('by deleting the copy like any content', async () => {
      const original = await document();
      const wc = await checkOut(original);
      expect((await t.request('DELETE', wc, as('ed'))).status).toBe(204);
      expect((await t.request('GET', wc, as('ed'))).status).toBe(404);
      const after = await json(await t.request('GET', original, as('eve')));
      expect(after).toMatchObject({ working_copy: null, lock: { locked: false, stealable: true } });
      expect(await json(await t.request('GET', `${original}/@workingcopy`, as('ed')))).toEqual({
        working_copy: null,
        working_copy_of: null,
      });
      expect((await t.request('PATCH', original, { ...as('eve'), body: { title: 'Free' } })).status).toBe(204);
    });
  });

  describe('permissions', () => {
    it('those who may edit the original may check out: editors, its owner, managers; not readers nor anonymous', async () => {
      const original = await document();
      expect((await t.request('POST', `${original}/@workingcopy`, as('rae'))).status).toBe(403);
      expect((await t.request('POST', `${original}/@workingcopy`, { auth: null })).status).toBe(401);
      // cody may add to the folder but does not own this page.
      expect((await t.request('POST', `${original}/@workingcopy`, as('cody'))).status).toBe(403);
      expect((await json(await t.request('GET', original, as('ed')))).working_copy).toBeNull();
      expect(await checkOut(original, 'eve')).toMatch(/copy_of_/);
    });

    it('an Editor of the page alone may not check it out: the copy would be added to a folder closed to her', async () => {
      await t.admin('POST', '/@users', { username: 'lou', password: 'secret-lou' });
      const original = await document();
      await t.admin('POST', `${original}/@sharing`, { entries: [{ id: 'lou', roles: { Editor: true } }] });
      expect((await t.request('PATCH', original, { ...as('lou'), body: { title: 'Editable' } })).status).toBe(204);
      const listed = async () => ((await json(await t.request('GET', '/desk?b_size=1000'))).items as unknown[]).length;
      const before = await listed();
      expect((await t.request('POST', `${original}/@workingcopy`, as('lou'))).status).toBe(403);
      expect(await listed()).toBe(before);
      expect((await json(await t.request('GET', original))).working_copy).toBeNull();
    });

    it('an editor may check out a published page, which anonymous visitors keep seeing as it was', async () => {
      const original = await document();
      await t.admin('POST', `${original}/@workflow/publish`);
      const wc = await checkOut(original, 'ed');
      await t.request('PATCH', wc, { ...as('ed'), body: { title: 'Draft of the new version' } });
      expect((await t.request('GET', wc, { auth: null })).status).toBe(401);
      const seen = await json(await t.request('GET', original, { auth: null }));
      expect(seen).toMatchObject({ title: expect.stringMatching(/^Page /), working_copy: null });
      expect((await t.request('PATCH', `${wc}/@workingcopy`, as('ed'))).status).toBe(204);
      expect((await json(await t.request('GET', original, { auth: null }))).title).toBe('Draft of the new version');
    });

    it('checking in needs edit rights on the original; cancelling those, or the right to delete the copy', async () => {
      const original = await document();
      const wc = await checkOut(original, 'ed');
      expect((await t.request('PATCH', `${original}/@workingcopy`, as('rae'))).status).toBe(403);
      expect((await t.request('PATCH', `${original}/@workingcopy`, { auth: null })).status).toBe(401);
      expect((await t.request('DELETE', `${original}/@workingcopy`, as('rae'))).status).toBe(403);
      // cody sees neither side as an editor: the copy is private to its owner and the folder's editors.
      expect((await t.request('DELETE', `${wc}/@workingcopy`, as('cody'))).status).toBe(403);
      expect((await t.request('DELETE', wc, as('rae'))).status).toBe(403);
      expect((await json(await t.request('GET', original, as('ed')))).working_copy).not.toBeNull();
      expect((await t.request('GET', wc, as('ed'))).status).toBe(200);
    });
  });

  describe('the check-out lock', () => {
    it('others cannot edit, rename, transition or delete the original while it is checked out', async () => {
      const original = await document();
      await checkOut(original, 'ed');
      const attempts: [string, string, unknown][] = [
        ['PATCH', original, { title: 'Taken over' }],
        ['PATCH', original, { id: 'renamed' }],
        ['POST', `${original}/@workflow/submit`, undefined],
        ['DELETE', original, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const response = await t.request(method, path, { ...as('eve'), body });
        expect([method, path, response.status]).toEqual([method, path, 403]);
        expect((await json(response)).message).toMatch(/locked/);
      }
      // Taking a lock of one's own leaves the check-out's as it is; nor can an editor break it.
      expect(await json(await t.request('POST', `${original}/@lock`, as('eve')))).toMatchObject({
        name: 'iterate.lock',
        creator: 'ed',
      });
      const broken = await t.request('DELETE', `${original}/@lock`, { ...as('eve'), body: { force: true } });
      expect(broken.status).toBe(403);
      expect((await json(await t.request('GET', original, as('eve')))).title).toMatch(/^Page /);
    });

    it('a site manager may break it; the check-out itself stays until checked in or cancelled', async () => {
      const original = await document();
      const wc = await checkOut(original, 'ed');
      expect(await json(await t.request('DELETE', `${original}/@lock`, { body: { force: true } }))).toEqual({
        locked: false,
        stealable: true,
      });
      expect((await t.request('PATCH', original, { ...as('eve'), body: { title: 'Meanwhile' } })).status).toBe(204);
      expect((await json(await t.request('GET', original, as('ed')))).working_copy['@id']).toBe(url(wc));
      expect((await t.request('PATCH', `${wc}/@workingcopy`, as('ed'))).status).toBe(204);
      expect((await json(await t.request('GET', original, as('ed')))).title).toMatch(/^Page /);
    });
  });
});
