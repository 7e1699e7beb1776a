import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { pollUntil } from '../support/poll';
import { DEFAULT_AMQP_URL, isolatedVhost } from '../support/broker';
import { describeWithBroker } from '../support/broker-tests';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Content rules through the gateway (specification: Content rule, Control panels; addendum §8; transcripts
 * `controlpanels_*rule*` and `rules_*`): their control panel, their assignment to folders, and that they run.
 */

const json = async (response: Response) => (await response.json()) as Record<string, any>;

/** A local SMTP server that keeps what it is sent. */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, mails };
}

/** The site's mail settings pointed at the local SMTP server. */
async function useSmtp(t: TestSuite, port: number): Promise<void> {
  await t.admin('PATCH', '/@registry', {
    'cms.smtp_host': '127.0.0.1',
    'cms.smtp_port': port,
    'cms.email_from_address': 'site@example.org',
  });
}

interface Mail {
  to: string[];
  data: string;
}

/** The scenario: a rule "on publish in folder X, move to Y and e-mail Z" runs once per publication. */
async function publishMovesAndMails(t: TestSuite, mails: Mail[]): Promise<void> {
  const newRule = async (title: string, event: string) =>
    (await json(await t.admin('POST', '/@controlpanels/content-rules', { title, event }))).id as string;
  await t.admin('POST', '/', { '@type': 'Folder', id: 'x', title: 'X' });
  await t.admin('POST', '/', { '@type': 'Folder', id: 'y', title: 'Y' });
  const id = await newRule('Publish moves', 'Workflow state changed');
  const base = `/@controlpanels/content-rules/${id}`;
  await t.admin('POST', `${base}/condition`, { type: 'cms.conditions.WorkflowState', wf_states: ['published'] });
  await t.admin('POST', `${base}/action`, { type: 'cms.actions.Move', target_folder: '/y' });
  await t.admin('POST', `${base}/action`, {
    type: 'cms.actions.Mail',
    subject: 'Published: ${id}',
    recipients: 'z@example.org',
    exclude_actor: false,
    message: 'Now at ${path}',
  });
  await t.admin('POST', `/x/@content-rules/${id}`);

  // Added but not published: the rule is not triggered.
  await t.admin('POST', '/x', { '@type': 'Document', id: 'news', title: 'News' });
  await t.admin('POST', '/x', { '@type': 'Document', id: 'draft', title: 'Draft' });
  await t.admin('POST', '/x/news/@workflow/publish');

  await pollUntil(async () => (await t.request('GET', '/y/news')).status === 200, 15_000, {
    description: 'the published page moved to /y',
  });
  // The old path redirects to the page's new place (addendum §8): it is no longer there.
  const old = await fetch(t.url('/x/news'), { redirect: 'manual' });
  expect([old.status, old.headers.get('location')]).toEqual([302, `${t.suite.publicUrl}/y/news`]);
  const mail = await pollUntil(() => mails.find((m) => m.to.includes('z@example.org')), 15_000, {
    description: 'the mail to z',
  });
  expect(mail.data).toContain('Subject: Published: news');
  expect(mail.data).toContain('Now at /x/news');
  expect((await t.request('GET', '/x/draft')).status).toBe(200);

  // The move's own event (content.moved, with the rule's marker) triggers nothing, nor does a transition of the
  // moved page outside X. Executions run in the order of their events: once a later publication in X has been
  // mailed, anything those triggered would have run before it.
  await t.admin('POST', '/y/news/@workflow/retract');
  await t.admin('POST', '/y/news/@workflow/publish');
  await t.admin('POST', '/x/draft/@workflow/publish');
  await pollUntil(() => mails.some((m) => m.data.includes('Subject: Published: draft')), 15_000);
  expect(mails.filter((m) => m.to.includes('z@example.org'))).toHaveLength(2);
  expect((await t.request('GET', '/y/news')).status).toBe(200);
  expect((await t.request('GET', '/y/draft')).status).toBe(200);
}

