import {
  DuplicateKeyError,
  outboxFieldsFor,
  withEvents,
  type Collection,
  type DocumentStore,
  type EventEnvelope,
} from '@cms/shared';
import type { CommentDoc } from '../domain/comment';

const LIVE = { _deleted: { $ne: true } };

/**
 * The `comments` collection: one document per comment, carrying its own events (outbox). A removed comment is a
 * tombstone until its event is out; its replies are deleted with it (see CommentStore.removeReplies).
 */
export class CommentStore {
  readonly comments: Collection<CommentDoc>;

  constructor(store: DocumentStore) {
    this.comments = store.collection<CommentDoc>('comments');
  }

  async ensureIndexes(): Promise<void> {
    await this.comments.createIndex({ content_uid: 1 });
    await this.comments.createIndex({ author_username: 1 });
  }

  /** Every live comment on one object. */
  conversation(contentUid: string): Promise<CommentDoc[]> {
    return this.comments.find({ content_uid: contentUid, ...LIVE });
  }

  /** Every live comment, a page at a time, in id order (search's reindex). */
  async *scan(pageSize: number): AsyncGenerator<CommentDoc> {
    let after = '';
    for (;;) {
      const page = await this.comments.find(
        { _id: { $gt: after } },
        { sort: { _id: 1 }, limit: pageSize, projection: { _outbox: 0 } },
      );
      for (const comment of page) if (comment._deleted !== true) yield comment;
      if (page.length < pageSize) return;
      after = page[page.length - 1]._id;
    }
  }

  /**
   * Every object's live comments, one object at a time in UID order: only one object's comments are held at once
   * (the export of discussions.json).
   */
  async *conversations(): AsyncGenerator<{ contentUid: string; comments: CommentDoc[] }> {
    let after = '';
    for (;;) {
      const [next] = await this.comments.find(
        { content_uid: { $gt: after }, ...LIVE },
        { sort: { content_uid: 1 }, limit: 1, projection: { content_uid: 1 } },
      );
      if (!next) return;
      after = next.content_uid;
      yield { contentUid: after, comments: await this.conversation(after) };
    }
  }

  /** The object a comment id belongs to, live or a tombstone; null when the id is free. */
  async holderOf(id: string): Promise<{ contentUid: string; live: boolean } | null> {
    const found = await this.comments.findOne({ _id: id }, { projection: { content_uid: 1, _deleted: 1 } });
    return found ? { contentUid: found.content_uid, live: found._deleted !== true } : null;
  }

  async one(contentUid: string, id: string): Promise<CommentDoc | null> {
    return this.comments.findOne({ _id: id, content_uid: contentUid, ...LIVE });
  }

  /** Inserts the comment with its event; false when its id is taken (another replica chose it). */
  async insert(comment: CommentDoc, event: EventEnvelope): Promise<boolean> {
    try {
      await this.comments.insertOne({ ...comment, ...outboxFieldsFor([event]) });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Applies a change at the version read, with its event; null when the comment changed or went meanwhile. */
  update(current: CommentDoc, set: Partial<CommentDoc>, event: EventEnvelope): Promise<CommentDoc | null> {
    return this.comments.findOneAndUpdate(
      { _id: current._id, version: current.version, ...LIVE },
      withEvents({ $set: { ...set, version: current.version + 1 } }, [event]),
    );
  }

  /**
   * Makes the comment a tombstone naming its replies, with its event, then hides the replies (a crash between the
   * two leaves them orphaned, which listings leave out too); null when the comment changed or went meanwhile.
   */
  async remove(current: CommentDoc, removedIds: string[], event: EventEnvelope): Promise<CommentDoc | null> {
    const tombstone = await this.comments.findOneAndUpdate(
      { _id: current._id, version: current.version, ...LIVE },
      withEvents({ $set: { _deleted: true, removed_ids: removedIds, version: current.version + 1 } }, [event]),
    );
    const replies = removedIds.filter((id) => id !== current._id);
    if (tombstone && replies.length > 0) {
      await this.comments.updateMany(
        { _id: { $in: replies }, content_uid: current.content_uid },
        { $set: { _deleted: true } },
      );
    }
    return tombstone;
  }

  /** Deletes the replies a tombstone names (at least once: before the relay drops the tombstone). */
  async removeReplies(tombstone: CommentDoc): Promise<void> {
    const replies = (tombstone.removed_ids ?? []).filter((id) => id !== tombstone._id);
    if (replies.length > 0)
      await this.comments.deleteMany({ _id: { $in: replies }, content_uid: tombstone.content_uid });
  }

  /** Comments (live or not) posted by one author since an instant. */
  postedSince(author: string | null, since: string): Promise<number> {
    return this.comments.countDocuments({ author_username: author, created: { $gte: since } });
  }

  /** Which of these objects have comments. */
  async withComments(contentUids: string[]): Promise<Set<string>> {
    if (contentUids.length === 0) return new Set();
    const found = await this.comments.find({ content_uid: { $in: contentUids } }, { projection: { content_uid: 1 } });
    return new Set(found.map((c) => c.content_uid));
  }

  /** Deletes every comment on these objects (idempotent). */
  async removeConversations(contentUids: string[]): Promise<number> {
    if (contentUids.length === 0) return 0;
    const { deletedCount } = await this.comments.deleteMany({ content_uid: { $in: contentUids } });
    return deletedCount;
  }
}
