/**
 * Notification mail about comments (domain/notifications.ts says who is told what), sent from discussion's own
 * `comment.added` and `comment.published` events. The consumer only queues a job (one store write: in embedded
 * mode a comment's answer waits for its event's consumers, and must never wait for an SMTP server); the worker
 * here works the jobs out and sends them, retrying with a backoff while the SMTP server fails.
 *
 * At least once: a notification is marked sent after the SMTP server took it, and a redelivered event finds its
 * job and queues nothing; only a crash between a send and its mark sends that mail twice. A site without a from
 * address drops the mail with a warning (retrying would not help).
 */
import { MailNotConfigured, type DomainEvent, type Logger, type MailSender } from '@cms/shared';
import { commentsUrl } from '../api/render';
import type { AuthorDirectory } from '../clients/authors';
import type { ContentSource } from '../clients/content-source';
import type { SettingsSource } from '../clients/settings';
import type { CommentDoc } from '../domain/comment';
import {
  moderationNotification,
  replyNotification,
  type CommentLink,
  type Notification,
} from '../domain/notifications';
import type { CommentStore } from '../store/comments';
import type { MailJob, MailQueue } from '../store/mail-queue';

type CommentEvent = Extract<DomainEvent, { type: 'comment.added' | 'comment.published' }>;

export interface NotifierOptions {
  /** The site's address for comments stored without the one their request named. */
  defaultPublicUrl: string;
  /** How long a claimed job is another worker's; longer than a send may take. */
  leaseMs?: number;
  /** How often due retries are looked for (a new job is taken at once). */
  sweepMs?: number;
  /** Attempts before a job is given up, with a warning. */
  maxAttempts?: number;
}

/** Done jobs are kept this long, far longer than any redelivery of their event. */
const KEEP_DONE_MS = 7 * 24 * 3600 * 1000;

export class Notifier {
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly queue: MailQueue,
    private readonly comments: CommentStore,
    private readonly settings: SettingsSource,
    private readonly content: ContentSource,
    private readonly authors: AuthorDirectory,
    private readonly mail: MailSender,
    private readonly log: Logger,
    private readonly options: NotifierOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 10;
  }

  /** The consumer's part: queue the event's job, and have the worker look at once. */
  async enqueue(event: CommentEvent): Promise<void> {
    await this.queue.enqueue(
      {
        _id: event.id,
        event_type: event.type,
        content_uid: event.payload.content_uid,
        comment_id: event.payload.comment_id,
        request_id: event.requestId ?? event.id,
      },
      Date.now(),
    );
    this.kick();
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.sweepMs ?? 5000);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining;
  }

  /** Works every due job, one at a time; a kick while working makes it look again after. */
  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: unknown) => this.log.warn({ err: error }, 'mail queue not reachable; will retry'))
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const job = await this.queue.claim(Date.now(), this.leaseMs);
      if (!job) break;
      await this.work(job);
    }
    await this.prune();
  }

  private async work(job: MailJob): Promise<void> {
    try {
      for (const notification of await this.notificationsOf(job)) {
        if (job.sent.includes(notification.kind)) continue;
        await this.send(notification, job.request_id);
        await this.queue.markSent(job._id, notification.kind);
      }
      await this.queue.finish(job._id, Date.now());
    } catch (error) {
      if (job.attempts >= this.maxAttempts) {
        this.log.warn({ err: error, requestId: job.request_id, attempts: job.attempts }, 'notification given up');
        await this.queue.finish(job._id, Date.now());
        return;
      }
      // 2 s, 4 s, 8 s ... at most 10 minutes.
      const backoff = Math.min(1000 * 2 ** job.attempts, 600_000);
      this.log.info({ err: error, requestId: job.request_id, attempts: job.attempts }, 'notification will be retried');
      await this.queue.retryAt(job._id, Date.now() + backoff);
    }
  }

  /** What the job's event calls for, as the comment and the settings are now. */
  private async notificationsOf(job: MailJob): Promise<Notification[]> {
    const comment = await this.comments.one(job.content_uid, job.comment_id);
    if (!comment) return [];
    // An imported comment was announced, if ever, by the site it came from: its arrival here tells no one.
    if (job.event_type === 'comment.added' && comment.imported === true) return [];
    const settings = await this.settings.current(job.request_id);
    const awaitsModeration =
      job.event_type === 'comment.added' && comment.review_state === 'pending' && settings.moderatorNotificationEnabled;
    const isReply =
      comment.in_reply_to !== null && comment.review_state === 'published' && settings.userNotificationEnabled;
    if (!awaitsModeration && !isReply) return [];
    const link = await this.linkOf(comment, job.request_id);
    if (!link) return [];
    const wanted: (Notification | null)[] = [];
    if (awaitsModeration) wanted.push(moderationNotification(comment, settings, link));
    if (isReply) {
      const parent = await this.comments.one(job.content_uid, comment.in_reply_to as string);
      const address = parent ? await this.addressOf(parent, job.request_id) : null;
      wanted.push(replyNotification(comment, parent, address, settings, link));
    }
    return wanted.filter((n): n is Notification => n !== null);
  }

  /** A user author's current address in identity (none for a removed user); an anonymous author's own. */
  private async addressOf(comment: CommentDoc, requestId: string): Promise<string | null> {
    if (comment.author_username === null) return comment.author_email;
    const found = await this.authors.describe([comment.author_username], requestId, { withEmail: true });
    return found.get(comment.author_username)?.email ?? null;
  }

  /** The comment's URL from its content's current path; null when the content is gone (nothing to announce). */
  private async linkOf(comment: CommentDoc, requestId: string): Promise<CommentLink | null> {
    const path = await this.content.pathOf(comment.content_uid, requestId);
    if (path === null) return null;
    const base = commentsUrl(comment.public_url ?? this.options.defaultPublicUrl, path);
    return { commentUrl: `${base}/${comment._id}`, contentUrl: base.slice(0, -'/@comments'.length) };
  }

  private async send(notification: Notification, requestId: string): Promise<void> {
    try {
      await this.mail.send({ to: notification.to, subject: notification.subject, text: notification.text }, requestId);
      this.log.info({ requestId, kind: notification.kind }, 'notification mail sent');
    } catch (error) {
      if (!(error instanceof MailNotConfigured)) throw error;
      this.log.warn({ requestId, kind: notification.kind }, 'notification not sent: the site has no from address');
    }
  }

  /** Forgets old done jobs, at most once an hour per process. */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < 3600 * 1000) return;
    this.lastPrune = now;
    await this.queue.prune(now - KEEP_DONE_MS);
  }
}
