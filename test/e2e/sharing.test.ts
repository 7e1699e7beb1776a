import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** Local roles granted through @sharing, inherited down the tree, and what they let a user do. */
describe('@sharing', () => {
  let t: TestSuite;
  const ann = basic('ann', 'secret-ann');
  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    for (const username of ['ann', 'bob']) {
      const created = await t.request('POST', '/@users', {
        body: { username, password: `secret-${username}`, fullname: username.toUpperCase() },
      });
      expect(created.status).toBe(201);
    }
    await t.request('POST', '/', { body: { '@type': 'Folder', title: 'Team' } });
    await t.request('POST', '/team', { body: { '@type': 'Folder', title: 'Inner' } });
    await t.request('POST', '/team/inner', { body: { '@type': 'Document', title: 'Plan' } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists the delegable roles and the logged-in users group', async () => {
    const response = await t.request('GET', '/team/@sharing');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.available_roles).toEqual([
      { id: 'Contributor', title: 'Can add' },
      { id: 'Editor', title: 'Can edit' },
      { id: 'Reader', title: 'Can view' },
      { id: 'Reviewer', title: 'Can review' },
    ]);
    expect(body.inherit).toBe(true);
    expect(body.entries).toContainEqual({
      disabled: false,
      id: 'AuthenticatedUsers',
      login: null,
      roles: { Contributor: false, Editor: false, Reader: false, Reviewer: false },
      title: 'Logged-in users',
      type: 'group',
    });
  });

  it('a Member sees nothing private until given Reader, then sees the folder and everything below', async () => {
    expect((await t.request('GET', '/team/inner/plan', { auth: ann })).status).toBe(403);
    expect((await json(await t.request('GET', '/@search?SearchableText=plan', { auth: ann }))).items_total).toBe(0);

    const granted = await t.request('POST', '/team/@sharing', {
      body: { entries: [{ id: 'ann', type: 'user', roles: { Reader: true } }] },
    });
    expect(granted.status).toBe(204);

    expect((await t.request('GET', '/team/inner/plan', { auth: ann })).status).toBe(200);
    expect((await json(await t.request('GET', '/team/inner', { auth: ann }))).items_total).toBe(1);
    expect((await json(await t.request('GET', '/@search?SearchableText=plan', { auth: ann }))).items_total).toBe(1);
    // Reader does not allow editing.
    expect((await t.request('PATCH', '/team/inner/plan', { auth: ann, body: { title: 'Mine' } })).status).toBe(403);

    const below = await json(await t.request('GET', '/team/inner/@sharing'));
    expect(below.entries.find((e: { id: string }) => e.id === 'ann')).toMatchObject({
      roles: { Reader: 'acquired' },
      title: 'ANN',
      type: 'user',
    });
  });

  it('Editor granted locally lets the user edit; blocking inheritance below takes it away there', async () => {
    await t.request('POST', '/team/@sharing', { body: { entries: [{ id: 'ann', roles: { Editor: true } }] } });
    expect(
      (await t.request('PATCH', '/team/inner/plan', { auth: ann, body: { description: 'edited by ann' } })).status,
    ).toBe(204);

    expect((await t.request('POST', '/team/inner/@sharing', { body: { entries: [], inherit: false } })).status).toBe(
      204,
    );
    expect((await json(await t.request('GET', '/team/inner/@sharing'))).inherit).toBe(false);
    expect((await t.request('GET', '/team/inner/plan', { auth: ann })).status).toBe(403);
    expect((await json(await t.request('GET', '/@search?SearchableText=plan', { auth: ann }))).items_total).toBe(0);
    expect((await t.request('GET', '/team', { auth: ann })).status).toBe(200);

    await t.request('POST', '/team/inner/@sharing', { body: { entries: [], inherit: true } });
    expect((await t.request('GET', '/team/inner/plan', { auth: ann })).status).toBe(200);
  });

  it('refuses roles that cannot be shared, unknown principals and callers without the permission, changing nothing', async () => {
    const badRole = await t.request('POST', '/team/@sharing', {
      body: { entries: [{ id: 'bob', roles: { Manager: true } }] },
    });
    expect(badRole.status).toBe(400);
    const unknown = await t.request('POST', '/team/@sharing', {
      body: { entries: [{ id: 'nobody-here', roles: { Reader: true } }] },
    });
    expect(unknown.status).toBe(400);
    const bob = basic('bob', 'secret-bob');
    expect(
      (
        await t.request('POST', '/team/@sharing', {
          auth: bob,
          body: { entries: [{ id: 'bob', roles: { Editor: true } }] },
        })
      ).status,
    ).toBe(403);
    expect((await t.request('GET', '/team/@sharing', { auth: null })).status).toBe(401);
    const entries = (await json(await t.request('GET', '/team/@sharing'))).entries as { id: string }[];
    expect(entries.map((e) => e.id)).not.toContain('bob');
  });

  it('finds principals to add with ?search=', async () => {
    const body = await json(await t.request('GET', '/team/@sharing?search=bo'));
    expect(body.entries).toContainEqual(
      expect.objectContaining({
        id: 'bob',
        type: 'user',
        roles: { Contributor: false, Editor: false, Reader: false, Reviewer: false },
      }),
    );
  });

  it('a removed user keeps no local role anywhere', async () => {
    expect((await t.request('DELETE', '/@users/ann')).status).toBe(204);
    const entries = (await json(await t.request('GET', '/team/@sharing'))).entries as { id: string }[];
    expect(entries.map((e) => e.id)).not.toContain('ann');
    // A new account with the same name does not inherit the old one's grants.
    await t.request('POST', '/@users', { body: { username: 'ann', password: 'secret-ann' } });
    expect((await t.request('GET', '/team/inner/plan', { auth: ann })).status).toBe(403);
  });
});
