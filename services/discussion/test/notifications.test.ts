/**
 * Notification mail from comment events: who is told (the replied-to author who asked, the moderator of a held
 * comment), once per event however often it is delivered, retried while the SMTP server fails, and dropped where
 * the site has no from address.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogger,
  MailNotConfigured,
  MemoryMailSender,
  newEvent,
  type DocumentStore,
  type MailMessage,
  type MailSender,
} from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import type { AuthorDirectory } from '../src/clients/authors';
import type { ContentSource } from '../src/clients/content-source';
import type { SettingsSource } from '../src/clients/settings';
import type { CommentDoc } from '../src/domain/comment';
import { DEFAULT_SETTINGS, type DiscussionSettings } from '../src/domain/settings';
import { Notifier } from '../src/events/notifications';
import { CommentStore } from '../src/store/comments';
import { MailQueue } from '../src/store/mail-queue';
import { pollUntil } from '../../../test/support/poll';

const CONTENT = 'c0ffee';

const doc = (id: string, extra: Partial<CommentDoc> = {}): CommentDoc => ({
  _id: id,
  content_uid: CONTENT,
  in_reply_to: null,
  text: `text of ${id}`,
  mime_type: 'text/plain',
  author_username: 'ann',
  author_name: null,
  author_email: null,
  user_notification: null,
  review_state: 'published',
  created: '2030-01-01T00:00:00.000Z',
  modified: '2030-01-01T00:00:00.000Z',
  version: 1,
  public_url: 'http://site.example',
  ...extra,
});

/** A sender that fails a given number of times first. */
class FlakySender extends MemoryMailSender {
  constructor(private failures: number) {
    super();
  }
  override send(message: MailMessage): Promise<void> {
    if (this.failures-- > 0) return Promise.reject(new Error('connection refused'));
    return super.send(message);
  }
}

