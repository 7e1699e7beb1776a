import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@cms/shared';

/** One comment event whose notification mail is still to be worked out and sent (or was, while `done`). */
export interface MailJob extends Document {
  /** The event's id: a redelivered event finds its job and adds none. */
  _id: string;
  event_type: 'comment.added' | 'comment.published';
  content_uid: string;
  comment_id: string;
  request_id: string;
  /** The notifications of this job already sent (`reply`, `moderation`), so a retry sends only the rest. */
  sent: string[];
  attempts: number;
  /** Milliseconds since the epoch: not before (a retry's backoff, or another worker's lease). */
  due: number;
  done: boolean;
  /** When it was done: done jobs are kept a while, as the marks that keep redelivered events from mailing twice. */
  done_at?: number;
}

type NewJobField = '_id' | 'event_type' | 'content_uid' | 'comment_id' | 'request_id';

/**
 * The `mail_jobs` collection: notification work queued by the event consumer and taken by the mail worker (a
 * claim is a lease on `due`, so two replicas never work one job at once).
 */
export class MailQueue {
  readonly jobs: Collection<MailJob>;

  constructor(store: DocumentStore) {
    this.jobs = store.collection<MailJob>('mail_jobs');
  }

  async ensureIndexes(): Promise<void> {
    await this.jobs.createIndex({ done: 1, due: 1 });
    await this.jobs.createIndex({ done_at: 1 }, { sparse: true });
  }

  /** Queues a job; false when its event was queued before (a redelivery). */
  async enqueue(job: Pick<MailJob, NewJobField>, now: number): Promise<boolean> {
    try {
      await this.jobs.insertOne({ ...job, sent: [], attempts: 0, due: now, done: false });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Takes one due job for `leaseMs`; null when none is due. */
  claim(now: number, leaseMs: number): Promise<MailJob | null> {
    return this.jobs.findOneAndUpdate(
      { done: false, due: { $lte: now } },
      { $set: { due: now + leaseMs }, $inc: { attempts: 1 } },
      { sort: { due: 1 } },
    );
  }

  async markSent(id: string, kind: string): Promise<void> {
    await this.jobs.updateOne({ _id: id }, { $push: { sent: kind } });
  }

  async finish(id: string, now: number): Promise<void> {
    await this.jobs.updateOne({ _id: id }, { $set: { done: true, done_at: now } });
  }

  async retryAt(id: string, due: number): Promise<void> {
    await this.jobs.updateOne({ _id: id }, { $set: { due } });
  }

  /** Forgets done jobs older than `before`. */
  async prune(before: number): Promise<void> {
    await this.jobs.deleteMany({ done: true, done_at: { $lt: before } });
  }
}
