/**
 * The comment writes: add, reply, edit, remove (with the replies), the moderators' transitions, and the import
 * of an exported conversation. Each write is one atomic store operation carrying its event (outbox), whose publish it then waits for, boundedly.
 */
import {
  AppError,
  BASIC_CHALLENGE,
  badRequest,
  clip,
  DEFAULT_RETRY,
  forbidden,
  LOST_RACE,
  newEvent,
  notFound,
  retryLostRaces,
  type Granted,
  type Logger,
  type WriteRetry,
} from '@cms/shared';
import type { CommentStore } from '../store/comments';
import {
  checkLength,
  isDeletable,
  isEditable,
  isVisible,
  nextCommentId,
  withReplies,
  type Capabilities,
  type CommentDoc,
  type ReviewState,
} from './comment';
import { parentsFirst, type ImportedComment, type ImportOutcome } from './comment-import';
import type { DiscussionSettings } from './settings';

export interface EventFlusher {
  flush(commentId: string): Promise<void>;
}

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface NewComment {
  text: string;
  /** Anonymous comments: required then. */
  authorName?: string;
  authorEmail?: string;
  userNotification?: boolean;
  /** The site's public address of the request, kept for links in notification mail. */
  publicUrl?: string;
}

/** The moderators' transitions (the reference's comment_review_workflow): from where, to what. */
const TRANSITIONS: Record<string, { from: readonly ReviewState[]; to: ReviewState }> = {
  publish: { from: ['pending', 'rejected'], to: 'published' },
  reject: { from: ['pending'], to: 'rejected' },
};

/** How often, and after what waits, an insert tries another id when a replica took the one it chose. */
const ID_RETRY: WriteRetry = { ...DEFAULT_RETRY, attempts: 5 };

