import {
  SEARCH_GROUP,
  type ConsumerGroup,
  type DomainEvent,
  type EventBus,
  type Logger,
  type Subscription,
} from '@cms/shared';
import type { ContentSource } from '../clients/content-source';
import type { DiscussionSource } from '../clients/discussion-source';
import { entryFrom } from '../domain/catalog-entry';
import { commentEntry, commentEntryId, hostOf } from '../domain/comment-entry';
import type { Catalog } from '../store/catalog';

/** Every queue search consumes, for the bus of a process that runs search to declare up front. */
export const SEARCH_CONSUMER_GROUPS: ConsumerGroup[] = [SEARCH_GROUP];

/** How many objects of one removal are confirmed with content at once. */
const CONFIRM_CONCURRENCY = 16;

/** The events that carry an object's state. */
type SnapshotEvent = Extract<
  DomainEvent,
  { type: 'content.added' | 'content.modified' | 'content.moved' | 'content.ordered' }
>;

/** The events that name one comment whose state the catalog reads from discussion. */
type CommentStateEvent = Extract<DomainEvent, { type: 'comment.added' | 'comment.modified' | 'comment.published' }>;

/** No discussion service (unit tests of content events): a comment event fails, and is retried. */
const NO_DISCUSSION: DiscussionSource = {
  comment: () => Promise.reject(new Error('no discussion service')),
};

/**
 * Keeps the catalog in step with content and comment events; resolves after the effect is stored, so the bus acks
 * then. What an event says of an object is not indexed on its word: anyone who can publish could forge a
 * well-formed event. The object is read from the content service (a comment from the discussion service, its
 * object from content), and the catalog indexes that.
 */
export function subscribeToContent(
  bus: EventBus,
  catalog: Catalog,
  content: ContentSource,
  log: Logger,
  discussion: DiscussionSource = NO_DISCUSSION,
): Promise<Subscription> {
  return bus.subscribe({ ...SEARCH_GROUP, prefetch: 16 }, async ({ event, attempt }) => {
    const at = new Date().toISOString();
    switch (event.type) {
      case 'content.added':
      case 'content.modified':
      case 'content.moved':
      case 'content.ordered':
        await indexConfirmed(event, catalog, content, log, at);
        break;
      case 'content.removed':
        await removeConfirmed(event, catalog, content, log, at);
        break;
      case 'comment.added':
      case 'comment.modified':
      case 'comment.published':
        await indexCommentConfirmed(event, catalog, content, discussion, log, at);
        break;
      case 'comment.removed':
        await removeCommentsConfirmed(event, catalog, content, discussion, log, at);
        break;
      default:
        // Other events do not change what the catalog holds.
        break;
    }
    log.debug({ requestId: event.requestId, eventType: event.type, eventId: event.id, attempt }, 'event applied');
  });
}

/**
 * Indexes the object as the content store has it, at the event's version or later; drops the event, with a
 * warning, when content has no such object or not that version. Fails when content does not answer.
 */
async function indexConfirmed(
  event: SnapshotEvent,
  catalog: Catalog,
  content: ContentSource,
  log: Logger,
  at: string,
): Promise<void> {
  const { uid, version } = event.payload;
  // The catalog holds only what content confirmed: an event it is already past needs no call.
  if ((await catalog.versionOf(uid)) >= version) return;
  const current = await content.current(uid, event.requestId ?? event.id);
  if (!current || current.version < version) {
    log.warn(
      { eventId: event.id, eventType: event.type, uid, version, contentVersion: current?.version ?? null },
      current ? 'event names a version content does not have; dropped' : 'event names no content object; dropped',
    );
    return;
  }
  if (await catalog.put(entryFrom(current, at))) await catalog.syncConversation(hostOf(current));
}

/**
 * Indexes a comment as discussion holds it, at the event's version or later, under its content object as content
 * holds it; drops the event with a warning when either is gone or behind. Fails when either does not answer.
 */
