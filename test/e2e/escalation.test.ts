import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Privilege escalation through the gateway: what a caller may not gain by copying content (`@copy` takes only what
 * the caller may view) or by sharing it (`@sharing` delegates only the roles the caller may delegate, and never to
 * the caller themselves).
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('privilege escalation', () => {
  let t: TestSuite;
  const url = (path: string) => t.suite.publicUrl + path;

  async function localRoles(path: string, principal: string): Promise<Record<string, unknown>> {
    const form = await json(await t.admin('GET', `${path}/@sharing`));
    return form.entries.find((e: { id: string }) => e.id === principal)?.roles ?? {};
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    for (const [username, roles] of [
      ['carl', ['Member']],
      ['gina', ['Contributor']],
      ['owen', ['Member']],
      ['eddie', ['Member']],
      ['rita', ['Member']],
      ['sam', ['Site Administrator']],
    ] as const) {
      await t.admin('POST', '/@users', { username, password: `secret-${username}`, roles });
    }
    await t.admin('POST', '/@groups', { groupname: 'staff', title: 'Staff', users: ['owen'] });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('@copy takes only what the caller may view', () => {
    beforeAll(async () => {
      // A published folder holding a published and a private document, and a private folder below it.
      await t.admin('POST', '/', { '@type': 'Folder', id: 'handbook', title: 'Handbook' });
      await t.admin('POST', '/handbook/@workflow/publish');
      await t.admin('POST', '/handbook', { '@type': 'Document', id: 'welcome', title: 'Welcome aboard' });
      await t.admin('POST', '/handbook/welcome/@workflow/publish');
      await t.admin('POST', '/handbook', { '@type': 'Document', id: 'salaries', title: 'Salaries zebracode' });
      await t.admin('POST', '/handbook', { '@type': 'Folder', id: 'board', title: 'Board' });
      await t.admin('POST', '/handbook/board', { '@type': 'Document', id: 'minutes', title: 'Minutes' });
      await t.admin('POST', '/handbook/board/minutes/@workflow/publish');

      // A private folder the Contributor may read, with a subtree that blocks inheritance.
      await t.admin('POST', '/', { '@type': 'Folder', id: 'team', title: 'Team' });
      await t.admin('POST', '/team', { '@type': 'Document', id: 'plan', title: 'Plan' });
      await t.admin('POST', '/team', { '@type': 'Folder', id: 'secret', title: 'Secret' });
      await t.admin('POST', '/team/secret', { '@type': 'Document', id: 'codes', title: 'Codes zebracode' });
      await t.admin('POST', '/team/secret/@sharing', { entries: [], inherit: false });
      await t.admin('POST', '/team/@sharing', { entries: [{ id: 'carl', roles: { Reader: true } }] });

      // Carl's own folder, where he may add content.
      await t.admin('POST', '/', { '@type': 'Folder', id: 'carls', title: "Carl's" });
      await t.admin('POST', '/carls/@sharing', { entries: [{ id: 'carl', roles: { Contributor: true } }] });
    });

    it('copies a published folder without its private document or the folder it may not view', async () => {
      expect((await t.request('GET', '/handbook/salaries', { auth: basic('carl') })).status).toBe(403);
      const response = await t.request('POST', '/carls/@copy', {
        auth: basic('carl'),
        body: { source: url('/handbook') },
      });
      expect(response.status).toBe(200);

      const copy = await t.request('GET', '/carls/handbook', { auth: basic('carl') });
      expect(copy.status).toBe(200);
      expect((await json(copy)).items.map((i: { '@id': string }) => i['@id'])).toEqual([
        url('/carls/handbook/welcome'),
      ]);
      expect((await t.request('GET', '/carls/handbook/welcome', { auth: basic('carl') })).status).toBe(200);
      // Not in the copy, for anyone: it does not exist there.
      expect((await t.request('GET', '/carls/handbook/salaries', { auth: basic('carl') })).status).toBe(404);
      expect((await t.request('GET', '/carls/handbook/salaries')).status).toBe(404);
      expect((await t.request('GET', '/carls/handbook/board')).status).toBe(404);
      expect((await t.request('GET', '/carls/handbook/board/minutes')).status).toBe(404);
      // And Carl finds it nowhere.
      const found = await json(await t.request('GET', '/@search?SearchableText=zebracode', { auth: basic('carl') }));
      expect(found.items_total).toBe(0);
      // The answer is the reference's, and says nothing of what was left out.
      expect(await json(response)).toEqual([{ source: url('/handbook'), target: url('/carls/handbook') }]);
    });

    it('leaves out a subtree that blocks the local roles the caller holds above it', async () => {
      expect((await t.request('GET', '/team/plan', { auth: basic('carl') })).status).toBe(200);
      expect((await t.request('GET', '/team/secret', { auth: basic('carl') })).status).toBe(403);
      const response = await t.request('POST', '/carls/@copy', { auth: basic('carl'), body: { source: '/team' } });
      expect(response.status).toBe(200);
      expect((await t.request('GET', '/carls/team/plan', { auth: basic('carl') })).status).toBe(200);
      expect((await t.request('GET', '/carls/team/secret')).status).toBe(404);
      expect((await t.request('GET', '/carls/team/secret/codes')).status).toBe(404);
      const found = await json(await t.request('GET', '/@search?SearchableText=zebracode', { auth: basic('carl') }));
      expect(found.items_total).toBe(0);
      expect(await json(response)).toEqual([{ source: url('/team'), target: url('/carls/team') }]);
    });

    it('copies everything for a caller who may view everything', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'archive', title: 'Archive' });
      const response = await t.request('POST', '/archive/@copy', { body: { source: '/handbook' } });
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual([{ source: url('/handbook'), target: url('/archive/handbook') }]);
      expect((await t.request('GET', '/archive/handbook/salaries')).status).toBe(200);
      expect((await t.request('GET', '/archive/handbook/board/minutes')).status).toBe(200);
    });

    it('a global Contributor copies what that role may view', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'ginas', title: "Gina's" });
      const response = await t.request('POST', '/ginas/@copy', { auth: basic('gina'), body: { source: '/handbook' } });
      expect(response.status).toBe(200);
      // A Contributor may view private content (simple_publication_workflow): all of it comes along.
      expect((await json(response))[0]).toMatchObject({ target: url('/ginas/handbook') });
      for (const path of ['welcome', 'salaries', 'board', 'board/minutes']) {
        expect((await t.request('GET', `/ginas/handbook/${path}`)).status).toBe(200);
      }
    });
  });

  describe('@sharing delegates only what the caller may delegate, never to themselves', () => {
    beforeAll(async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'desk', title: 'Desk' });
      await t.admin('POST', '/desk/@sharing', {
        entries: [
          { id: 'owen', roles: { Contributor: true } },
          { id: 'eddie', roles: { Editor: true } },
        ],
      });
      const created = await t.request('POST', '/desk', {
        auth: basic('owen'),
        body: { '@type': 'Document', id: 'draft', title: 'Draft' },
      });
      expect(created.status).toBe(201);
    });

    it('an Owner may not grant themselves Reviewer, and so may not publish', async () => {
      const response = await t.request('POST', '/desk/draft/@sharing', {
        auth: basic('owen'),
        body: { entries: [{ id: 'owen', type: 'user', roles: { Reviewer: true } }] },
      });
      expect(response.status).toBe(403);
      expect((await json(response)).message).toMatch(/Reviewer/);
      expect(await localRoles('/desk/draft', 'owen')).not.toMatchObject({ Reviewer: true });
      expect((await t.request('POST', '/desk/draft/@workflow/publish', { auth: basic('owen') })).status).toBe(403);
      expect((await json(await t.admin('GET', '/desk/draft/@workflow'))).state.id).toBe('private');
    });

    it('an Owner may not grant roles to themselves or to a group they are in', async () => {
      for (const id of ['owen', 'staff', 'AuthenticatedUsers']) {
        const response = await t.request('POST', '/desk/draft/@sharing', {
          auth: basic('owen'),
          body: { entries: [{ id, roles: { Editor: true } }] },
        });
        expect(response.status).toBe(403);
        expect((await json(response)).message).toMatch(/yourself|you are in/);
        expect(await localRoles('/desk/draft', id)).not.toMatchObject({ Editor: true });
      }
    });

    it('an Editor may not grant AuthenticatedUsers or anyone Reviewer, and so may not publish', async () => {
      for (const id of ['AuthenticatedUsers', 'rita']) {
        const response = await t.request('POST', '/desk/@sharing', {
          auth: basic('eddie'),
          body: { entries: [{ id, roles: { Reviewer: true } }] },
        });
        expect(response.status).toBe(403);
        expect(await localRoles('/desk', id)).not.toMatchObject({ Reviewer: true });
      }
      expect((await t.request('POST', '/desk/draft/@workflow/publish', { auth: basic('eddie') })).status).toBe(403);
    });

    it('refuses the whole request when one entry is refused: nothing changes', async () => {
      const response = await t.request('POST', '/desk/@sharing', {
        auth: basic('eddie'),
        body: {
          entries: [
            { id: 'rita', roles: { Reader: true } },
            { id: 'eddie', roles: { Reviewer: true } },
          ],
        },
      });
      expect(response.status).toBe(403);
      expect(await localRoles('/desk', 'rita')).not.toMatchObject({ Reader: true });
    });

    it('an Editor may grant another user Editor; unchanged roles in the form are not a grant', async () => {
      const response = await t.request('POST', '/desk/@sharing', {
        auth: basic('eddie'),
        body: {
          entries: [
            { id: 'rita', roles: { Contributor: false, Editor: true, Reader: false, Reviewer: false } },
            { id: 'AuthenticatedUsers', roles: { Contributor: false, Editor: false, Reader: false, Reviewer: false } },
          ],
        },
      });
      expect(response.status).toBe(204);
      expect(await localRoles('/desk', 'rita')).toMatchObject({ Editor: true, Reviewer: false });
      const owner = await t.request('POST', '/desk/draft/@sharing', {
        auth: basic('owen'),
        body: { entries: [{ id: 'rita', roles: { Reader: true } }] },
      });
      expect(owner.status).toBe(204);
      expect(await localRoles('/desk/draft', 'rita')).toMatchObject({ Reader: true });
    });

    it('a Site Administrator may grant Reviewer, to others and to themselves', async () => {
      const response = await t.request('POST', '/desk/@sharing', {
        auth: basic('sam'),
        body: {
          entries: [
            { id: 'rita', roles: { Reviewer: true } },
            { id: 'sam', roles: { Reviewer: true } },
          ],
        },
      });
      expect(response.status).toBe(204);
      expect(await localRoles('/desk', 'rita')).toMatchObject({ Reviewer: true });
      // Rita now reviews there; revoking Reviewer needs the right to delegate it too.
      const revoke = await t.request('POST', '/desk/@sharing', {
        auth: basic('eddie'),
        body: { entries: [{ id: 'rita', roles: { Reviewer: false } }] },
      });
      expect(revoke.status).toBe(403);
      expect((await t.request('POST', '/desk/draft/@workflow/publish', { auth: basic('rita') })).status).toBe(200);
    });

    it('an Owner may not switch inheritance back on to regain roles held above', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'vault', title: 'Vault' });
      await t.admin('POST', '/vault/@sharing', {
        entries: [{ id: 'owen', roles: { Contributor: true, Reviewer: true } }],
      });
      const owen = { auth: basic('owen') };
      expect(
        (await t.request('POST', '/vault', { ...owen, body: { '@type': 'Folder', id: 'box', title: 'Box' } })).status,
      ).toBe(201);
      await t.admin('POST', '/vault/box/@sharing', { entries: [], inherit: false });
      expect((await t.request('POST', '/vault/box/@workflow/publish', owen)).status).toBe(403);

      const response = await t.request('POST', '/vault/box/@sharing', {
        ...owen,
        body: { entries: [], inherit: true },
      });
      expect(response.status).toBe(403);
      expect((await json(response)).message).toMatch(/Review portal content/);
      expect((await json(await t.admin('GET', '/vault/box/@sharing'))).inherit).toBe(false);
      expect((await t.request('POST', '/vault/box/@workflow/publish', owen)).status).toBe(403);
      // Switching it off again, or on where it gains nothing, is allowed.
      expect((await t.request('POST', '/desk/draft/@sharing', { ...owen, body: { inherit: false } })).status).toBe(204);
      expect((await t.request('POST', '/desk/draft/@sharing', { ...owen, body: { inherit: true } })).status).toBe(204);
    });

    it("giving up one's own role gains nothing: allowed", async () => {
      const response = await t.request('POST', '/desk/@sharing', {
        auth: basic('eddie'),
        body: { entries: [{ id: 'eddie', roles: { Editor: false } }] },
      });
      expect(response.status).toBe(204);
      expect(await localRoles('/desk', 'eddie')).not.toMatchObject({ Editor: true });
    });
  });

  describe('@workflow takes a transition only on what the caller may view', () => {
    it('a Reviewer publishing a pending folder with include_children leaves the private items in it alone', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'inbox', title: 'Inbox' });
      await t.admin('POST', '/inbox', { '@type': 'Document', id: 'ready', title: 'Ready' });
      await t.admin('POST', '/inbox', { '@type': 'Document', id: 'secret', title: 'Secret' });
      await t.admin('POST', '/inbox/@workflow/submit');
      await t.admin('POST', '/inbox/ready/@workflow/submit');
      await t.admin('POST', '/@users', { username: 'vera', password: 'secret-vera', roles: ['Reviewer'] });
      const vera = { auth: basic('vera') };
      expect((await t.request('GET', '/inbox/secret', vera)).status).toBe(403);

      const published = await t.request('POST', '/inbox/@workflow/publish', {
        ...vera,
        body: { include_children: true },
      });
      expect(published.status).toBe(200);
      const state = async (path: string) => (await json(await t.admin('GET', `${path}/@workflow`))).state.id as string;
      expect(await state('/inbox')).toBe('published');
      expect(await state('/inbox/ready')).toBe('published');
      expect(await state('/inbox/secret')).toBe('private');
      expect((await t.request('GET', '/inbox/secret', vera)).status).toBe(403);
    });
  });
});
