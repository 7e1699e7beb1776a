import { callUnary, createClient, protos, type IdentityServiceClient, type Principal__Output } from '@cms/shared';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

interface Summary {
  id: string;
  title: string;
  type: string;
  roles: string[];
}

/** `@groups`, `@roles`, `@principals` and the principal look-up RPCs, in embedded mode. */
describe('groups, roles and principals through the gateway', () => {
  let t: TestSuite;
  let base: string;
  let identity: IdentityServiceClient;
  const json = async (response: Response) => (await response.json()) as any;

  async function expectError(response: Response, status: number, type: string) {
    expect(response.status).toBe(status);
    const body = await json(response);
    expect(body).toMatchObject({ type, message: expect.any(String) });
    return body;
  }

  async function createUser(username: string, extra: Record<string, unknown> = {}) {
    const response = await t.request('POST', '/@users', {
      body: { username, password: `${username}-secret`, ...extra },
    });
    expect(response.status).toBe(201);
  }
  const asUser = (username: string) => basic(username, `${username}-secret`);

  const rpc = <R>(invoke: Parameters<typeof callUnary<R>>[0]) =>
    callUnary<R>(invoke, { requestId: 'test', timeoutMs: 5000 });
  const getPrincipal = (id: string) => rpc<Principal__Output>((md, o, cb) => identity.GetPrincipal({ id }, md, o, cb));
  const search = (text: string, limit = 0) =>
    rpc<{ items: Summary[] }>((md, o, cb) => identity.SearchPrincipals({ text, limit }, md, o, cb)).then(
      (r) => r.items,
    );
  const describeIds = (ids: string[]) =>
    rpc<{ items: Summary[] }>((md, o, cb) => identity.DescribePrincipals({ ids }, md, o, cb)).then((r) => r.items);

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '200' });
    base = t.suite.publicUrl;
    identity = createClient(protos().identity.IdentityService, t.suite.addresses.identity, 64 * 1024 * 1024);
    await createUser('noam', { fullname: 'Noam Chomsky' });
    await createUser('test_user_1_', { fullname: 'Test User' });
    await createUser('member');
    await createUser('siteadmin');
  });
  afterAll(async () => {
    identity.close();
    await t.stop();
  });

  describe('@groups', () => {
    it('lists the built-in groups with members, the virtual group last', async () => {
      const response = await t.request('GET', '/@groups');
      expect(response.status).toBe(200);
      const groups = await json(response);
      expect(groups.map((g: { id: string }) => g.id)).toEqual([
        'Administrators',
        'Reviewers',
        'Site Administrators',
        'AuthenticatedUsers',
      ]);
      expect(groups[0]).toEqual({
        '@id': `${base}/@groups/Administrators`,
        description: '',
        email: '',
        groupname: 'Administrators',
        id: 'Administrators',
        members: { '@id': `${base}/@groups`, items: [], items_total: 0 },
        roles: ['Manager', 'Authenticated'],
        title: 'Administrators',
      });
      expect(groups[3]).toEqual({
        '@id': `${base}/@groups/AuthenticatedUsers`,
        description: 'Automatic Group Provider',
        email: '',
        groupname: 'AuthenticatedUsers',
        id: 'AuthenticatedUsers',
        members: { '@id': `${base}/@groups`, items: [], items_total: 0 },
        roles: [],
        title: 'Authenticated Users (Virtual Group)',
      });
    });

    it('creates a group: 201, Location, members including member groups', async () => {
      const response = await t.request('POST', '/@groups', {
        body: {
          description: 'The CMS Framework Team',
          email: 'fwt@example.org',
          groupname: 'fwt',
          groups: ['Administrators'],
          roles: ['Manager'],
          title: 'Framework Team',
          users: ['admin', 'test_user_1_'],
        },
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(`${base}/@groups/fwt`);
      expect(await json(response)).toEqual({
        '@id': `${base}/@groups/fwt`,
        description: 'The CMS Framework Team',
        email: 'fwt@example.org',
        groupname: 'fwt',
        id: 'fwt',
        members: { '@id': `${base}/@groups`, items: ['Administrators', 'admin', 'test_user_1_'], items_total: 3 },
        roles: ['Manager', 'Authenticated'],
        title: 'Framework Team',
      });
      expect((await t.request('DELETE', '/@groups/fwt')).status).toBe(204);
    });

    it('refuses a duplicate group or an id taken by a user (409), bad bodies (400), and changes nothing', async () => {
      const created = await t.request('POST', '/@groups', {
        body: { groupname: 'cmsteam', title: 'CMS Team', description: 'We are CMS', email: 'cmsteam@example.org' },
      });
      expect(created.status).toBe(201);
      await expectError(await t.request('POST', '/@groups', { body: { groupname: 'cmsteam' } }), 409, 'Conflict');
      await expectError(await t.request('POST', '/@groups', { body: { groupname: 'noam' } }), 409, 'Conflict');
      await expectError(
        await t.request('POST', '/@groups', { body: { groupname: 'AuthenticatedUsers' } }),
        409,
        'Conflict',
      );
      const missing = await expectError(
        await t.request('POST', '/@groups', { body: { title: 'No id' } }),
        400,
        'BadRequest',
      );
      expect(missing.errors.map((e: { field: string }) => e.field)).toEqual(['groupname']);
      await expectError(
        await t.request('POST', '/@groups', { body: { groupname: 'typed', title: 7, roles: 'Editor' } }),
        400,
        'BadRequest',
      );
      await expectError(
        await t.request('POST', '/@groups', { body: { groupname: 'ghosts', users: ['nobody'] } }),
        400,
        'BadRequest',
      );
      await expectError(
        await t.request('POST', '/@groups', { body: { groupname: 'roled', roles: ['Emperor'] } }),
        400,
        'BadRequest',
      );
      await expectError(
        await t.request('POST', '/@groups', { body: { groupname: 'virtual', groups: ['AuthenticatedUsers'] } }),
        400,
        'BadRequest',
      );
      for (const id of ['typed', 'ghosts', 'roled', 'virtual']) {
        await expectError(await t.request('GET', `/@groups/${id}`), 404, 'NotFound');
      }
    });

    it('filters by id or title (summaries without members) and limits', async () => {
      const filtered = await json(await t.request('GET', '/@groups?query=cms'));
      expect(filtered).toEqual([
        {
          '@id': `${base}/@groups/cmsteam`,
          description: 'We are CMS',
          email: 'cmsteam@example.org',
          groupname: 'cmsteam',
          id: 'cmsteam',
          roles: ['Authenticated'],
          title: 'CMS Team',
        },
      ]);
      const byTitle = await json(await t.request('GET', '/@groups?query=team'));
      expect(byTitle.map((g: { id: string }) => g.id)).toEqual(['cmsteam']);
      expect(await json(await t.request('GET', '/@groups?limit=2'))).toHaveLength(2);
      await expectError(await t.request('GET', '/@groups?limit=-1'), 400, 'BadRequest');
    });

    it('reads a group with its members; unknown is 404', async () => {
      expect((await t.request('PATCH', '/@groups/cmsteam', { body: { users: { noam: true } } })).status).toBe(204);
      expect(await json(await t.request('GET', '/@groups/cmsteam'))).toEqual({
        '@id': `${base}/@groups/cmsteam`,
        description: 'We are CMS',
        email: 'cmsteam@example.org',
        groupname: 'cmsteam',
        id: 'cmsteam',
        members: { '@id': `${base}/@groups/cmsteam`, items: ['noam'], items_total: 1 },
        roles: ['Authenticated'],
        title: 'CMS Team',
      });
      await expectError(await t.request('GET', '/@groups/nothere'), 404, 'NotFound');
    });

    it('updates title, description, roles and members', async () => {
      const response = await t.request('PATCH', '/@groups/cmsteam', {
        body: {
          description: 'CMS team members',
          email: 'cmsteam2@example.org',
          roles: ['Authenticated', 'Reviewer'],
          title: 'The CMS team',
          users: { test_user_1_: true, noam: false },
        },
      });
      expect(response.status).toBe(204);
      expect(await json(await t.request('GET', '/@groups/cmsteam'))).toMatchObject({
        description: 'CMS team members',
        email: 'cmsteam2@example.org',
        roles: ['Reviewer', 'Authenticated'],
        title: 'The CMS team',
        members: { items: ['test_user_1_'], items_total: 1 },
      });
      await expectError(
        await t.request('PATCH', '/@groups/cmsteam', { body: { users: { nobody: true }, title: 'Changed' } }),
        400,
        'BadRequest',
      );
      await expectError(await t.request('PATCH', '/@groups/cmsteam', { body: { users: ['noam'] } }), 400, 'BadRequest');
      await expectError(await t.request('PATCH', '/@groups/cmsteam', { body: { groupname: 'x' } }), 400, 'BadRequest');
      await expectError(
        await t.request('PATCH', '/@groups/cmsteam', { body: { groups: ['cmsteam'] } }),
        400,
        'BadRequest',
      );
      expect((await json(await t.request('GET', '/@groups/cmsteam'))).title).toBe('The CMS team');
      await expectError(await t.request('PATCH', '/@groups/nothere', { body: { title: 'X' } }), 404, 'NotFound');
    });

    it('refuses changes to the virtual group and deleting built-in groups (400)', async () => {
      await expectError(
        await t.request('PATCH', '/@groups/AuthenticatedUsers', { body: { users: { noam: true } } }),
        400,
        'BadRequest',
      );
      await expectError(await t.request('DELETE', '/@groups/AuthenticatedUsers'), 400, 'BadRequest');
      await expectError(await t.request('DELETE', '/@groups/Administrators'), 400, 'BadRequest');
      expect((await t.request('GET', '/@groups/Administrators')).status).toBe(200);
    });

    it('requires Manage users: 401 for anonymous callers, 403 for members', async () => {
      const anonymous = await expectError(await t.request('GET', '/@groups', { auth: null }), 401, 'Unauthorized');
      expect(anonymous).toBeTruthy();
      await expectError(await t.request('GET', '/@groups', { auth: asUser('member') }), 403, 'Forbidden');
      await expectError(
        await t.request('POST', '/@groups', { auth: asUser('member'), body: { groupname: 'mine' } }),
        403,
        'Forbidden',
      );
      await expectError(
        await t.request('PATCH', '/@groups/Reviewers', { auth: asUser('member'), body: { users: { member: true } } }),
        403,
        'Forbidden',
      );
      await expectError(await t.request('DELETE', '/@groups/cmsteam', { auth: asUser('member') }), 403, 'Forbidden');
      expect((await t.request('GET', '/@groups/cmsteam')).status).toBe(200);
    });
  });

  describe('membership gives roles', () => {
    it('a member of Administrators is a Manager; leaving the group takes it away at once', async () => {
      expect((await t.request('GET', '/@users', { auth: asUser('member') })).status).toBe(401);
      expect((await t.request('PATCH', '/@groups/Administrators', { body: { users: { member: true } } })).status).toBe(
        204,
      );
      expect((await t.request('GET', '/@users', { auth: asUser('member') })).status).toBe(200);
      expect(await getPrincipal('member')).toMatchObject({
        id: 'member',
        roles: expect.arrayContaining(['Member', 'Manager']),
        groups: ['Administrators', 'AuthenticatedUsers'],
      });
      expect((await t.request('PATCH', '/@groups/Administrators', { body: { users: { member: false } } })).status).toBe(
        204,
      );
      expect((await t.request('GET', '/@users', { auth: asUser('member') })).status).toBe(401);
    });

    it('nested groups pass their roles down; GetPrincipal shows them', async () => {
      expect((await t.request('POST', '/@groups', { body: { groupname: 'inner', users: ['noam'] } })).status).toBe(201);
      expect((await t.request('PATCH', '/@groups/Reviewers', { body: { groups: ['inner'] } })).status).toBe(204);
      const principal = await getPrincipal('noam');
      expect(principal.roles.sort()).toEqual(['Member', 'Reviewer']);
      expect(principal.groups).toEqual(['AuthenticatedUsers', 'Reviewers', 'inner']);
      expect(principal.fullname).toBe('Noam Chomsky');
      const user = await json(await t.request('GET', '/@users/noam'));
      expect(user.roles).toEqual(['Member', 'Reviewer']);
      expect(user.groups.items.map((g: { id: string }) => g.id)).toEqual(['AuthenticatedUsers', 'Reviewers', 'inner']);
      // A cycle is refused.
      await expectError(
        await t.request('PATCH', '/@groups/inner', { body: { groups: ['Reviewers'] } }),
        400,
        'BadRequest',
      );

      expect((await t.request('DELETE', '/@groups/inner')).status).toBe(204);
      expect((await getPrincipal('noam')).roles).toEqual(['Member']);
      await expectError(await t.request('GET', '/@groups/inner'), 404, 'NotFound');
      expect((await json(await t.request('GET', '/@groups/Reviewers'))).members.items).not.toContain('inner');
      await expect(getPrincipal('nobody')).rejects.toMatchObject({ type: 'NotFound' });
    });

    it('a Site Administrator manages groups but cannot give or change who has Manager (403)', async () => {
      expect(
        (await t.request('PATCH', '/@groups/Site Administrators', { body: { users: { siteadmin: true } } })).status,
      ).toBe(204);
      const auth = asUser('siteadmin');
      expect((await t.request('GET', '/@groups', { auth })).status).toBe(200);
      expect(
        (await t.request('POST', '/@groups', { auth, body: { groupname: 'editors', roles: ['Editor'] } })).status,
      ).toBe(201);
      await expectError(
        await t.request('POST', '/@groups', { auth, body: { groupname: 'bosses', roles: ['Manager'] } }),
        403,
        'Forbidden',
      );
      await expectError(
        await t.request('PATCH', '/@groups/editors', { auth, body: { roles: ['Manager'] } }),
        403,
        'Forbidden',
      );
      await expectError(
        await t.request('PATCH', '/@groups/Administrators', { auth, body: { users: { siteadmin: true } } }),
        403,
        'Forbidden',
      );
      expect((await getPrincipal('siteadmin')).roles).not.toContain('Manager');
      // Not @users: that needs Manager.
      expect((await t.request('GET', '/@users', { auth })).status).toBe(401);
      expect((await t.request('DELETE', '/@groups/editors', { auth })).status).toBe(204);
    });
  });

  describe('@roles', () => {
    it('lists the assignable roles to authenticated callers', async () => {
      const response = await t.request('GET', '/@roles', { auth: asUser('member') });
      expect(response.status).toBe(200);
      const roles = await json(response);
      expect(roles.map((r: { id: string }) => r.id)).toEqual([
        'Contributor',
        'Editor',
        'Member',
        'Reader',
        'Reviewer',
        'Site Administrator',
        'Manager',
      ]);
      expect(roles[5]).toEqual({
        '@id': `${base}/@roles/Site Administrator`,
        '@type': 'role',
        id: 'Site Administrator',
        title: 'Site Administrator',
      });
      await expectError(await t.request('GET', '/@roles', { auth: null }), 401, 'Unauthorized');
    });
  });

  describe('@principals', () => {
    it('finds users and groups by text, as the transcript', async () => {
      const response = await t.request('GET', '/@principals?search=cmsteam');
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({
        groups: [
          {
            '@id': `${base}/@groups/cmsteam`,
            description: 'CMS team members',
            email: 'cmsteam2@example.org',
            groupname: 'cmsteam',
            id: 'cmsteam',
            roles: ['Reviewer', 'Authenticated'],
            title: 'The CMS team',
          },
        ],
        users: [],
      });
      const users = await json(await t.request('GET', '/@principals?search=chomsky'));
      expect(users.groups).toEqual([]);
      expect(users.users).toEqual([
        {
          '@id': `${base}/@users/noam`,
          description: null,
          email: null,
          fullname: 'Noam Chomsky',
          home_page: null,
          id: 'noam',
          location: null,
          portrait: null,
          roles: ['Member'],
          username: 'noam',
        },
      ]);
    });

    it('requires search (400) and Manage users (401, 403)', async () => {
      await expectError(await t.request('GET', '/@principals'), 400, 'BadRequest');
      await expectError(await t.request('GET', '/@principals?search=a', { auth: null }), 401, 'Unauthorized');
      await expectError(await t.request('GET', '/@principals?search=a', { auth: asUser('member') }), 403, 'Forbidden');
    });
  });

  describe('look-up RPCs', () => {
    it('SearchPrincipals finds users and groups by id or title, case-insensitively', async () => {
      const found = await search('CMS');
      expect(found).toEqual([{ id: 'cmsteam', title: 'The CMS team', type: 'group', roles: ['Reviewer'] }]);
      const users = await search('noam');
      expect(users).toEqual([{ id: 'noam', title: 'Noam Chomsky', type: 'user', roles: ['Member'] }]);
      const logged = await search('logged-in');
      expect(logged).toEqual([{ id: 'AuthenticatedUsers', title: 'Logged-in users', type: 'group', roles: [] }]);
      expect(await search('', 2)).toHaveLength(2);
    });

    it('DescribePrincipals gives titles and types in the order asked, leaving out unknown ids', async () => {
      expect(await describeIds(['AuthenticatedUsers', 'nobody', 'member', 'Reviewers', 'admin'])).toEqual([
        { id: 'AuthenticatedUsers', title: 'Logged-in users', type: 'group', roles: [] },
        { id: 'member', title: 'member', type: 'user', roles: ['Member'] },
        { id: 'Reviewers', title: 'Reviewers', type: 'group', roles: ['Reviewer'] },
        { id: 'admin', title: 'admin', type: 'user', roles: ['Manager'] },
      ]);
    });
  });
});
