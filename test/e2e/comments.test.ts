import { rmSync } from 'node:fs';
import { openServiceStore } from '@cms/shared/adapters';
import { GIF } from '../support/images';
import { startMailCatcher } from '../support/mail-catcher';
import { pollUntil } from '../support/poll';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@comments` through the gateway (specification: Comment, Comments, Comment moderation state; addendum §3, §4,
 * §8; transcripts comments_*): switched on by the registry and the object, thread order, authors, who may edit
 * and delete, anonymous comments, moderation, batching, limits, and removal with the content.
 */

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const SETTINGS = 'cms.app.discussion.interfaces.IDiscussionSettings';
const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

describe('comments', () => {
  let t: TestSuite;
  const as = (user: string | null) => ({ auth: user === null ? null : basic(user) });
  let n = 0;

  const setting = (name: string, value: unknown) => t.admin('PATCH', '/@registry', { [`${SETTINGS}.${name}`]: value });

  /** A fresh published page that allows discussion. */
  async function page(allow: boolean | null = true): Promise<string> {
    const id = `page-${++n}`;
    await t.admin('POST', '/', { '@type': 'Document', id, title: `Page ${n}` });
    await t.admin('POST', `/${id}/@workflow/publish`);
    if (allow !== null) await t.admin('PATCH', `/${id}`, { allow_discussion: allow });
    return `/${id}`;
  }

  /** Posts a comment (or a reply) and answers its id. */
  async function comment(doc: string, text: string, user: string | null = null, parent = ''): Promise<string> {
    const response = await t.request('POST', `${doc}/@comments/${parent}`, {
      body: { text },
      auth: user === null ? undefined : basic(user),
    });
    expect(response.status).toBe(204);
    const location = response.headers.get('location') ?? '';
    expect(location).toMatch(new RegExp(`^${t.suite.publicUrl}${doc}/@comments/\\d+$`));
    return location.split('/').pop() as string;
  }

  const list = async (doc: string, user: string | null = null, query = '') =>
    json(await t.request('GET', `${doc}/@comments${query}`, as(user)));

  beforeAll(async () => {
    // A write answers once its events are handled (in-process bus), however slow the machine: the deletion test
    // below reads the discussion store right after a DELETE.
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '60000', COMMENT_RATE_LIMIT: '20' });
    for (const [username, roles] of [
      ['ann', ['Member']],
      ['bob', ['Member']],
      ['rev', ['Reviewer']],
      ['spam', ['Member']],
    ] as const) {
      await t.admin('POST', '/@users', {
        username,
        password: `secret-${username}`,
        email: `${username}@example.org`,
        fullname: `${username[0].toUpperCase()}${username.slice(1)} Example`,
        roles,
      });
    }
  });
  let stopped = false;
  afterAll(async () => {
    if (!stopped) await t.stop();
  });

  it('is off on a new site: 404 on every method, while the content itself is still served', async () => {
    const doc = await page();
    expect((await t.request('GET', doc)).status).toBe(200);
    for (const [method, path] of [
      ['GET', `${doc}/@comments`],
      ['POST', `${doc}/@comments/`],
      ['PATCH', `${doc}/@comments/1`],
      ['DELETE', `${doc}/@comments/1`],
    ]) {
      const response = await t.request(method, path, {
        body: method === 'POST' || method === 'PATCH' ? { text: 'x' } : undefined,
      });
      expect(response.status).toBe(404);
      expect(await json(response)).toMatchObject({ type: 'NotFound' });
    }
    // The object says what `@comments` will answer (as the original serializes it), not its stored choice: a client
    // (Volto) offers comments where it is true, and asked them of a page that allowed them while the site did not.
    expect(await json(await t.request('GET', doc))).toMatchObject({ allow_discussion: false });
  });

  it("shows in `allow_discussion` whether comments are on for the object: the site's switch, then its own choice", async () => {
    const [allowed, unset, refused] = [await page(true), await page(null), await page(false)];
    const shown = async (doc: string) => (await json(await t.request('GET', doc))).allow_discussion;
    await setting('globally_enabled', true);
    try {
      expect([await shown(allowed), await shown(unset), await shown(refused)]).toEqual([true, false, false]);
    } finally {
      await setting('globally_enabled', false);
    }
    expect(await shown(allowed)).toBe(false);
  });

  it('is on where the registry switches it on and the object allows it (addendum §3)', async () => {
    await setting('globally_enabled', true);
    const allowed = await page(true);
    const unset = await page(null);
    const refused = await page(false);
    expect(await list(allowed, 'ann')).toEqual({
      '@id': `${t.suite.publicUrl}${allowed}/@comments`,
      items: [],
      items_total: 0,
      permissions: { can_reply: true, view_comments: true },
    });
    // No built-in type allows discussion where the object leaves it unset.
    expect((await t.request('GET', `${unset}/@comments`)).status).toBe(404);
    expect((await t.request('GET', `${refused}/@comments`)).status).toBe(404);
    expect((await t.request('GET', refused)).status).toBe(200);
    // The site root allows none.
    expect((await t.request('GET', '/@comments')).status).toBe(404);
  });

  it('lists the conversation in thread order with the transcript shape', async () => {
    const doc = await page();
    const first = await comment(doc, 'Comment 1', 'ann');
    const second = await comment(doc, 'Comment 2', 'bob');
    const reply = await comment(doc, 'Comment 1.1', 'bob', first);
    const nested = await comment(doc, 'Comment 1.1.1', 'ann', reply);
    const body = await list(doc, 'ann');
    expect(body.items_total).toBe(4);
    expect(body.batching).toBeUndefined();
    expect(body.items.map((c: any) => c.text.data)).toEqual(['Comment 1', 'Comment 1.1', 'Comment 1.1.1', 'Comment 2']);
    expect(new Set(body.items.map((c: any) => c.comment_id)).size).toBe(4);
    const base = `${t.suite.publicUrl}${doc}/@comments`;
    expect(body.items[0]).toEqual({
      '@id': `${base}/${first}`,
      '@parent': null,
      '@type': 'Discussion Item',
      author_image: null,
      author_name: 'Ann Example',
      author_username: 'ann',
      can_reply: true,
      comment_id: first,
      creation_date: expect.stringMatching(DATE),
      in_reply_to: null,
      is_deletable: true,
      is_editable: true,
      modification_date: expect.stringMatching(DATE),
      text: { data: 'Comment 1', 'mime-type': 'text/plain' },
      user_notification: null,
    });
    expect(body.items[1]).toMatchObject({ '@parent': `${base}/${first}`, in_reply_to: first, comment_id: reply });
    expect(body.items[2]).toMatchObject({ '@parent': `${base}/${reply}`, in_reply_to: reply, comment_id: nested });
    expect(body.items[3]).toMatchObject({ in_reply_to: null, comment_id: second, author_name: 'Bob Example' });
    // Anyone who may view the object sees its published comments; only who may reply gets can_reply.
    const anonymous = await list(doc);
    expect(anonymous.items_total).toBe(4);
    expect(anonymous.permissions).toEqual({ can_reply: false, view_comments: true });
    expect(anonymous.items[0]).toMatchObject({ can_reply: false, is_editable: false, is_deletable: false });
  });

  it('stores text as sent and shows the author portrait URL from identity', async () => {
    const doc = await page();
    const script = '<script>alert(1)</script> & "quotes"';
    await t.admin('PATCH', '/@users/ann', {
      portrait: { data: GIF.toString('base64'), encoding: 'base64', 'content-type': 'image/gif' },
    });
    await comment(doc, script, 'ann');
    const [item] = (await list(doc)).items;
    expect(item.text).toEqual({ data: script, 'mime-type': 'text/plain' });
    expect(item.author_image).toBe(`${t.suite.publicUrl}/@portrait/ann`);
    await t.admin('PATCH', '/@users/ann', { portrait: null });
  });

  it('lets the author edit; the author and moderators delete, with the replies', async () => {
    const doc = await page();
    const own = await comment(doc, 'Mine', 'ann');
    const reply = await comment(doc, 'A reply', 'bob', own);
    await comment(doc, 'A reply to the reply', 'ann', reply);
    const other = await comment(doc, 'Kept', 'bob');

    const seen = (body: Record<string, any>, id: string) => body.items.find((c: any) => c.comment_id === id);
    expect(seen(await list(doc, 'ann'), own)).toMatchObject({ is_editable: true, is_deletable: true });
    expect(seen(await list(doc, 'bob'), own)).toMatchObject({ is_editable: false, is_deletable: false });
    expect(seen(await list(doc), own)).toMatchObject({ is_editable: false, is_deletable: false });
    expect(seen(await list(doc, 'rev'), own)).toMatchObject({ is_editable: false, is_deletable: true });

    expect((await t.request('PATCH', `${doc}/@comments/${own}`, { ...as('bob'), body: { text: 'No' } })).status).toBe(
      403,
    );
    expect((await t.request('PATCH', `${doc}/@comments/${own}`, { auth: null, body: { text: 'No' } })).status).toBe(
      401,
    );
    expect((await t.request('PATCH', `${doc}/@comments/${own}`, { body: { text: 'No' } })).status).toBe(403);
    const edited = await t.request('PATCH', `${doc}/@comments/${own}`, {
      ...as('ann'),
      body: { text: 'Mine, edited' },
    });
    expect(edited.status).toBe(204);
    expect(edited.headers.get('location')).toBe(`${t.suite.publicUrl}${doc}/@comments/${own}`);
    expect(seen(await list(doc), own).text.data).toBe('Mine, edited');
    expect((await t.request('PATCH', `${doc}/@comments/${own}`, { ...as('ann'), body: {} })).status).toBe(400);

    expect((await t.request('DELETE', `${doc}/@comments/${own}`, as('bob'))).status).toBe(403);
    expect((await t.request('DELETE', `${doc}/@comments/${own}`, as('ann'))).status).toBe(204);
    expect((await list(doc)).items.map((c: any) => c.comment_id)).toEqual([other]);
    // Gone with its parent: the replies answer 404 as any unknown comment.
    expect((await t.request('DELETE', `${doc}/@comments/${reply}`, as('bob'))).status).toBe(404);
    expect((await t.request('PATCH', `${doc}/@comments/999`, { ...as('ann'), body: { text: 'x' } })).status).toBe(404);
    expect((await t.request('POST', `${doc}/@comments/${own}`, { ...as('ann'), body: { text: 'x' } })).status).toBe(
      404,
    );
    // A moderator deletes someone else's comment.
    expect((await t.request('DELETE', `${doc}/@comments/${other}`, as('rev'))).status).toBe(204);
    expect((await list(doc)).items_total).toBe(0);
  });

  it('takes anonymous comments only where the registry allows them', async () => {
    const doc = await page();
    const anonymous = (body: unknown) => t.request('POST', `${doc}/@comments/`, { auth: null, body });
    const off = await anonymous({ text: 'Hello', author_name: 'Visitor', author_email: 'v@example.org' });
    expect(off.status).toBe(401);
    expect(off.headers.get('www-authenticate')).toMatch(/^Basic/);
    await setting('anonymous_comments', true);
    try {
      expect((await anonymous({ text: 'Hello' })).status).toBe(400);
      expect((await anonymous({ text: 'Hello', author_name: 'Visitor' })).status).toBe(400);
      const on = await anonymous({ text: 'Hello', author_name: 'Visitor', author_email: 'v@example.org' });
      expect(on.status).toBe(204);
      const body = await list(doc, 'ann');
      expect(body.items[0]).toMatchObject({
        author_name: 'Visitor',
        author_username: null,
        author_image: null,
        is_editable: false,
        is_deletable: false,
      });
      expect(JSON.stringify(body)).not.toContain('v@example.org');
      expect((await list(doc)).permissions).toEqual({ can_reply: true, view_comments: true });
    } finally {
      await setting('anonymous_comments', false);
    }
  });

  it('holds comments for moderation: visible to their author and moderators until approved', async () => {
    const doc = await page();
    await setting('moderation_enabled', true);
    let held: string;
    let rejected: string;
    let own: string;
    try {
      held = await comment(doc, 'Please approve', 'ann');
      rejected = await comment(doc, 'Spam', 'bob');
      // A moderator's own comment waits for approval too (addendum §8).
      own = await comment(doc, 'From the reviewer', 'rev');
    } finally {
      await setting('moderation_enabled', false);
    }
    const ids = async (user: string | null) => (await list(doc, user)).items.map((c: any) => c.comment_id);
    expect(await ids(null)).toHaveLength(0);
    expect((await list(doc, 'rev')).items.find((c: any) => c.comment_id === own)).toMatchObject({
      review_state: 'pending',
    });
    expect(await ids('bob')).toEqual([rejected, ...(await ids(null))].sort());
    expect(await ids('ann')).toContain(held);
    const moderator = await list(doc, 'rev');
    expect(moderator.items_total).toBe(3);
    expect(moderator.items.find((c: any) => c.comment_id === held)).toMatchObject({ review_state: 'pending' });
    expect((await list(doc, 'ann')).items[0].review_state).toBeUndefined();

    const approve = (id: string, user: string, transition = 'publish') =>
      t.request('POST', `${doc}/@comments/${id}/@workflow/${transition}`, as(user));
    expect((await approve(held, 'ann')).status).toBe(403);
    expect((await t.request('POST', `${doc}/@comments/${held}/@workflow/publish`, { auth: null })).status).toBe(401);
    expect((await approve(held, 'rev', 'retract')).status).toBe(400);
    const approved = await approve(held, 'rev');
    expect(approved.status).toBe(200);
    expect(await json(approved)).toMatchObject({ action: 'publish', review_state: 'published' });
    expect(await ids(null)).toContain(held);
    expect((await approve(held, 'rev')).status).toBe(400);

    expect((await approve(rejected, 'rev', 'reject')).status).toBe(200);
    expect(await ids(null)).not.toContain(rejected);
    expect((await list(doc, 'rev')).items.find((c: any) => c.comment_id === rejected)).toMatchObject({
      review_state: 'rejected',
    });
  });

  it('batches at 25', async () => {
    const doc = await page();
    for (let i = 0; i < 27; i++) await comment(doc, `Comment ${i}`);
    const first = await list(doc, 'ann');
    expect(first.items).toHaveLength(25);
    expect(first.items_total).toBe(27);
    expect(first.batching).toMatchObject({ next: `${t.suite.publicUrl}${doc}/@comments?b_start=25` });
    const second = await list(doc, 'ann', '?b_start=25');
    expect(second.items.map((c: any) => c.text.data)).toEqual(['Comment 25', 'Comment 26']);
    expect((await t.request('GET', `${doc}/@comments?b_size=x`)).status).toBe(400);
  });

  it('limits the length of a comment (400, or 413 for a body no comment fits) and the rate per user', async () => {
    const doc = await page();
    await setting('max_comment_length', 50);
    try {
      const post = (text: string) => t.request('POST', `${doc}/@comments/`, { ...as('ann'), body: { text } });
      expect((await post('x'.repeat(50))).status).toBe(204);
      const long = await post('x'.repeat(51));
      expect(long.status).toBe(400);
      expect(await json(long)).toMatchObject({ type: 'BadRequest', errors: [{ field: 'text' }] });
      const huge = await post('x'.repeat(20_000));
      expect(huge.status).toBe(413);
      expect(await json(huge)).toMatchObject({ type: 'PayloadTooLarge' });
      expect((await post('   ')).status).toBe(400);
    } finally {
      await setting('max_comment_length', 10000);
    }
    for (let i = 0; i < 20; i++) await comment(doc, `Spam ${i}`, 'spam');
    const limited = await t.request('POST', `${doc}/@comments/`, { ...as('spam'), body: { text: 'One more' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    // Others are not held back by it.
    await comment(doc, 'Still welcome', 'bob');
  });

  it('keeps the registry text transform and the reply notification choice with each comment', async () => {
    const doc = await page();
    await setting('text_transform', 'text/x-web-intelligent');
    await setting('user_notification_enabled', true);
    try {
      const response = await t.request('POST', `${doc}/@comments/`, {
        ...as('bob'),
        body: { text: 'Tell me', user_notification: true },
      });
      expect(response.status).toBe(204);
    } finally {
      await setting('text_transform', 'text/plain');
      await setting('user_notification_enabled', false);
    }
    const [item] = (await list(doc)).items;
    expect(item).toMatchObject({
      text: { data: 'Tell me', 'mime-type': 'text/x-web-intelligent' },
      user_notification: true,
    });
  });

  it('refuses malformed requests with 400 or 404, never more', async () => {
    const doc = await page();
    const id = await comment(doc, 'Target', 'ann');
    const send = (method: string, path: string, body?: unknown) =>
      t.request(method, `${doc}/@comments${path}`, { ...as('ann'), body });
    expect((await send('POST', '/', { text: 5 })).status).toBe(400);
    expect((await send('POST', '/', { text: 'x', extra: 1 })).status).toBe(400);
    expect((await send('POST', '/', '{"text": ')).status).toBe(400);
    expect((await send('POST', '/', { text: 'x', author_email: 'not an address' })).status).toBe(400);
    expect((await send('PATCH', `/${id}`, { text: ['x'] })).status).toBe(400);
    expect((await send('GET', `/${id}`)).status).toBe(404);
    expect((await send('DELETE', '/')).status).toBe(404);
    expect((await send('DELETE', '/constructor')).status).toBe(404);
    expect((await send('DELETE', `/${'9'.repeat(41)}`)).status).toBe(400);
    expect((await send('POST', `/${id}/@workflow/toString`, {})).status).toBe(403);
    const admin = await t.request('POST', `${doc}/@comments/${id}/@workflow/toString`);
    expect(admin.status).toBe(400);
    expect((await t.request('POST', `${doc}/@comments/404/@workflow/publish`)).status).toBe(404);
    expect((await list(doc)).items.map((c: any) => c.comment_id)).toEqual([id]);
  });

  it('builds comment URLs from the content path, so they follow a rename', async () => {
    const doc = await page();
    const id = await comment(doc, 'Travelling', 'bob');
    await t.admin('PATCH', doc, { id: `${doc.slice(1)}-renamed` });
    const body = await list(`${doc}-renamed`);
    expect(body['@id']).toBe(`${t.suite.publicUrl}${doc}-renamed/@comments`);
    expect(body.items[0]['@id']).toBe(`${t.suite.publicUrl}${doc}-renamed/@comments/${id}`);
    // The old path answers a redirect to the conversation at the new one (addendum §8).
    const old = await fetch(t.url(`${doc}/@comments`), { redirect: 'manual' });
    expect([old.status, old.headers.get('location')]).toEqual([302, `${t.suite.publicUrl}${doc}-renamed/@comments`]);
  });

  it('answers 404 on the conversation paths of the transcripts that do not exist', async () => {
    const doc = await page();
    for (const [method, path] of [
      ['GET', `${doc}/@conversations/default/@comments/1`],
      ['POST', `${doc}/@conversations/default/@comments/`],
      ['DELETE', `${doc}/@conversations/default`],
    ]) {
      expect((await t.request(method, path, { body: method === 'POST' ? { comment: 'x' } : undefined })).status).toBe(
        404,
      );
    }
  });

  it("moderates at a comment's address as search returns it (++conversation++default), as Volto does", async () => {
    await setting('globally_enabled', true);
    const doc = await page();
    await setting('moderation_enabled', true);
    let held: string, spam: string, gone: string;
    try {
      held = await comment(doc, 'Approve me', 'ann');
      spam = await comment(doc, 'Reject me', 'bob');
      gone = await comment(doc, 'Delete me', 'bob');
    } finally {
      await setting('moderation_enabled', false);
    }
    const at = (id: string, rest = '') => `${doc}/++conversation++default/${id}${rest}`;
    expect((await t.request('POST', at(held, '/@workflow/publish'), as('ann'))).status).toBe(403);
    const approved = await t.request('POST', at(held, '/@workflow/publish'), as('rev'));
    expect(approved.status).toBe(200);
    expect(await json(approved)).toMatchObject({ action: 'publish', review_state: 'published' });
    expect((await t.request('POST', `/++api++${at(spam, '/@workflow/reject')}`, as('rev'))).status).toBe(200);
    expect((await t.request('DELETE', at(gone), as('rev'))).status).toBe(204);
    const states = (await list(doc, 'rev')).items.map((c: any) => [c.comment_id, c.review_state]);
    expect(states).toEqual([
      [held, 'published'],
      [spam, 'rejected'],
    ]);
    // Only there: the other methods and forms find nothing.
    for (const [method, path] of [
      ['GET', at(held)],
      ['PATCH', at(held)],
      ['POST', at(held)],
      ['GET', `${doc}/++conversation++default`],
      ['DELETE', `${doc}/++conversation++default`],
      ['GET', at(held, '/@workflow/publish')],
    ]) {
      const response = await t.request(method, path, { body: method === 'GET' ? undefined : { text: 'x' } });
      expect([method, path, response.status]).toEqual([method, path, 404]);
    }
    expect((await list(doc, 'rev')).items).toHaveLength(2);
  });

  it('mails the replied-to author and the moderator through the mail settings, once each', async () => {
    const smtp = await startMailCatcher();
    const registry = (values: Record<string, unknown>) => t.admin('PATCH', '/@registry', values);
    await registry({
      'cms.smtp_host': '127.0.0.1',
      'cms.smtp_port': smtp.port,
      'cms.email_from_address': 'site@example.org',
      'cms.email_from_name': 'The Site',
    });
    await setting('globally_enabled', true);
    await setting('user_notification_enabled', true);
    await setting('moderator_notification_enabled', true);
    await setting('moderator_email', 'moderator@example.org');
    try {
      const doc = await page();
      const post = async (user: string, body: Record<string, unknown>, parent = '') => {
        const response = await t.request('POST', `${doc}/@comments/${parent}`, { ...as(user), body });
        expect(response.status).toBe(204);
        return response.headers.get('location') as string;
      };
      // A signed-in author is mailed at the address identity has for her.
      const askingUrl = await post('ann', { text: 'Tell me', user_notification: true });
      const asking = askingUrl.split('/').pop() as string;
      // Her own reply tells her nothing; bob's does.
      await post('ann', { text: 'Me again' }, asking);
      const replyUrl = await post('bob', { text: 'Here is a reply' }, asking);
      const mailTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
      await pollUntil(() => mailTo('ann@example.org').length > 0, 10_000);
      const [reply] = mailTo('ann@example.org');
      expect(reply.from).toBe('site@example.org');
      expect(reply.subject).toBe('A reply to your comment has been posted');
      expect(reply.text).toContain(replyUrl);
      expect(reply.text).toContain('Here is a reply');

      // A comment held for moderation is announced to the moderator; its reply notification waits for approval.
      await setting('moderation_enabled', true);
      let heldUrl: string;
      try {
        heldUrl = await post('bob', { text: 'Held back' }, asking);
      } finally {
        await setting('moderation_enabled', false);
      }
      await pollUntil(() => mailTo('moderator@example.org').length > 0, 10_000);
      const [moderation] = mailTo('moderator@example.org');
      expect(moderation.subject).toBe('A comment awaits moderation');
      expect(moderation.text).toContain(heldUrl);
      expect(moderation.text).toContain('Held back');
      expect(mailTo('ann@example.org')).toHaveLength(1);
      const held = heldUrl.split('/').pop() as string;
      expect((await t.request('POST', `${doc}/@comments/${held}/@workflow/publish`, as('rev'))).status).toBe(200);
      await pollUntil(() => mailTo('ann@example.org').length > 1, 10_000);
      expect(mailTo('ann@example.org')[1].text).toContain(heldUrl);

      // Nothing else was sent: no mail for ann's own reply, one per event.
      expect(smtp.received).toHaveLength(3);
    } finally {
      await setting('user_notification_enabled', false);
      await setting('moderator_notification_enabled', false);
      await smtp.close();
    }
  });

  it('removes the comments of deleted content from the discussion store', async () => {
    const doomed = await page();
    const kept = await page();
    const uidOf = async (path: string) => (await json(await t.request('GET', path))).UID as string;
    const [doomedUid, keptUid] = [await uidOf(doomed), await uidOf(kept)];
    await comment(doomed, 'Going', 'ann');
    await comment(kept, 'Staying', 'ann');
    // A removed comment's tombstone and its replies leave the store once its event is out.
    const removed = await comment(kept, 'Removed', 'bob');
    await comment(kept, 'Its reply', 'ann', removed);
    expect((await t.request('DELETE', `${kept}/@comments/${removed}`, as('bob'))).status).toBe(204);
    // The in-process bus confirms a publish once every group has handled it: the removal has been applied.
    await t.admin('DELETE', doomed);
    stopped = true;
    await t.stop({ keepData: true });
    const store = await openServiceStore('discussion', { DATA_DIR: t.dataDir });
    try {
      const comments = store.collection('comments');
      expect(await comments.countDocuments({ content_uid: doomedUid })).toBe(0);
      expect(await comments.countDocuments({ content_uid: keptUid })).toBe(1);
    } finally {
      await store.close();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
