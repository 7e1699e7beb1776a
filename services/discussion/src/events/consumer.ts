import {
  DISCUSSION_GROUP,
  type ConsumerGroup,
  type DomainEvent,
  type EventBus,
  type Logger,
  type Subscription,
} from '@cms/shared';
import type { ContentSource } from '../clients/content-source';
import type { CommentStore } from '../store/comments';
import type { Notifier } from './notifications';

/** Every queue discussion consumes, for the bus of a process that runs discussion to declare up front. */
export const DISCUSSION_CONSUMER_GROUPS: ConsumerGroup[] = [DISCUSSION_GROUP];

/** Resolves after the effect is stored, so the bus acks then; applying an event twice is harmless. */
export function subscribeToEvents(
  bus: EventBus,
  comments: CommentStore,
  content: ContentSource,
  log: Logger,
  notifier?: Notifier,
): Promise<Subscription> {
  return bus.subscribe({ ...DISCUSSION_GROUP, prefetch: 8 }, async ({ event }) => {
    if (event.type === 'content.removed') await removeConversations(event, comments, content, log);
    else if (event.type === 'comment.added' || event.type === 'comment.published') await notifier?.enqueue(event);
  });
}

/**
 * Deletes the comments of the removed objects that content confirms are gone (or that it still has only inside
 * the removed object's path, where a crash may have left them for later). A forged or confused event removes
 * nothing content still has elsewhere; it is dropped for those with a warning.
 */
async function removeConversations(
  event: Extract<DomainEvent, { type: 'content.removed' }>,
  comments: CommentStore,
  content: ContentSource,
  log: Logger,
): Promise<void> {
  const { uid, path, removed_uids: uids } = event.payload;
  const requestId = event.requestId ?? event.id;
  const commented = [...(await comments.withComments(uids))];
  const inside = (candidate: string) => path !== '/' && candidate.startsWith(`${path}/`);
  const gone: string[] = [];
  for (const removed of commented) {
    const live = await content.pathOf(removed, requestId);
    if (live === null || (removed !== uid && inside(live))) gone.push(removed);
    else log.warn({ eventId: event.id, uid: removed }, 'removal names an object content still has; comments kept');
  }
  const deleted = await comments.removeConversations(gone);
  log.debug({ requestId, eventId: event.id, objects: gone.length, deleted }, 'comments of removed content deleted');
}
