import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/** A 1×1 GIF, as in the reference transcript `users_update_portrait`. */
const GIF = 'R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=';
/** An 8-byte PNG signature followed by a few bytes: enough for the type check. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-ish')]);
const PORTRAIT_MAX_BYTES = 1024;

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** The `@users` and `@portrait` endpoints through the gateway, in embedded mode. */
describe('@users through the gateway', () => {
  let t: TestSuite;
  let base: string;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  /** Spec, authentication rule 4: denial on the user endpoints is 401 with the body `null`. */
  async function expectNullDenial(response: Response) {
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('null');
  }

  async function expectError(response: Response, status: number, type: string) {
    expect(response.status).toBe(status);
    const body = await json(response);
    expect(body).toMatchObject({ type, message: expect.any(String) });
    return body;
  }

  async function createUser(username: string, extra: Record<string, unknown> = {}) {
    const response = await t.request('POST', '/@users', {
      body: { username, password: `${username}-secret`, email: `${username}@example.com`, ...extra },
    });
    expect(response.status).toBe(201);
    return json(response);
  }

  const asUser = (username: string) => basic(username, `${username}-secret`);
  const getUser = async (id: string) => json(await t.request('GET', `/@users/${id}`));
  /** A user listing: the JSON array of the specification (addendum §8). */
  async function list(path: string): Promise<Record<string, any>[]> {
    const response = await t.request('GET', path);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, any>[];
    expect(Array.isArray(body)).toBe(true);
    return body;
  }
  const idsOf = (users: Record<string, any>[]) => users.map((u) => u.id as string);

  beforeAll(async () => {
    t = await startTestSuite({ PORTRAIT_MAX_BYTES: String(PORTRAIT_MAX_BYTES), EVENT_FLUSH_TIMEOUT_MS: '200' });
    base = t.suite.publicUrl;
    await createUser('member');
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('create', () => {
    it('creates a user: 201, Location, the User resource without the password', async () => {
      const response = await t.request('POST', '/@users', {
        body: {
          description: 'Professor of Linguistics',
          email: 'noam.chomsky@example.com',
          fullname: 'Noam Avram Chomsky',
          home_page: 'web.mit.edu/chomsky',
          location: 'Cambridge, MA',
          password: 'colorlessgreenideas',
          roles: ['Contributor'],
          username: 'noamchomsky',
        },
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(`${base}/@users/noamchomsky`);
      const text = await response.text();
      expect(text).not.toMatch(/colorlessgreenideas|password/);
      expect(JSON.parse(text)).toEqual({
        '@id': `${base}/@users/noamchomsky`,
        description: 'Professor of Linguistics',
        email: 'noam.chomsky@example.com',
        fullname: 'Noam Avram Chomsky',
        groups: {
          '@id': `${base}/@users`,
          items: [{ id: 'AuthenticatedUsers', title: 'AuthenticatedUsers' }],
          items_total: 1,
        },
        home_page: 'web.mit.edu/chomsky',
        id: 'noamchomsky',
        location: 'Cambridge, MA',
        portrait: null,
        roles: ['Contributor'],
        username: 'noamchomsky',
      });
      const login = await t.request('GET', '/@users/noamchomsky', {
        auth: basic('noamchomsky', 'colorlessgreenideas'),
      });
      expect(login.status).toBe(200);
    });

    it('gives the role Member when no roles are given; empty fields are null', async () => {
      const user = await json(
        await t.request('POST', '/@users', { body: { username: 'plain', password: 'plain-pass' } }),
      );
      expect(user).toMatchObject({ roles: ['Member'], email: null, fullname: null, description: null, portrait: null });
    });

    it('requires username and password (400 naming both) and creates nothing', async () => {
      const body = await expectError(
        await t.request('POST', '/@users', { body: { email: 'x@example.com' } }),
        400,
        'BadRequest',
      );
      expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['password', 'username']);
      expect(await list('/@users?search=x@example.com')).toEqual([]);
    });

    it('refuses wrong types, unknown members and unknown roles with 400 per field', async () => {
      const wrongTypes = await expectError(
        await t.request('POST', '/@users', { body: { username: 42, password: 'secret-1', roles: 'Manager' } }),
        400,
        'BadRequest',
      );
      expect(wrongTypes.errors.map((e: { field: string }) => e.field).sort()).toEqual(['roles', 'username']);
      await expectError(
        await t.request('POST', '/@users', { body: { username: 'extra', password: 'secret-1', admin: true } }),
        400,
        'BadRequest',
      );
      const unknownRole = await expectError(
        await t.request('POST', '/@users', {
          body: { username: 'rolly', password: 'secret-1', roles: ['Owner', 'Boss'] },
        }),
        400,
        'BadRequest',
      );
      expect(unknownRole.errors.map((e: { field: string }) => e.field)).toEqual(['roles.Owner', 'roles.Boss']);
      await expectError(
        await t.request('POST', '/@users', { body: { username: 'bad/id', password: 'secret-1' } }),
        400,
        'BadRequest',
      );
      expect((await t.request('GET', '/@users/rolly')).status).toBe(404);
      expect((await t.request('GET', '/@users/extra')).status).toBe(404);
    });

    it('refuses a duplicate user with 409', async () => {
      await createUser('twin');
      await expectError(
        await t.request('POST', '/@users', { body: { username: 'twin', password: 'another-pass' } }),
        409,
        'Conflict',
      );
      // The first account is unchanged.
      expect((await t.request('GET', '/@users/twin', { auth: asUser('twin') })).status).toBe(200);
    });

    it('answers 401 null to anonymous and non-Manager creators', async () => {
      await expectNullDenial(
        await t.request('POST', '/@users', { auth: null, body: { username: 'anon', password: 'x' } }),
      );
      await expectNullDenial(
        await t.request('POST', '/@users', {
          auth: asUser('member'),
          body: { username: 'sneaky', password: 'sneaky-pass' },
        }),
      );
      expect((await t.request('GET', '/@users/sneaky')).status).toBe(404);
    });

    it('refuses sendPasswordReset (no mail is sent here)', async () => {
      await expectError(
        await t.request('POST', '/@users', { body: { username: 'resetme', sendPasswordReset: true } }),
        400,
        'BadRequest',
      );
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      await createUser('noam', {
        fullname: 'Noam Avram Chomsky',
        email: 'noam.chomsky@example.com',
        description: 'Professor of Linguistics',
      });
      await createUser('reviewer1', { fullname: 'Rita Viewer' });
      const joined = await t.request('PATCH', '/@groups/Reviewers', { body: { users: { noam: true } } });
      expect(joined.status).toBe(204);
    });

    it('lists users with their groups: the JSON array of the specification (addendum §8)', async () => {
      const response = await t.request('GET', '/@users');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as Record<string, any>[];
      expect(Array.isArray(body)).toBe(true);
      const admin = body.find((u) => u.id === 'admin');
      expect(admin).toEqual({
        '@id': `${base}/@users/admin`,
        description: null,
        email: null,
        fullname: null,
        groups: {
          '@id': `${base}/@users`,
          items: [{ id: 'AuthenticatedUsers', title: 'AuthenticatedUsers' }],
          items_total: 1,
        },
        home_page: null,
        id: 'admin',
        location: null,
        portrait: null,
        roles: ['Manager'],
        username: 'admin',
      });
      const ids = idsOf(body);
      expect(ids).toEqual([...ids].sort());
    });

    it('filters by username (query), by id/fullname/e-mail (search) and by group', async () => {
      const byLogin = await list('/@users?query=OAM');
      expect(idsOf(byLogin)).toEqual(['noam', 'noamchomsky']);
      expect(byLogin[0].groups['@id']).toBe(`${base}/@users?query=OAM`);

      expect(idsOf(await list('/@users?search=avram'))).toEqual(['noam', 'noamchomsky']);
      expect(idsOf(await list('/@users?search=RITA'))).toEqual(['reviewer1']);
      expect(await list('/@users?query=noam&search=professor')).toEqual([]);
      expect(idsOf(await list('/@users?search=viewer1'))).toEqual(['reviewer1']);
      expect(idsOf(await list('/@users?search=noam.chomsky@'))).toEqual(['noam', 'noamchomsky']);

      const filtered = await list('/@users?groups-filter%3Alist=Reviewers&groups-filter%3Alist=Site+Administrators');
      expect(filtered).toHaveLength(1);
      expect(filtered[0]).toMatchObject({
        id: 'noam',
        groups: {
          '@id': `${base}/@users?groups-filter%3Alist=Reviewers&groups-filter%3Alist=Site+Administrators`,
          items: [
            { id: 'AuthenticatedUsers', title: 'AuthenticatedUsers' },
            { id: 'Reviewers', title: 'Reviewers' },
          ],
          items_total: 2,
        },
        // Group membership gives the group's roles.
        roles: ['Member', 'Reviewer'],
      });
      const everyone = await list('/@users?groups-filter:list=AuthenticatedUsers');
      expect(idsOf(everyone)).toEqual(idsOf(await list('/@users')));
    });

    it('returns at most limit (default 25) users; a bad limit is 400', async () => {
      const all = await list('/@users');
      expect(all.length).toBeGreaterThan(2);
      expect(idsOf(await list('/@users?limit=2'))).toEqual(idsOf(all).slice(0, 2));
      await expectError(await t.request('GET', '/@users?limit=zero'), 400, 'BadRequest');
      await expectError(await t.request('GET', '/@users?limit=0'), 400, 'BadRequest');
    });

    it('answers 401 null to anonymous and non-Manager callers', async () => {
      await expectNullDenial(await t.request('GET', '/@users', { auth: null }));
      await expectNullDenial(await t.request('GET', '/@users', { auth: asUser('member') }));
      await expectNullDenial(await t.request('GET', '/@users?query=a', { auth: asUser('reviewer1') }));
    });
  });

  describe('read', () => {
    it('lets a user read itself and a Manager read anyone', async () => {
      const self = await t.request('GET', '/@users/member', { auth: asUser('member') });
      expect(self.status).toBe(200);
      expect(await json(self)).toMatchObject({
        '@id': `${base}/@users/member`,
        id: 'member',
        username: 'member',
        email: 'member@example.com',
        groups: { '@id': `${base}/@users/member`, items_total: 1 },
      });
      expect((await t.request('GET', '/@users/member')).status).toBe(200);
    });

    it('answers 401 null to anonymous callers and to other users, existing or not', async () => {
      await expectNullDenial(await t.request('GET', '/@users/member', { auth: null }));
      await expectNullDenial(await t.request('GET', '/@users/admin', { auth: asUser('member') }));
      await expectNullDenial(await t.request('GET', '/@users/nobody', { auth: asUser('member') }));
    });

    it('is 404 for a Manager reading an unknown user', async () => {
      await expectError(await t.request('GET', '/@users/nobody'), 404, 'NotFound');
    });

    it('refuses bad credentials with 401', async () => {
      const response = await t.request('GET', '/@users/member', { auth: basic('member', 'wrong') });
      expect(response.status).toBe(401);
    });
  });

  describe('update', () => {
    beforeAll(async () => {
      await createUser('editme', { fullname: 'Edit Me' });
    });

    it('lets a user change its own properties (204) and a Manager change anyone', async () => {
      const own = await t.request('PATCH', '/@users/editme', {
        auth: asUser('editme'),
        body: { fullname: 'Edited', location: 'Bonn', home_page: 'https://example.org', description: 'Hi' },
      });
      expect(own.status).toBe(204);
      expect(await getUser('editme')).toMatchObject({
        fullname: 'Edited',
        location: 'Bonn',
        home_page: 'https://example.org',
        description: 'Hi',
      });
      const byManager = await t.request('PATCH', '/@users/editme', {
        body: { email: 'avram.chomsky@example.com', roles: { Contributor: true } },
      });
      expect(byManager.status).toBe(204);
      expect(await getUser('editme')).toMatchObject({
        email: 'avram.chomsky@example.com',
        roles: ['Contributor', 'Member'],
      });
      await t.request('PATCH', '/@users/editme', { body: { roles: { Contributor: false } } });
      expect((await getUser('editme')).roles).toEqual(['Member']);
    });

    it('answers 401 null to anonymous callers and other users, and to users changing their own roles', async () => {
      await expectNullDenial(await t.request('PATCH', '/@users/editme', { auth: null, body: { fullname: 'X' } }));
      await expectNullDenial(
        await t.request('PATCH', '/@users/editme', { auth: asUser('member'), body: { fullname: 'X' } }),
      );
      await expectNullDenial(
        await t.request('PATCH', '/@users/editme', { auth: asUser('editme'), body: { roles: { Manager: true } } }),
      );
      const user = await getUser('editme');
      expect(user.fullname).toBe('Edited');
      expect(user.roles).toEqual(['Member']);
    });

    it('refuses wrong types, unknown fields and unknown roles with 400 and changes nothing', async () => {
      const body = await expectError(
        await t.request('PATCH', '/@users/editme', { body: { fullname: 5, email: 'not-an-email', location: 'Paris' } }),
        400,
        'BadRequest',
      );
      expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'fullname']);
      await expectError(
        await t.request('PATCH', '/@users/editme', { body: { username: 'renamed' } }),
        400,
        'BadRequest',
      );
      await expectError(
        await t.request('PATCH', '/@users/editme', { body: { roles: { Emperor: true }, location: 'Paris' } }),
        400,
        'BadRequest',
      );
      await expectError(
        await t.request('PATCH', '/@users/editme', { body: { roles: ['Manager'] } }),
        400,
        'BadRequest',
      );
      expect((await getUser('editme')).location).toBe('Bonn');
    });

    it('is 404 for a Manager updating an unknown user', async () => {
      await expectError(await t.request('PATCH', '/@users/nobody', { body: { fullname: 'X' } }), 404, 'NotFound');
    });

    it('changes passwords: a Manager sets one; a user gives its old one', async () => {
      expect((await t.request('PATCH', '/@users/editme', { body: { password: 'manager-set-1' } })).status).toBe(204);
      expect((await t.request('GET', '/@users/editme', { auth: asUser('editme') })).status).toBe(401);
      const auth = basic('editme', 'manager-set-1');
      expect((await t.request('GET', '/@users/editme', { auth })).status).toBe(200);

      await expectError(
        await t.request('PATCH', '/@users/editme', { auth, body: { password: 'self-set-22' } }),
        400,
        'BadRequest',
      );
      await expectError(
        await t.request('PATCH', '/@users/editme', { auth, body: { password: 'self-set-22', old_password: 'wrong' } }),
        400,
        'BadRequest',
      );
      const changed = await t.request('PATCH', '/@users/editme', {
        auth,
        body: { password: 'self-set-22', old_password: 'manager-set-1' },
      });
      expect(changed.status).toBe(204);
      expect((await t.request('GET', '/@users/editme', { auth })).status).toBe(401);
      expect((await t.request('GET', '/@users/editme', { auth: basic('editme', 'self-set-22') })).status).toBe(200);
      const listed = await t.request('GET', '/@users?query=editme');
      expect(await listed.text()).not.toMatch(/self-set-22|password/);
    });
  });

  describe('portrait', () => {
    beforeAll(async () => {
      await createUser('pic');
    });

    it('stores an uploaded portrait and serves its bytes', async () => {
      const upload = await t.request('PATCH', '/@users/pic', {
        auth: asUser('pic'),
        body: { portrait: { 'content-type': 'image/gif', data: GIF, encoding: 'base64', filename: 'image.gif' } },
      });
      expect(upload.status).toBe(204);
      expect((await getUser('pic')).portrait).toBe(`${base}/@portrait/pic`);

      for (const [path, auth] of [
        ['/@portrait/pic', null],
        ['/@portrait', asUser('pic')],
      ] as const) {
        const image = await t.request('GET', path, { auth });
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe('image/gif');
        expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(GIF, 'base64'))).toBe(true);
      }

      const png = await t.request('PATCH', '/@users/pic', {
        body: {
          portrait: {
            'content-type': 'image/png',
            data: PNG.toString('base64'),
            encoding: 'base64',
            filename: 'p.png',
            scale: true,
          },
        },
      });
      expect(png.status).toBe(204);
      const image = await t.request('GET', '/@portrait/pic', { auth: null });
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it('refuses non-images, mismatched types, malformed base64 (400) and oversized images (413), changing nothing', async () => {
      const put = (portrait: Record<string, unknown>) =>
        t.request('PATCH', '/@users/pic', {
          body: { portrait: { encoding: 'base64', filename: 'f', ...portrait }, fullname: 'Changed' },
        });
      await expectError(
        await put({ 'content-type': 'image/png', data: Buffer.from('just some text').toString('base64') }),
        400,
        'BadRequest',
      );
      await expectError(await put({ 'content-type': 'image/png', data: GIF }), 400, 'BadRequest');
      await expectError(
        await put({ 'content-type': 'text/plain', data: Buffer.from('hello').toString('base64') }),
        400,
        'BadRequest',
      );
      await expectError(await put({ 'content-type': 'image/gif', data: 'R0lGODlh!!!' }), 400, 'BadRequest');
      await expectError(await put({ 'content-type': 'image/gif', data: GIF.slice(0, -1) }), 400, 'BadRequest');
      await expectError(await put({ 'content-type': 'image/gif', data: `${GIF}\n` }), 400, 'BadRequest');
      await expectError(
        await t.request('PATCH', '/@users/pic', {
          body: { portrait: { 'content-type': 'image/gif', data: GIF, encoding: 'hex' } },
        }),
        400,
        'BadRequest',
      );
      const big = Buffer.concat([Buffer.from(GIF, 'base64'), Buffer.alloc(PORTRAIT_MAX_BYTES)]);
      await expectError(
        await put({ 'content-type': 'image/gif', data: big.toString('base64') }),
        413,
        'PayloadTooLarge',
      );

      const user = await getUser('pic');
      expect(user.fullname).toBeNull();
      const image = await t.request('GET', '/@portrait/pic', { auth: null });
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it('removes the portrait with portrait: null; then it is 404', async () => {
      expect((await t.request('PATCH', '/@users/pic', { auth: asUser('pic'), body: { portrait: null } })).status).toBe(
        204,
      );
      expect((await getUser('pic')).portrait).toBeNull();
      await expectError(await t.request('GET', '/@portrait/pic', { auth: null }), 404, 'NotFound');
      await expectError(await t.request('GET', '/@portrait', { auth: asUser('pic') }), 404, 'NotFound');
      await expectError(await t.request('GET', '/@portrait/nobody', { auth: null }), 404, 'NotFound');
      await expectError(await t.request('GET', '/@portrait', { auth: null }), 404, 'NotFound');
    });

    it("refuses another user's portrait upload with 401 null", async () => {
      await expectNullDenial(
        await t.request('PATCH', '/@users/pic', {
          auth: asUser('member'),
          body: { portrait: { 'content-type': 'image/gif', data: GIF, encoding: 'base64', filename: 'x.gif' } },
        }),
      );
      expect((await getUser('pic')).portrait).toBeNull();
    });
  });

  describe('delete', () => {
    it('deletes a user (204): it is gone, cannot log in, has left its groups; the id can be used again', async () => {
      await createUser('gone', { groups: ['Reviewers'] });
      await t.request('PATCH', '/@users/gone', {
        body: { portrait: { 'content-type': 'image/gif', data: GIF, encoding: 'base64', filename: 'x.gif' } },
      });
      expect((await t.request('GET', '/@users/gone', { auth: asUser('gone') })).status).toBe(200);
      expect((await t.request('DELETE', '/@users/gone')).status).toBe(204);
      await expectError(await t.request('GET', '/@users/gone'), 404, 'NotFound');
      expect((await t.request('GET', '/@users/gone', { auth: asUser('gone') })).status).toBe(401);
      await expectError(await t.request('GET', '/@portrait/gone', { auth: null }), 404, 'NotFound');
      const reviewers = await json(await t.request('GET', '/@groups/Reviewers'));
      expect(reviewers.members.items).not.toContain('gone');
      await expectError(await t.request('DELETE', '/@users/gone'), 404, 'NotFound');

      const again = await createUser('gone', { fullname: 'Second' });
      expect(again).toMatchObject({ id: 'gone', fullname: 'Second', roles: ['Member'], portrait: null });
      expect(again.groups.items).toEqual([{ id: 'AuthenticatedUsers', title: 'AuthenticatedUsers' }]);
    });

    it('answers 401 null to anonymous and non-Manager callers', async () => {
      await createUser('keep');
      await expectNullDenial(await t.request('DELETE', '/@users/keep', { auth: null }));
      await expectNullDenial(await t.request('DELETE', '/@users/keep', { auth: asUser('member') }));
      await expectNullDenial(await t.request('DELETE', '/@users/keep', { auth: asUser('keep') }));
      expect((await t.request('GET', '/@users/keep')).status).toBe(200);
    });
  });

  // Last: it switches the site to e-mail login.
  describe('e-mail login', () => {
    it('requires email and password, refuses username, and derives the id from the e-mail', async () => {
      const switched = await t.request('PATCH', '/@registry', { body: { 'cms.use_email_as_login': true } });
      expect(switched.status).toBe(204);

      const withUsername = await expectError(
        await t.request('POST', '/@users', {
          body: { username: 'mailer', email: 'mailer@example.com', password: 'mail-pass' },
        }),
        400,
        'BadRequest',
      );
      expect(withUsername.errors.map((e: { field: string }) => e.field)).toEqual(['username']);
      const withoutEmail = await expectError(
        await t.request('POST', '/@users', { body: { password: 'mail-pass' } }),
        400,
        'BadRequest',
      );
      expect(withoutEmail.errors.map((e: { field: string }) => e.field)).toEqual(['email']);

      const created = await t.request('POST', '/@users', {
        body: { email: 'Mail.User@Example.com', password: 'mail-pass', fullname: 'Mail User' },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${base}/@users/mail.user@example.com`);
      expect(await json(created)).toMatchObject({
        id: 'mail.user@example.com',
        username: 'mail.user@example.com',
        email: 'Mail.User@Example.com',
      });
      for (const login of ['mail.user@example.com', 'Mail.User@Example.com']) {
        const self = await t.request('GET', '/@users/mail.user@example.com', { auth: basic(login, 'mail-pass') });
        expect(self.status).toBe(200);
      }
      await expectError(
        await t.request('POST', '/@users', { body: { email: 'mail.user@example.com', password: 'mail-pass' } }),
        409,
        'Conflict',
      );
      await expectError(
        await t.request('PATCH', '/@users/mail.user@example.com', { body: { email: '' } }),
        400,
        'BadRequest',
      );

      expect((await t.request('PATCH', '/@registry', { body: { 'cms.use_email_as_login': false } })).status).toBe(204);
      expect((await t.request('POST', '/@users', { body: { username: 'mailer', password: 'mail-pass' } })).status).toBe(
        201,
      );
    });
  });
});