export class CommentCommands {
  constructor(
    private readonly store: CommentStore,
    private readonly events: EventFlusher,
    private readonly rate: RateLimit,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new comment on the object, or a direct reply to `inReplyTo`; answers its id. */
  async add(
    contentUid: string,
    inReplyTo: string | null,
    input: NewComment,
    caller: Capabilities,
    settings: DiscussionSettings,
    requestId: string,
  ): Promise<string> {
    checkLength(input.text, settings);
    const anonymous = caller.userId === null;
    if (anonymous && (!input.authorName?.trim() || !input.authorEmail?.trim())) {
      throw badRequest('Anonymous comments need author_name and author_email', [
        ...(input.authorName?.trim() ? [] : [{ field: 'author_name', message: 'required' }]),
        ...(input.authorEmail?.trim() ? [] : [{ field: 'author_email', message: 'required' }]),
      ]);
    }
    if (inReplyTo !== null) {
      const parent = await this.store.one(contentUid, inReplyTo);
      if (!parent || !isVisible(parent, caller)) throw notFound(`No comment ${clip(inReplyTo)}`);
    }
    await this.checkRate(caller);
    const at = this.now().toISOString();
    // With moderation on every new comment waits for approval, a moderator's own too (addendum §8).
    const state: ReviewState = settings.moderationEnabled ? 'pending' : 'published';
    return retryLostRaces(
      ID_RETRY,
      async () => {
        const id = nextCommentId(this.now().getTime());
        const comment: CommentDoc = {
          _id: id,
          content_uid: contentUid,
          in_reply_to: inReplyTo,
          text: input.text,
          mime_type: settings.textTransform,
          author_username: caller.userId,
          author_name: anonymous ? (input.authorName ?? null) : null,
          author_email: input.authorEmail ?? null,
          user_notification: settings.userNotificationEnabled ? (input.userNotification ?? null) : null,
          review_state: state,
          created: at,
          modified: at,
          version: 1,
          ...(input.publicUrl ? { public_url: input.publicUrl } : {}),
        };
        const event = newEvent(
          'comment.added',
          {
            content_uid: contentUid,
            comment_id: id,
            version: 1,
            in_reply_to: inReplyTo ?? '',
            author_username: caller.userId ?? '',
            review_state: state,
            created: at,
          },
          requestId,
        );
        if (!(await this.store.insert(comment, event))) return LOST_RACE;
        await this.events.flush(id);
        return id;
      },
      () => new AppError('ServiceUnavailable', 'No free comment id; try again'),
    );
  }

  /**
   * An exported conversation's comments, with their own ids, replies, authors, dates and states (no rate limit,
   * no length limit: they were taken once already). Each is inserted with its `comment.added`, as `add` does; a
   * comment whose id is on this object already is skipped, one whose parent is missing is refused with why.
   */
  async importConversation(
    contentUid: string,
    comments: readonly ImportedComment[],
    requestId: string,
  ): Promise<ImportOutcome> {
    const outcome: ImportOutcome = { created: 0, skipped: 0, refused: [] };
    const present = new Set((await this.store.conversation(contentUid)).map((c) => c._id));
    const { ordered, looping } = parentsFirst(comments, present);
    for (const comment of looping)
      outcome.refused.push({ commentId: comment.id, reason: 'its chain of replies loops back to itself' });
    const refused = new Set<string>();
    const inserted: string[] = [];
    for (const comment of ordered) {
      if (present.has(comment.id)) {
        outcome.skipped += 1;
        continue;
      }
      const parent = comment.inReplyTo;
      if (parent !== null && !present.has(parent)) {
        const reason = refused.has(parent)
          ? `its parent ${clip(parent, 64)} was refused`
          : `its parent ${clip(parent, 64)} is not on this object`;
        outcome.refused.push({ commentId: comment.id, reason });
        refused.add(comment.id);
        continue;
      }
      const taken = await this.insertImported(contentUid, comment, requestId);
      if (taken === null) {
        present.add(comment.id);
        inserted.push(comment.id);
        outcome.created += 1;
      } else if (taken.contentUid === contentUid && taken.live) {
        // Imported meanwhile by another call.
        present.add(comment.id);
        outcome.skipped += 1;
      } else {
        const reason =
          taken.contentUid === contentUid
            ? 'a comment with its id was removed here and is being forgotten; import it again later'
            : 'its id is taken by a comment on another object';
        outcome.refused.push({ commentId: comment.id, reason });
        refused.add(comment.id);
      }
    }
    await Promise.all(inserted.map((id) => this.events.flush(id)));
    this.log.info({ contentUid, ...outcome, refused: outcome.refused.length }, 'conversation imported');
    return outcome;
  }

  /** Inserts one imported comment with its event; null when inserted, else who holds its id. */
  private async insertImported(
    contentUid: string,
    input: ImportedComment,
    requestId: string,
  ): Promise<{ contentUid: string; live: boolean } | null> {
    const comment: CommentDoc = {
      _id: input.id,
      content_uid: contentUid,
      in_reply_to: input.inReplyTo,
      text: input.text,
      mime_type: input.mimeType,
      author_username: input.authorUsername,
      author_name: input.authorName,
      author_email: input.authorEmail,
      user_notification: input.userNotification,
      review_state: input.reviewState,
      created: input.created,
      modified: input.modified,
      version: 1,
      imported: true,
    };
    const event = newEvent(
      'comment.added',
      {
        content_uid: contentUid,
        comment_id: input.id,
        version: 1,
        in_reply_to: input.inReplyTo ?? '',
        author_username: input.authorUsername ?? '',
        review_state: input.reviewState,
        created: input.created,
      },
      requestId,
    );
    if (await this.store.insert(comment, event)) return null;
    // The id was free a moment ago, or is another object's: who holds it now says which.
    return (await this.store.holderOf(input.id)) ?? { contentUid: '', live: false };
  }

  async edit(
    contentUid: string,
    id: string,
    text: string,
    caller: Capabilities,
    settings: DiscussionSettings,
    requestId: string,
  ) {
    const current = await this.visible(contentUid, id, caller);
    if (!isEditable(current, caller)) throw this.refused(caller, 'edit this comment');
    checkLength(text, settings);
    const modified = this.now().toISOString();
    const event = newEvent(
      'comment.modified',
      { content_uid: contentUid, comment_id: id, version: current.version + 1, modified },
      requestId,
    );
    await this.changed(await this.store.update(current, { text, modified }, event), id);
  }

  /** Removes the comment and its replies (addendum §8). */
  async remove(contentUid: string, id: string, caller: Capabilities, requestId: string): Promise<void> {
    const current = await this.visible(contentUid, id, caller);
    if (!isDeletable(current, caller)) throw this.refused(caller, 'delete this comment');
    const removed = withReplies(id, await this.store.conversation(contentUid));
    const event = newEvent(
      'comment.removed',
      { content_uid: contentUid, comment_id: id, version: current.version + 1, removed_ids: removed },
      requestId,
    );
    await this.changed(await this.store.remove(current, removed, event), id);
  }

  /**
   * A moderator's `publish` or `reject`; answers the new state. `moderating` is the dispatcher's proof that the
   * caller may moderate here (the `@comments` POST declares it for a transition): not checked again.
   */
  async transition(
    contentUid: string,
    id: string,
    transition: string,
    caller: Capabilities,
    requestId: string,
    moderating: Granted<'Moderate Discussion'>,
  ): Promise<ReviewState> {
    void moderating; // The proof is the check: its type is what a caller must bring.
    const current = await this.visible(contentUid, id, caller);
    const rule = Object.hasOwn(TRANSITIONS, transition) ? TRANSITIONS[transition] : undefined;
    if (!rule || !rule.from.includes(current.review_state)) {
      throw badRequest(`Transition ${clip(transition)} is not available from ${current.review_state}`);
    }
    const modified = this.now().toISOString();
    const version = current.version + 1;
    // A rejection is announced as a change too: the moderation queue (search) must drop the comment.
    const event =
      rule.to === 'published'
        ? newEvent('comment.published', { content_uid: contentUid, comment_id: id, version }, requestId)
        : newEvent('comment.modified', { content_uid: contentUid, comment_id: id, version, modified }, requestId);
    await this.changed(await this.store.update(current, { review_state: rule.to, modified }, event), id);
    return rule.to;
  }

  private async visible(contentUid: string, id: string, caller: Capabilities): Promise<CommentDoc> {
    const comment = await this.store.one(contentUid, id);
    if (!comment || !isVisible(comment, caller)) throw notFound(`No comment ${clip(id)}`);
    return comment;
  }

  /** A write that lost a race with another one is refused rather than applied to what the caller did not see. */
  private async changed(updated: CommentDoc | null, id: string): Promise<void> {
    if (!updated) throw new AppError('Conflict', `Comment ${clip(id)} changed meanwhile; try again`);
    await this.events.flush(id);
  }

  private refused(caller: Capabilities, what: string): AppError {
    return caller.userId === null
      ? new AppError('Unauthorized', `Log in to ${what}`, undefined, undefined, { ...BASIC_CHALLENGE })
      : forbidden(`You may not ${what}`);
  }

  /** Moderators are not limited; anonymous callers share one allowance (no client address reaches this service). */
  private async checkRate(caller: Capabilities): Promise<void> {
    if (caller.moderator) return;
    const since = new Date(this.now().getTime() - this.rate.windowSeconds * 1000).toISOString();
    const posted = await this.store.postedSince(caller.userId, since);
    if (posted < this.rate.limit) return;
    this.log.info({ author: caller.userId }, 'comment rate limit reached');
    throw new AppError(
      'TooManyRequests',
      `At most ${this.rate.limit} comments per ${this.rate.windowSeconds} seconds`,
      undefined,
      undefined,
      { 'Retry-After': String(this.rate.windowSeconds) },
    );
  }
}
