import { createServer, type AddressInfo, type Socket } from 'node:net';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * The original's `@email-send`, `@email-notification` and `@database` (issue 26): mail through the mail panel's
 * settings to a local SMTP server, refused header injection, the quotas per principal and per client address, an
 * unreachable mail server, and the store statistics. Each runs with the neutral names and with
 * ORIGINAL_IDENTIFIERS on.
 */
const json = async (response: Response) => (await response.json()) as any;
const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** Small quotas, and the client address taken from X-Forwarded-For, so each test sends from an address of its own. */
const QUOTA_ENV = { TRUST_PROXY: '1', MAIL_SENDS_PER_PRINCIPAL: '5', MAIL_SENDS_PER_CLIENT: '4' };

/** A port nothing listens on: a server's, closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that takes connections and never answers: an SMTP server that hangs before its greeting. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The value of a header of a caught mail (folded lines joined). */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1];
}

function mailEndpoints(suite: () => TestSuite, smtp: () => MailCatcher) {
  const t = () => suite();
  let nextAddress = 1;
  /** Headers of a client at an address no other test uses. */
  const fromNewClient = () => ({ 'X-Forwarded-For': `198.51.100.${nextAddress++}` });
  const send = (path: string, body: unknown, auth: string | null = basic('admin', 'admin'), client = fromNewClient()) =>
    t().request('POST', path, { body, auth, headers: client });
  const configureMail = async (port: number) => {
    const panel = await t().request('PATCH', '/@controlpanels/mail', {
      body: {
        smtp_host: '127.0.0.1',
        smtp_port: port,
        email_from_address: 'site@example.org',
        email_from_name: 'Site',
      },
    });
    expect(panel.status).toBe(204);
  };

  it('without a from address in the mail settings: 400, saying the site sends no mail, and nothing is sent', async () => {
    const note = await send('/@email-notification', { from: 'john@example.org', message: 'Hi' }, null);
    expect(note.status).toBe(400);
    expect((await json(note)).message).toMatch(/sends no mail/);
    const mail = await send('/@email-send', { to: 'jane@example.org', from: 'john@example.org', message: 'Hi' });
    expect(mail.status).toBe(400);
    expect(smtp().received).toHaveLength(0);
    await configureMail(smtp().port);
  });

  it('@email-send: 204, the mail from the site to the address, the sender as Reply-To, the original’s intro', async () => {
    const before = smtp().received.length;
    const response = await send('/@email-send', {
      to: 'jane@example.org',
      from: 'john@example.org',
      name: 'John Doe',
      subject: 'Hello!',
      message: 'Just want to say hi.',
    });
    expect(response.status).toBe(204);
    const mail = smtp().received[before];
    expect(mail.to).toEqual(['jane@example.org']);
    expect(mail.from).toBe('site@example.org');
    expect(mail.subject).toBe('Hello!');
    expect(headerOf(mail.raw, 'Reply-To')).toBe('john@example.org');
    expect(headerOf(mail.raw, 'From')).toMatch(/site@example\.org/);
    expect(mail.text).toMatch(/because John Doe sent this message via the site .+:\r?\n\r?\nJust want to say hi\./);
  });

  it('@email-send without a subject or name: the subject says a portal user wrote via the site', async () => {
    const before = smtp().received.length;
    const response = await send('/@email-send', { to: 'jane@example.org', from: 'john@example.org', message: 'Hi' });
    expect(response.status).toBe(204);
    expect(smtp().received[before].subject).toMatch(/^A portal user via /);
  });

  it('@email-send: 401 anonymous, 403 for a member (Use mailhost services), and nothing is sent', async () => {
    const before = smtp().received.length;
    const body = { to: 'jane@example.org', from: 'john@example.org', message: 'Hi' };
    expect((await send('/@email-send', body, null)).status).toBe(401);
    expect((await send('/@email-send', body, basic('member', 'secret-member'))).status).toBe(403);
    expect(smtp().received).toHaveLength(before);
  });

  it('@email-notification: anyone, anonymous too, writes to the site’s from address about the site', async () => {
    const before = smtp().received.length;
    const response = await send(
      '/@email-notification',
      { from: 'visitor@example.org', name: 'A Visitor', subject: 'Feedback', message: 'Nice site.' },
      null,
    );
    expect(response.status).toBe(204);
    const mail = smtp().received[before];
    expect(mail.to).toEqual(['site@example.org']);
    expect(mail.subject).toBe('Feedback');
    expect(headerOf(mail.raw, 'Reply-To')).toBe('visitor@example.org');
    expect(mail.text).toContain(`A Visitor <visitor@example.org> is sending feedback about the site you administer at`);
    const site = (await json(await t().request('GET', '/')))['@id'];
    expect(mail.text).toContain(`administer at ${site}.`);
    expect(mail.text).toContain('Nice site.');
    const member = await send(
      '/@email-notification',
      { from: 'm@example.org', message: 'Hi' },
      basic('member', 'secret-member'),
    );
    expect(member.status).toBe(204);
  });

  it('@email-notification is the site root’s, as in the original: 404 below it', async () => {
    expect((await send('/page/@email-notification', { from: 'a@example.org', message: 'Hi' }, null)).status).toBe(404);
  });

  it('a line break or control character in any header field: 400 naming the field, and nothing is sent', async () => {
    const before = smtp().received.length;
    const good = { to: 'jane@example.org', from: 'john@example.org', name: 'John', subject: 'Hi', message: 'Hi' };
    const attempts: [string, Record<string, string>][] = [
      ['subject', { subject: 'Hi\r\nBcc: victim@example.org' }],
      ['subject', { subject: 'Hi\nBcc: victim@example.org' }],
      ['name', { name: 'John\rBcc: victim@example.org' }],
      ['name', { name: 'John\u2028Bcc: victim@example.org' }],
      ['name', { name: 'John\u0000' }],
      ['from', { from: 'john@example.org\r\nBcc: victim@example.org' }],
      ['to', { to: 'jane@example.org\nBcc: victim@example.org' }],
      ['to', { to: 'jane@example.org, victim@example.org' }],
      ['message', { message: 'Hi\u0000there' }],
    ];
    for (const [field, change] of attempts) {
      const response = await send('/@email-send', { ...good, ...change });
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
      // The refusal does not echo what was sent.
      expect(JSON.stringify(body)).not.toContain('victim');
    }
    const { to: _to, ...note } = good;
    const notification = await send(
      '/@email-notification',
      { ...note, subject: 'Hi\r\nBcc: victim@example.org' },
      null,
    );
    expect(notification.status).toBe(400);
    expect(smtp().received).toHaveLength(before);
    // A message body keeps its line breaks and tabs.
    expect((await send('/@email-send', { ...good, message: 'Line one\r\n\tLine two\n' })).status).toBe(204);
  });

  it('bounded fields, required fields and unknown fields: 400, nothing sent', async () => {
    const before = smtp().received.length;
    const good = { to: 'jane@example.org', from: 'john@example.org', message: 'Hi' };
    const bad = [
      { ...good, subject: 'x'.repeat(201) },
      { ...good, name: 'x'.repeat(101) },
      { ...good, message: 'x'.repeat(10_001) },
      { ...good, message: '' },
      { ...good, from: 'not an address' },
      { to: 'jane@example.org', message: 'Hi' },
      { ...good, bcc: 'victim@example.org' },
    ];
    for (const body of bad) expect((await send('/@email-send', body)).status).toBe(400);
    expect((await send('/@email-notification', { from: 'a@example.org' }, null)).status).toBe(400);
    expect(smtp().received).toHaveLength(before);
  });

  it('per client address: past the quota 429 with Retry-After, nothing sent; another address is still served', async () => {
    const client = fromNewClient();
    const body = { from: 'visitor@example.org', message: 'Hi' };
    for (let i = 0; i < 4; i++) expect((await send('/@email-notification', body, null, client)).status).toBe(204);
    const before = smtp().received.length;
    const refused = await send('/@email-notification', body, null, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(refused)).type).toBe('TooManyRequests');
    expect(smtp().received).toHaveLength(before);
    expect((await send('/@email-notification', body, null)).status).toBe(204);
  });

  it('per principal: past its quota 429 whatever address it sends from', async () => {
    const auth = basic('siteadmin', 'secret-siteadmin');
    const body = { to: 'jane@example.org', from: 'sam@example.org', message: 'Hi' };
    for (let i = 0; i < 5; i++) expect((await send('/@email-send', body, auth)).status).toBe(204);
    const refused = await send('/@email-send', body, auth);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // The administrator has an allowance of its own.
    expect((await send('/@email-send', body)).status).toBe(204);
  });

  it('the mail server unreachable: 503 saying so, and the attempt is not counted against the quota', async () => {
    await configureMail(await closedPort());
    const client = fromNewClient();
    const body = { from: 'visitor@example.org', message: 'Hi' };
    for (let i = 0; i < 5; i++) {
      const response = await send('/@email-notification', body, null, client);
      expect(response.status).toBe(503);
      expect((await json(response)).message).toMatch(/mail server could not be reached.*nothing was sent/);
    }
    await configureMail(smtp().port);
    // Five failures, yet the address still has its four mails.
    expect((await send('/@email-notification', body, null, client)).status).toBe(204);
  });

  it('a mail server that never answers: 503 too, within the call’s deadline (not the gateway’s 504)', async () => {
    const silent = await silentServer();
    try {
      await configureMail(silent.port);
      const response = await send('/@email-notification', { from: 'visitor@example.org', message: 'Hi' }, null);
      expect(response.status).toBe(503);
    } finally {
      await configureMail(smtp().port);
      await silent.close();
    }
  });
}