async function indexCommentConfirmed(
  event: CommentStateEvent,
  catalog: Catalog,
  content: ContentSource,
  discussion: DiscussionSource,
  log: Logger,
  at: string,
): Promise<void> {
  const { content_uid: contentUid, comment_id: commentId, version } = event.payload;
  if ((await catalog.versionOf(commentEntryId(commentId))) >= version) return;
  const requestId = event.requestId ?? event.id;
  const comment = await discussion.comment(contentUid, commentId, requestId);
  const host = comment ? await content.current(contentUid, requestId) : null;
  if (!comment || !host || comment.version < version) {
    log.warn(
      { eventId: event.id, eventType: event.type, contentUid, commentId, version },
      !comment
        ? 'event names no live comment; dropped'
        : !host
          ? 'comment on no content; dropped'
          : 'comment behind the event; dropped',
    );
    return;
  }
  await catalog.put(commentEntry(comment, hostOf(host), at));
  await catalog.syncConversation(hostOf(host), true);
}

/** Marks removed the comments of a removal that discussion confirms are gone, then recounts the conversation. */
async function removeCommentsConfirmed(
  event: Extract<DomainEvent, { type: 'comment.removed' }>,
  catalog: Catalog,
  content: ContentSource,
  discussion: DiscussionSource,
  log: Logger,
  at: string,
): Promise<void> {
  const { content_uid: contentUid, removed_ids: ids } = event.payload;
  const requestId = event.requestId ?? event.id;
  const gone: string[] = [];
  for (let start = 0; start < ids.length; start += CONFIRM_CONCURRENCY) {
    const batch = ids.slice(start, start + CONFIRM_CONCURRENCY);
    const found = await Promise.all(batch.map((id) => discussion.comment(contentUid, id, requestId)));
    batch.forEach((id, i) => {
      if (!found[i]) gone.push(id);
    });
  }
  if (gone.length < ids.length) {
    log.warn({ eventId: event.id, contentUid, kept: ids.length - gone.length }, 'removal names live comments; kept');
  }
  await catalog.markRemoved(gone.map(commentEntryId), at);
  const host = await content.current(contentUid, requestId);
  if (host) await catalog.syncConversation(hostOf(host), true);
}

/**
 * Marks removed what content confirms is gone: each object of the removal that content no longer has, or still
 * has below the removed object's path (what was inside it, whose deletion a crash may have left for later). An
 * object content still has elsewhere, or the removed object itself still live, stays indexed: the event is
 * forged or confused, and is dropped for it with a warning. Fails when content does not answer.
 */
async function removeConfirmed(
  event: Extract<DomainEvent, { type: 'content.removed' }>,
  catalog: Catalog,
  content: ContentSource,
  log: Logger,
  at: string,
): Promise<void> {
  const { uid, path, removed_uids: uids } = event.payload;
  const requestId = event.requestId ?? event.id;
  const inside = (candidate: string) => path !== '/' && candidate.startsWith(`${path}/`);
  const gone: string[] = [];
  const kept: string[] = [];
  for (let start = 0; start < uids.length; start += CONFIRM_CONCURRENCY) {
    const batch = uids.slice(start, start + CONFIRM_CONCURRENCY);
    const found = await Promise.all(batch.map((removed) => content.current(removed, requestId)));
    batch.forEach((removed, i) => {
      const live = found[i];
      const confirmed = !live || (removed !== uid && inside(live.path));
      (confirmed ? gone : kept).push(removed);
    });
  }
  if (kept.length) {
    log.warn(
      { eventId: event.id, eventType: event.type, uid, kept: kept.length, example: kept[0] },
      'removal names objects content still has; they stay indexed',
    );
  }
  await catalog.markRemoved(gone, at);
  // Their comments go with them (discussion removes them from its store without an event per comment).
  await catalog.removeConversations(gone, at);
}