describe('notification mail', () => {
  const log = createLogger('discussion-test', 'silent');
  let dir: string;
  let store: DocumentStore;
  let comments: CommentStore;
  let queue: MailQueue;
  let settings: DiscussionSettings;
  const running: Notifier[] = [];
  const content: ContentSource = { pathOf: async (uid) => (uid === CONTENT ? '/folder/page' : null) };
  const source: SettingsSource = { current: async () => settings };
  /** Identity's users and their addresses; a user missing here has been removed. */
  let addresses: Record<string, string>;
  const authors: AuthorDirectory = {
    describe: async (ids, _requestId, options) =>
      new Map(
        ids
          .filter((id) => id in addresses)
          .map((id) => [
            id,
            { id, title: id, hasPortrait: false, ...(options?.withEmail ? { email: addresses[id] } : {}) },
          ]),
      ),
  };

  function notifier(mail: MailSender) {
    const started = new Notifier(queue, comments, source, content, authors, mail, log, {
      defaultPublicUrl: 'http://default.example',
      sweepMs: 20,
      maxAttempts: 3,
    });
    running.push(started);
    started.start();
    return started;
  }

  const added = (id: string) =>
    newEvent('comment.added', {
      content_uid: CONTENT,
      comment_id: id,
      version: 1,
      in_reply_to: '',
      author_username: '',
      review_state: 'published',
      created: '',
    });
  const done = async () => pollUntil(async () => (await queue.jobs.countDocuments({ done: false })) === 0, 10_000);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'discussion-mail-'));
    store = await openEmbeddedStore(dir);
    comments = new CommentStore(store);
    queue = new MailQueue(store);
    await queue.ensureIndexes();
    settings = {
      ...DEFAULT_SETTINGS,
      globallyEnabled: true,
      userNotificationEnabled: true,
      moderatorNotificationEnabled: true,
      moderatorEmail: 'mod@example.org',
    };
    addresses = { ann: 'ann@example.org', bob: 'bob@example.org' };
    await comments.comments.insertOne(doc('1', { user_notification: true }));
  });
  afterEach(async () => {
    for (const started of running.splice(0)) await started.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells the replied-to author of a reply once, however often its event comes', async () => {
    const mail = new MemoryMailSender();
    const worker = notifier(mail);
    await comments.comments.insertOne(doc('2', { in_reply_to: '1', author_username: 'bob' }));
    const event = added('2');
    await worker.enqueue(event);
    await worker.enqueue(event);
    await done();
    await worker.enqueue(event);
    await done();
    expect(mail.sent).toEqual([
      {
        to: 'ann@example.org',
        subject: 'A reply to your comment has been posted',
        text: expect.stringContaining('http://site.example/folder/page/@comments/2'),
      },
    ]);
  });

  it('mails a user author at their address in identity as it is now, and an anonymous author at theirs', async () => {
    const mail = new MemoryMailSender();
    const worker = notifier(mail);
    addresses.ann = 'ann@new.example.org';
    await comments.comments.insertOne(
      doc('5', {
        author_username: null,
        author_name: 'Guest',
        author_email: 'guest@example.org',
        user_notification: true,
      }),
    );
    await comments.comments.insertOne(doc('2', { in_reply_to: '1', author_username: 'bob' }));
    await comments.comments.insertOne(doc('6', { in_reply_to: '5', author_username: 'bob' }));
    await worker.enqueue(added('2'));
    await worker.enqueue(added('6'));
    await done();
    expect(mail.sent.map((m) => m.to).sort()).toEqual(['ann@new.example.org', 'guest@example.org']);
  });

  it('tells nobody of an imported reply or held comment: the site it came from did, if ever', async () => {
    const mail = new MemoryMailSender();
    const worker = notifier(mail);
    await comments.comments.insertOne(doc('2', { in_reply_to: '1', author_username: 'bob', imported: true }));
    await comments.comments.insertOne(doc('3', { review_state: 'pending', imported: true }));
    await worker.enqueue(added('2'));
    await worker.enqueue(added('3'));
    await done();
    expect(mail.sent).toEqual([]);
  });

  it('mails nobody about a reply to a user who has since been removed', async () => {
    const mail = new MemoryMailSender();
    const worker = notifier(mail);
    delete addresses.ann;
    await comments.comments.insertOne(doc('2', { in_reply_to: '1', author_username: 'bob' }));
    await worker.enqueue(added('2'));
    await done();
    expect(mail.sent).toEqual([]);
  });

  it('tells nobody of their own reply, nor of a reply to one who did not ask, nor while switched off', async () => {
    const mail = new MemoryMailSender();
    const worker = notifier(mail);
    await comments.comments.insertOne(doc('2', { in_reply_to: '1' }));
    await comments.comments.insertOne(doc('3', { author_username: 'bob' }));
    await comments.comments.insertOne(doc('4', { in_reply_to: '3' }));
    await worker.enqueue(added('2'));
    await worker.enqueue(added('4'));
    await done();
    settings.userNotificationEnabled = false;
    await comments.comments.insertOne(doc('5', { in_reply_to: '1', author_username: 'bob' }));
    await worker.enqueue(added('5'));
    await done();
    expect(mail.sent).toEqual([]);
  });

  it('tells the moderator of a held comment, retrying while the SMTP server fails', async () => {
    const mail = new FlakySender(2);
    const worker = notifier(mail);
    await comments.comments.insertOne(doc('2', { review_state: 'pending', author_username: null, author_name: 'Vis' }));
    await worker.enqueue(added('2'));
    // Backoffs of 2 and 4 s are too long for a test: make the retries due now.
    await pollUntil(async () => {
      await queue.jobs.updateMany({ done: false }, { $set: { due: 0 } });
      worker.kick();
      return mail.sent.length > 0;
    }, 10_000);
    expect(mail.sent[0]).toMatchObject({ to: 'mod@example.org', subject: 'A comment awaits moderation' });
    expect(mail.sent[0].text).toContain('posted by Vis');
    expect(mail.sent[0].text).toContain('http://site.example/folder/page/@comments/2/@workflow/publish');
  });

  it('drops the mail where the site has no from address', async () => {
    const unconfigured = {
      send: () => Promise.reject(new MailNotConfigured()),
      checkConfigured: () => Promise.reject(new MailNotConfigured()),
      close() {},
    };
    const worker = notifier(unconfigured);
    await comments.comments.insertOne(doc('2', { review_state: 'pending' }));
    await worker.enqueue(added('2'));
    await done();
    const jobs = await queue.jobs.find({});
    expect(jobs.map((job) => [job.done, job.attempts, job.sent])).toEqual([[true, 1, ['moderation']]]);
  });

  it('gives a mail up after its attempts', async () => {
    const mail = new FlakySender(Infinity);
    const worker = notifier(mail);
    await comments.comments.insertOne(doc('2', { review_state: 'pending' }));
    await worker.enqueue(added('2'));
    await pollUntil(async () => {
      await queue.jobs.updateMany({ done: false }, { $set: { due: 0 } });
      worker.kick();
      return (await queue.jobs.countDocuments({ done: false })) === 0;
    }, 10_000);
    expect((await queue.jobs.find({})).map((job) => job.attempts)).toEqual([3]);
    expect(mail.sent).toEqual([]);
  });
});
