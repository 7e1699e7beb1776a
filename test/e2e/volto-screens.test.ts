import { startMailCatcher, type MailCatcher } from '../support/mail-catcher';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** The other calls of Volto's screens (issue 16, item 7): password reset, login options, add-ons, upgrades, actions. */
describe('what else Volto’s screens call', () => {
  let t: TestSuite;
  let smtp: MailCatcher;
  const json = async (response: Response) => (await response.json()) as any;

  beforeAll(async () => {
    smtp = await startMailCatcher();
    // The per-address limit of reset mails out of the way of the per-user one tested here (both: mail-quota.test.ts).
    t = await startTestSuite({ RESET_MAILS_PER_CLIENT: '100' });
    await t.request('POST', '/@users', {
      body: { username: 'noam', password: 'secret-noam', email: 'noam@example.org', roles: ['Member'] },
    });
    await t.request('POST', '/@users', { body: { username: 'nomail', password: 'secret-nomail', roles: ['Member'] } });
    await t.request('POST', '/@users', {
      body: { username: 'ed', password: 'secret-ed', email: 'ed@example.org', roles: ['Editor'] },
    });
    await t.request('POST', '/@users', { body: { username: 'eve', password: 'secret-eve', roles: ['Editor'] } });
  });
  afterAll(async () => {
    await t.stop();
    await smtp.close();
  });

  describe('@users/<id>/reset-password', () => {
    it('without mail settings: 400, saying the site sends no mail', async () => {
      const response = await t.request('POST', '/@users/noam/reset-password', { auth: null });
      expect(response.status).toBe(400);
      const { message } = await json(response);
      expect(message).toMatch(/sends no mail/);
      // The same for a user that does not exist: the answer tells nothing about who has an account.
      const unknown = await t.request('POST', '/@users/nobody/reset-password', { auth: null });
      expect([unknown.status, (await json(unknown)).message]).toEqual([400, message]);
    });

    it('mails a one-time link; the token sets a new password, once, and ends the old sessions', async () => {
      const panel = await t.request('PATCH', '/@controlpanels/mail', {
        body: { smtp_host: '127.0.0.1', smtp_port: smtp.port, email_from_address: 'site@example.org' },
      });
      expect(panel.status).toBe(204);
      const token = (
        await json(await t.request('POST', '/@login', { auth: null, body: { login: 'noam', password: 'secret-noam' } }))
      ).token;

      const asked = await t.request('POST', '/@users/noam/reset-password', { auth: null });
      expect(asked.status).toBe(200);
      const mail = smtp.received.find((m) => m.to.includes('noam@example.org'));
      expect(mail).toBeDefined();
      const link = /(http\S+\/passwordreset\/([0-9a-f]{32})\?userid=noam)/.exec(mail!.text);
      expect(link).not.toBeNull();
      const resetToken = link![2];

      const wrongUser = await t.request('POST', '/@users/ed/reset-password', {
        auth: null,
        body: { reset_token: resetToken, new_password: 'taken-over' },
      });
      expect(wrongUser.status).toBe(400);

      const reset = await t.request('POST', '/@users/noam/reset-password', {
        auth: null,
        body: { reset_token: resetToken, new_password: 'brand-new-noam' },
      });
      expect(reset.status).toBe(200);
      expect((await t.request('GET', '/@users/noam', { auth: basic('noam', 'brand-new-noam') })).status).toBe(200);
      expect((await t.request('GET', '/@users/noam', { auth: basic('noam', 'secret-noam') })).status).toBe(401);
      expect((await t.request('GET', '/@users/noam', { auth: `Bearer ${token}` })).status).toBe(401);

      const again = await t.request('POST', '/@users/noam/reset-password', {
        auth: null,
        body: { reset_token: resetToken, new_password: 'third-password' },
      });
      expect(again.status).toBe(400);
    });

    it('a user changes its own password with the old one; nobody else may', async () => {
      const own = await t.request('POST', '/@users/ed/reset-password', {
        auth: basic('ed', 'secret-ed'),
        body: { old_password: 'secret-ed', new_password: 'new-secret-ed' },
      });
      expect(own.status).toBe(200);
      const wrongOld = await t.request('POST', '/@users/ed/reset-password', {
        auth: basic('ed', 'new-secret-ed'),
        body: { old_password: 'not-it', new_password: 'whatever-ed' },
      });
      expect(wrongOld.status).toBe(400);
      const other = await t.request('POST', '/@users/ed/reset-password', {
        auth: basic('nomail', 'secret-nomail'),
        body: { old_password: 'new-secret-ed', new_password: 'hijacked' },
      });
      expect(other.status).toBe(401);
    });

    it('a user without an e-mail address and an unknown user are answered as a known one, and sent nothing', async () => {
      const before = smtp.received.length;
      expect((await t.request('POST', '/@users/nomail/reset-password', { auth: null })).status).toBe(200);
      expect((await t.request('POST', '/@users/nobody/reset-password', { auth: null })).status).toBe(200);
      expect(smtp.received.length).toBe(before);
      const bad = await t.request('POST', '/@users/noam/reset-password', {
        auth: null,
        body: { reset_token: 'x', new_password: 'longenough', extra: true },
      });
      expect(bad.status).toBe(400);
    });

    it('a used link ends the others, and a user is sent at most three reset mails an hour', async () => {
      const linkOf = (text: string) => /\/passwordreset\/([0-9a-f]{32})\?userid=ed/.exec(text)?.[1];
      const before = smtp.received.length;
      for (let i = 0; i < 2; i++) {
        expect((await t.request('POST', '/@users/ed/reset-password', { auth: null })).status).toBe(200);
      }
      const [first, second] = smtp.received.slice(before).map((mail) => linkOf(mail.text));
      expect(first && second && first !== second).toBe(true);
      const use = (token: string, password: string) =>
        t.request('POST', '/@users/ed/reset-password', {
          auth: null,
          body: { reset_token: token, new_password: password },
        });
      expect((await use(second!, 'reset-by-second')).status).toBe(200);
      expect((await use(first!, 'reset-by-first')).status).toBe(400);
      expect((await t.request('GET', '/@users/ed', { auth: basic('ed', 'reset-by-second') })).status).toBe(200);
      // The third ask is the last this hour for ed, wherever it comes from; another user is not held by it.
      expect((await t.request('POST', '/@users/ed/reset-password', { auth: null })).status).toBe(200);
      const refused = await t.request('POST', '/@users/ed/reset-password', { auth: null });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await t.request('POST', '/@users/noam/reset-password', { auth: null })).status).toBe(200);
    });

    it('creating a user still validates its body', async () => {
      const response = await t.request('POST', '/@users', {
        body: { username: 'x1', password: 'secret-x1', bogus: 1 },
      });
      expect(response.status).toBe(400);
    });
  });

  it('@login GET lists the login options: none besides the form', async () => {
    const response = await t.request('GET', '/@login', { auth: null });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ options: [] });
  });

  it('@addons: an honest empty list; acting on an add-on is 404', async () => {
    const response = await t.request('GET', '/@addons');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toEqual({ '@id': expect.stringMatching(/\/@addons$/), items: [], items_total: 0 });
    expect((await t.request('GET', '/@addons/plone.app.example')).status).toBe(404);
    expect((await t.request('POST', '/@addons/plone.app.example/install')).status).toBe(404);
    expect((await t.request('GET', '/@addons', { auth: basic('eve', 'secret-eve') })).status).toBe(403);
  });

  it('@upgrade: a new site has nothing pending; a dry run and a run answer the report', async () => {
    const status = await json(await t.request('GET', '/@upgrade'));
    expect(status).toEqual({
      '@id': expect.stringMatching(/\/@upgrade$/),
      upgrade_steps: {},
      versions: { fs: '1', instance: '1' },
    });
    const dry = await json(await t.request('POST', '/@upgrade', { body: { dry_run: true } }));
    expect(dry).toMatchObject({ dry_run: true, upgraded: true, versions: { fs: '1', instance: '1' } });
    expect(dry.report).toContain('Nothing to upgrade.');
    const run = await t.request('POST', '/@upgrade', { body: {} });
    expect(run.status).toBe(200);
    expect((await t.request('POST', '/@upgrade', { body: { dry_run: 'yes' } })).status).toBe(400);
    expect((await t.request('GET', '/@upgrade', { auth: basic('eve', 'secret-eve') })).status).toBe(403);
  });

  it('@actions: an edit entry and the object buttons for an editor; no edit for a member', async () => {
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'doc', title: 'Doc' } });
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'public', title: 'Public' } });
    await t.request('POST', '/public/@workflow/publish');
    // A private page: an Editor may change it (simple_publication_workflow).
    const editor = await json(await t.request('GET', '/doc/@actions', { auth: basic('eve', 'secret-eve') }));
    expect(editor.object.map((a: any) => a.id)).toEqual(expect.arrayContaining(['view', 'edit', 'history']));
    expect(editor.object_buttons.map((a: any) => a.id)).toEqual(
      expect.arrayContaining(['cut', 'copy', 'delete', 'rename']),
    );
    const member = await json(await t.request('GET', '/public/@actions', { auth: basic('nomail', 'secret-nomail') }));
    expect(member.object.map((a: any) => a.id)).not.toContain('edit');
  });
});