function databaseEndpoint(suite: () => TestSuite) {
  const t = () => suite();

  it('@database: the original’s fields, the store’s engine, size and documents per collection', async () => {
    const response = await t().request('GET', '/@database');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body['@id']).toBe((await json(await t().request('GET', '/')))['@id'] + '/@database');
    for (const key of ['cache_detail_length', 'cache_length', 'cache_length_bytes', 'cache_size']) {
      expect(body).toHaveProperty(key);
    }
    expect(body.cache_detail_length).toEqual([]);
    expect(['embedded', 'sqlite', 'postgres', 'mongodb']).toContain(body.engine);
    expect(typeof body.db_name).toBe('string');
    expect(body.db_size).toBeGreaterThan(0);
    const collections = body.collections as { name: string; documents: number; indexes: number }[];
    expect(collections.length).toBeGreaterThan(0);
    expect(body.database_size).toBe(collections.reduce((sum, c) => sum + c.documents, 0));
    // The site root and the page made here are content documents; content's collection has its indexes.
    const content = collections.find((c) => c.name === 'content');
    expect(content?.documents).toBeGreaterThanOrEqual(1);
    expect(content?.indexes).toBeGreaterThan(0);
  });

  it('@database counts what is added', async () => {
    const count = async () =>
      ((await json(await t().request('GET', '/@database'))).collections as { name: string; documents: number }[]).find(
        (c) => c.name === 'content',
      )!.documents;
    const before = await count();
    expect((await t().request('POST', '/', { body: { '@type': 'Document', title: 'Counted' } })).status).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('@database: the site’s administrators only (401 anonymous, 403 a member), GET only, the site root only', async () => {
    expect((await t().request('GET', '/@database', { auth: null })).status).toBe(401);
    expect((await t().request('GET', '/@database', { auth: basic('member', 'secret-member') })).status).toBe(403);
    expect((await t().request('GET', '/@database', { auth: basic('siteadmin', 'secret-siteadmin') })).status).toBe(200);
    expect((await t().request('POST', '/@database')).status).toBe(405);
    expect((await t().request('GET', '/page/@database')).status).toBe(404);
  });
}

describe.each([
  ['the neutral names', {}],
  ['ORIGINAL_IDENTIFIERS=true', { ORIGINAL_IDENTIFIERS: 'true' }],
])('mail and database endpoints with %s', (_mode, env) => {
  let t: TestSuite;
  let smtp: MailCatcher;
  beforeAll(async () => {
    smtp = await startMailCatcher();
    t = await startTestSuite({ ...QUOTA_ENV, ...env });
    const setup = [
      await t.request('POST', '/@users', {
        body: { username: 'member', password: 'secret-member', roles: ['Member'] },
      }),
      await t.request('POST', '/@users', {
        body: { username: 'siteadmin', password: 'secret-siteadmin', roles: ['Site Administrator'] },
      }),
      await t.request('POST', '/', { body: { '@type': 'Document', id: 'page', title: 'Page' } }),
    ];
    expect(setup.map((r) => r.status)).toEqual([201, 201, 201]);
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });
  describe('@email-send and @email-notification', () =>
    mailEndpoints(
      () => t,
      () => smtp,
    ));
  describe('@database', () => databaseEndpoint(() => t));
});