describe('content rules', () => {
  let t: TestSuite;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  async function newRule(title: string, event: string, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await t.admin('POST', '/@controlpanels/content-rules', {
      title,
      description: `${title} (test)`,
      event,
      enabled: true,
      cascading: false,
      stop: false,
      ...extra,
    });
    return (await json(response)).id as string;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '2000' });
    await useSmtp(t, smtp.port);
  });
  afterAll(async () => {
    await t.stop();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  describe('the control panel (transcripts controlpanels_*rule*)', () => {
    it('creates a rule: 201 with Location, the rule with its addable actions and conditions', async () => {
      const response = await t.admin('POST', '/@controlpanels/content-rules', {
        cascading: false,
        description: 'Third rule added in the testing setup',
        enabled: true,
        event: 'Comment added',
        stop: false,
        title: 'Third test rule',
      });
      expect(response.status).toBe(201);
      const rule = await json(response);
      expect(response.headers.get('location')).toBe(rule['@id']);
      expect(rule['@id']).toMatch(/\/@controlpanels\/content-rules\/rule-\d+$/);
      expect(rule).toMatchObject({
        actions: [],
        conditions: [],
        event: 'Comment added',
        enabled: true,
        cascading: false,
        stop: false,
        title: 'Third test rule',
        group: 'Content',
      });
      expect(rule.addable_actions.map((a: any) => a.addview)).toEqual([
        'cms.actions.Logger',
        'cms.actions.Notify',
        'cms.actions.Copy',
        'cms.actions.Move',
        'cms.actions.Delete',
        'cms.actions.Workflow',
        'cms.actions.Mail',
        'cms.actions.Versioning',
      ]);
      expect(rule.addable_conditions.map((c: any) => c.addview)).toEqual([
        'cms.conditions.PortalType',
        'cms.conditions.FileExtension',
        'cms.conditions.WorkflowState',
        'cms.conditions.Group',
        'cms.conditions.Role',
      ]);
      const logger = rule.addable_actions[0]['@schema'];
      expect(logger.required).toEqual(['targetLogger', 'loggingLevel', 'message']);
      expect(logger.properties.loggingLevel).toMatchObject({ type: 'integer', default: 20 });
      const notify = rule.addable_actions[1]['@schema'].properties.message_type;
      expect(notify).toMatchObject({ enum: ['info', 'warning', 'error'], default: 'info' });
      expect(rule.addable_actions[6]['@schema'].required).toEqual([
        'subject',
        'recipients',
        'exclude_actor',
        'message',
      ]);
      expect(rule.addable_actions[7]['@schema'].required).toEqual([]);
      expect(rule.addable_conditions[2]['@schema'].properties.wf_states).toMatchObject({
        type: 'array',
        uniqueItems: true,
        factory: 'Multiple Choice',
      });
    });

    it('lists the rules, reads, changes and deletes one', async () => {
      const id = await newRule('Listed', 'Object modified');
      const list = await json(await t.admin('GET', '/@controlpanels/content-rules'));
      expect(list).toMatchObject({ group: 'Content', title: 'Content Rules' });
      expect(list.items[0]).toContainEqual(
        expect.objectContaining({ id, assigned: false, enabled: true, trigger: 'Object modified', title: 'Listed' }),
      );

      const patched = await t.request('PATCH', `/@controlpanels/content-rules/${id}`, {
        body: { title: 'Listed (modified)', enabled: false, event: 'Comment removed', stop: true, cascading: true },
      });
      expect(patched.status).toBe(204);
      expect(await json(await t.admin('GET', `/@controlpanels/content-rules/${id}`))).toMatchObject({
        id,
        title: 'Listed (modified)',
        enabled: false,
        event: 'Comment removed',
        stop: true,
        cascading: true,
      });

      expect((await t.request('DELETE', `/@controlpanels/content-rules/${id}`)).status).toBe(204);
      expect((await t.request('GET', `/@controlpanels/content-rules/${id}`)).status).toBe(404);
    });

    it('refuses an unknown event and a bad body (400), and is for site managers only', async () => {
      const bad = await t.request('POST', '/@controlpanels/content-rules', { body: { title: 'x', event: 'Nope' } });
      expect(bad.status).toBe(400);
      const missing = await t.request('POST', '/@controlpanels/content-rules', { body: { event: 'Object added' } });
      expect(missing.status).toBe(400);
      expect((await t.request('GET', '/@controlpanels/content-rules', { auth: null })).status).toBe(401);
    });

    it('adds, reads, changes, moves and removes actions and conditions', async () => {
      const id = await newRule('Elements', 'Object added to this container');
      const base = `/@controlpanels/content-rules/${id}`;
      const logger = await t.admin('POST', `${base}/action`, {
        type: 'cms.actions.Logger',
        targetLogger: 'CMS',
        loggingLevel: 20,
        message: 'text_contentrules_logger_message',
      });
      expect(logger.status).toBe(201);
      expect(logger.headers.get('location')).toBe(t.suite.publicUrl + base);
      const moved = await json(
        await t.admin('POST', `${base}/action`, { type: 'cms.actions.Move', target_folder: '/folder' }),
      );
      expect(moved.actions).toEqual([
        expect.objectContaining({ idx: 0, first: true, last: false, title: 'Logger' }),
        expect.objectContaining({
          idx: 1,
          first: false,
          last: true,
          title: 'Move to folder',
          summary: 'Move to folder /folder',
        }),
      ]);
      const action = await json(await t.admin('GET', `${base}/action/1`));
      expect(action).toMatchObject({ '@id': `${t.suite.publicUrl}${base}/action/1`, target_folder: '/folder' });
      expect(action['@schema'].required).toEqual(['target_folder']);

      expect((await t.request('PATCH', `${base}/action/0`, { body: { targetLogger: 'CMS6' } })).status).toBe(204);
      expect((await json(await t.admin('GET', `${base}/action/0`))).targetLogger).toBe('CMS6');
      expect((await t.request('PATCH', `${base}/action/1`, { body: { 'form.button.Move': '_move_up' } })).status).toBe(
        204,
      );
      expect((await json(await t.admin('GET', base))).actions.map((a: any) => a.title)).toEqual([
        'Move to folder',
        'Logger',
      ]);

      const condition = await t.admin('POST', `${base}/condition`, {
        type: 'cms.conditions.WorkflowState',
        wf_states: ['pending', 'private'],
      });
      expect(condition.status).toBe(201);
      await t.admin('POST', `${base}/condition`, { type: 'cms.conditions.PortalType', check_types: ['Document'] });
      expect(
        (await t.request('PATCH', `${base}/condition/0`, { body: { 'form.button.Move': '_move_down' } })).status,
      ).toBe(204);
      const rule = await json(await t.admin('GET', base));
      expect(rule.conditions.map((c: any) => c.summary)).toEqual([
        'Content types are: Document',
        'Workflow states are: pending, private',
      ]);
      expect((await json(await t.admin('GET', `${base}/condition/1`))).wf_states).toEqual(['pending', 'private']);

      expect((await t.request('DELETE', `${base}/condition/0`)).status).toBe(204);
      expect((await t.request('DELETE', `${base}/action/0`)).status).toBe(204);
      const after = await json(await t.admin('GET', base));
      expect(after.conditions).toHaveLength(1);
      expect(after.actions.map((a: any) => a.title)).toEqual(['Logger']);

      expect((await t.request('POST', `${base}/action`, { body: { type: 'cms.actions.Nope' } })).status).toBe(400);
      expect(
        (await t.request('POST', `${base}/condition`, { body: { type: 'cms.conditions.PortalType' } })).status,
      ).toBe(400);
      expect((await t.request('GET', `${base}/action/9`)).status).toBe(404);
    });
  });

  describe('@content-rules on a folder (transcripts rules_*)', () => {
    it('assigns rules, lists them assigned, acquired and assignable, and changes and removes assignments', async () => {
      const one = await newRule('First test rule', 'Comment added');
      const two = await newRule('Second test rule', 'Comment added');
      await t.admin('POST', '/', { '@type': 'Folder', id: 'rules-here', title: 'Here' });
      await t.admin('POST', '/rules-here', { '@type': 'Folder', id: 'below', title: 'Below' });

      expect(await json(await t.admin('POST', `/rules-here/@content-rules/${one}`))).toEqual({
        message: `Successfully assigned the rule ${one}`,
      });
      await t.admin('POST', `/rules-here/@content-rules/${two}`);
      let listing = (await json(await t.admin('GET', '/rules-here/@content-rules')))['content-rules'];
      expect(listing.assigned_rules.map((r: any) => r.id)).toEqual([one, two]);
      expect(listing.assigned_rules[0]).toMatchObject({
        bubbles: false,
        enabled: true,
        global_enabled: true,
        title: 'First test rule',
        trigger: 'Comment added',
        url: `${t.suite.publicUrl}/++rule++${one}/@@manage-elements`,
      });
      expect(listing.assignable_rules.map((r: any) => r.id)).not.toContain(one);
      expect(listing.acquired_rules).toEqual([]);
      // Not yet applied to subfolders: nothing acquired below.
      expect(
        (await json(await t.admin('GET', '/rules-here/below/@content-rules')))['content-rules'].acquired_rules,
      ).toEqual([]);

      const bubble = await json(
        await t.admin('PATCH', '/rules-here/@content-rules', { 'form.button.Bubble': true, rule_ids: [one, two] }),
      );
      expect(bubble).toEqual({ message: `Successfully applied ['${one}', '${two}'] to subfolders` });
      const below = (await json(await t.admin('GET', '/rules-here/below/@content-rules')))['content-rules'];
      expect(below.acquired_rules.map((r: any) => r.id)).toEqual([one, two]);
      expect(below.assigned_rules).toEqual([]);

      expect(
        await json(
          await t.admin('PATCH', '/rules-here/@content-rules', { 'form.button.Disable': true, rule_ids: [one] }),
        ),
      ).toEqual({ message: `Successfully disabled rules ['${one}']` });
      expect(
        await json(await t.admin('PATCH', '/rules-here/@content-rules', { operation: 'move_up', rule_id: two })),
      ).toEqual({ message: 'Successfully applied the move_up' });
      listing = (await json(await t.admin('GET', '/rules-here/@content-rules')))['content-rules'];
      expect(listing.assigned_rules.map((r: any) => [r.id, r.enabled, r.bubbles])).toEqual([
        [two, true, true],
        [one, false, true],
      ]);
      const panel = await json(await t.admin('GET', '/@controlpanels/content-rules'));
      expect(panel.items[0].find((r: any) => r.id === one).assigned).toBe(true);

      expect((await t.request('DELETE', '/rules-here/@content-rules', { body: { rule_ids: [one] } })).status).toBe(204);
      listing = (await json(await t.admin('GET', '/rules-here/@content-rules')))['content-rules'];
      expect(listing.assigned_rules.map((r: any) => r.id)).toEqual([two]);
      expect(listing.assignable_rules.map((r: any) => r.id)).toContain(one);

      expect((await t.request('POST', '/rules-here/@content-rules/rule-999')).status).toBe(404);
      expect((await t.request('GET', '/no-such-folder/@content-rules')).status).toBe(404);
    });
  });

  describe('rules run', () => {
    it('copies, transitions and deletes; a comment added triggers a rule on the commented page', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'drop', title: 'Drop' });
      await t.admin('POST', '/', { '@type': 'Folder', id: 'copies', title: 'Copies' });
      // On add in /drop: copy to /copies, then delete the original.
      const copyDelete = await newRule('Copy then delete', 'Object added to this container');
      await t.admin('POST', `/@controlpanels/content-rules/${copyDelete}/action`, {
        type: 'cms.actions.Copy',
        target_folder: '/copies',
      });
      await t.admin('POST', `/@controlpanels/content-rules/${copyDelete}/action`, { type: 'cms.actions.Delete' });
      await t.admin('POST', `/drop/@content-rules/${copyDelete}`);
      await t.admin('POST', '/drop', { '@type': 'Document', id: 'letter', title: 'Letter' });
      await pollUntil(async () => (await t.request('GET', '/drop/letter')).status === 404, 15_000, {
        description: 'the original deleted',
      });
      expect((await t.request('GET', '/copies/letter')).status).toBe(200);

      // On a comment added to a page in /talk: the page is published.
      await t.admin('PATCH', '/@registry', {
        'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled': true,
      });
      await t.admin('POST', '/', { '@type': 'Folder', id: 'talk', title: 'Talk' });
      await t.admin('POST', '/talk', { '@type': 'Document', id: 'topic', title: 'Topic' });
      await t.admin('PATCH', '/talk/topic', { allow_discussion: true });
      const onComment = await newRule('Comment publishes', 'Comment added');
      await t.admin('POST', `/@controlpanels/content-rules/${onComment}/action`, {
        type: 'cms.actions.Workflow',
        transition: 'publish',
      });
      await t.admin('POST', `/talk/@content-rules/${onComment}`);
      await t.admin('POST', '/talk/topic/@comments/', { text: 'First!' });
      await pollUntil(
        async () => (await json(await t.admin('GET', '/talk/topic'))).review_state === 'published',
        15_000,
        { description: 'the commented page published' },
      );
    });

    it('keeps a version with its comment, and mails everyone but the actor with exclude_actor', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'kept', title: 'Kept' });
      await t.admin('POST', '/@users', {
        username: 'edith',
        password: 'secret-edith',
        email: 'Edith@example.org',
        roles: ['Manager'],
      });
      const rule = await newRule('Publish keeps a version', 'Workflow state changed');
      await t.admin('POST', `/@controlpanels/content-rules/${rule}/action`, {
        type: 'cms.actions.Versioning',
        comment: 'Published version',
      });
      await t.admin('POST', `/@controlpanels/content-rules/${rule}/action`, {
        type: 'cms.actions.Mail',
        subject: 'Kept: ${id}',
        recipients: 'edith@example.org, watcher@example.org',
        exclude_actor: true,
        message: 'Published at ${path}',
      });
      await t.admin('POST', `/kept/@content-rules/${rule}`);
      await t.admin('POST', '/kept', { '@type': 'Document', id: 'memo', title: 'Memo' });
      const edith = { auth: `Basic ${Buffer.from('edith:secret-edith').toString('base64')}` };
      expect((await t.request('POST', '/kept/memo/@workflow/publish', edith)).status).toBe(200);

      const mail = await pollUntil(() => smtp.mails.find((m) => m.data.includes('Subject: Kept: memo')), 15_000, {
        description: 'the mail about memo',
      });
      expect(mail.to).toEqual(['watcher@example.org']);
      // The version comes before the mail in the rule: once mailed, it is kept (nothing changed since the first).
      const history = (await json(await t.admin('GET', '/kept/memo/@history'))) as unknown as {
        type: string;
        comments: string;
        version?: number;
      }[];
      const versions = history.filter((entry) => entry.type === 'versioning');
      expect(versions.map((v) => [v.version, v.comments])).toEqual([
        [1, 'Published version'],
        [0, 'Initial version'],
      ]);
    });

    it('on publish in folder X: moves the page to Y and e-mails Z, once', async () => {
      await publishMovesAndMails(t, smtp.mails);
    });

    it('runs only enabled assignments, applies to subfolders with bubbles, and stops after a rule with stop', async () => {
      await t.admin('POST', '/', { '@type': 'Folder', id: 'inbox', title: 'Inbox' });
      await t.admin('POST', '/inbox', { '@type': 'Folder', id: 'sub', title: 'Sub' });
      await t.admin('POST', '/', { '@type': 'Folder', id: 'archive', title: 'Archive' });
      await t.admin('POST', '/', { '@type': 'Folder', id: 'other', title: 'Other' });
      const first = await newRule('Added goes to archive', 'Object added to this container', { stop: true });
      await t.admin('POST', `/@controlpanels/content-rules/${first}/condition`, {
        type: 'cms.conditions.PortalType',
        check_types: ['News Item'],
      });
      await t.admin('POST', `/@controlpanels/content-rules/${first}/action`, {
        type: 'cms.actions.Move',
        target_folder: '/archive',
      });
      const second = await newRule('Added goes to other', 'Object added to this container');
      await t.admin('POST', `/@controlpanels/content-rules/${second}/action`, {
        type: 'cms.actions.Move',
        target_folder: '/other',
      });
      await t.admin('POST', `/inbox/@content-rules/${first}`);
      await t.admin('POST', `/inbox/@content-rules/${second}`);

      // A Document: the first rule's condition fails, the second moves it.
      await t.admin('POST', '/inbox', { '@type': 'Document', id: 'page', title: 'Page' });
      await pollUntil(async () => (await t.request('GET', '/other/page')).status === 200, 15_000);
      // A News Item: the first rule moves it and stops; the second does not run.
      await t.admin('POST', '/inbox', { '@type': 'News Item', id: 'item', title: 'Item' });
      await pollUntil(async () => (await t.request('GET', '/archive/item')).status === 200, 15_000);

      // Not applied to subfolders yet: a page in /inbox/sub stays.
      await t.admin('POST', '/inbox/sub', { '@type': 'Document', id: 'stays', title: 'Stays' });
      await t.admin('PATCH', '/inbox/@content-rules', { 'form.button.Bubble': true, rule_ids: [second] });
      await t.admin('POST', '/inbox/sub', { '@type': 'Document', id: 'goes', title: 'Goes' });
      await pollUntil(async () => (await t.request('GET', '/other/goes')).status === 200, 15_000);
      expect((await t.request('GET', '/inbox/sub/stays')).status).toBe(200);

      // Disabled here: nothing moves.
      await t.admin('PATCH', '/inbox/@content-rules', { 'form.button.Disable': true, rule_ids: [first, second] });
      await t.admin('POST', '/inbox', { '@type': 'Document', id: 'quiet', title: 'Quiet' });
      // Executions run in the order of their events: once a later one has run, an earlier one would have too.
      await t.admin('PATCH', '/inbox/@content-rules', { 'form.button.Enable': true, rule_ids: [second] });
      await t.admin('POST', '/inbox', { '@type': 'Document', id: 'loud', title: 'Loud' });
      await pollUntil(async () => (await t.request('GET', '/other/loud')).status === 200, 15_000);
      expect((await t.request('GET', '/inbox/quiet')).status).toBe(200);
    });
  });
});

describeWithBroker('content rules over RabbitMQ', () => {
  let t: TestSuite;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let vhost: ReturnType<typeof isolatedVhost>;

  beforeAll(async () => {
    smtp = await startSmtp();
    vhost = isolatedVhost(process.env.AMQP_URL || DEFAULT_AMQP_URL);
    t = await startTestSuite({ AMQP_URL: vhost.url, EVENT_FLUSH_TIMEOUT_MS: '2000' });
    await useSmtp(t, smtp.port);
  });
  afterAll(async () => {
    await t?.stop();
    vhost?.dispose();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  it('on publish in folder X: moves the page to Y and e-mails Z, once', async () => {
    await publishMovesAndMails(t, smtp.mails);
  });
});
