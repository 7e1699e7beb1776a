/**
 * The rules of comments: whether an object allows them (addendum §3), who sees, edits, deletes and replies to
 * which (specification, Comments; addendum §8), their thread order, ids and dates.
 */
import {
  badRequest,
  hasPermission,
  notFound,
  type AccessScope,
  type Document,
  type OutboxFields,
  type Principal__Output,
} from '@cms/shared';
import type { DiscussionSettings } from './settings';

export type ReviewState = 'published' | 'pending' | 'rejected';

export interface CommentDoc extends Document, OutboxFields {
  /** The comment id: microseconds since the epoch at its creation (unique; see nextCommentId). */
  _id: string;
  content_uid: string;
  in_reply_to: string | null;
  /** As sent; never turned into HTML here. */
  text: string;
  mime_type: string;
  /** The author's user id; null for an anonymous comment. */
  author_username: string | null;
  /**
   * Only for anonymous comments, and imported ones (the name their export gave): logged-in authors' names come from
   * identity when shown.
   */
  author_name: string | null;
  /** Required of anonymous authors (their reply notifications go there); users are mailed at identity's address. Never shown. */
  author_email: string | null;
  user_notification: boolean | null;
  review_state: ReviewState;
  /** ISO-8601 instants. */
  created: string;
  modified: string;
  version: number;
  /** The site's address as the author's request named it, for links in notification mail (paths are never stored). */
  public_url?: string;
  /** Written by an import (`ImportComments`): its arrival notifies no one. */
  imported?: true;
  /** On a tombstone: the comment and its replies, removed with it. */
  removed_ids?: string[];
}

/** Addendum §3: on globally, then the object's own choice, else its type's. */
export function discussionAllowed(
  settings: DiscussionSettings,
  context: { allowDiscussion: boolean | null; typeAllowsDiscussion: boolean; uid: string | null },
): boolean {
  if (!settings.globallyEnabled || context.uid === null) return false;
  return context.allowDiscussion ?? context.typeAllowsDiscussion;
}

/** Where discussion is off the endpoint does not exist for this object (specification: features switched on). */
export function requireDiscussion(allowed: boolean): void {
  if (!allowed) throw notFound('Discussion is not enabled for this content object');
}

/** What one caller may do in one conversation. */
export interface Capabilities {
  userId: string | null;
  moderator: boolean;
  canReply: boolean;
  editEnabled: boolean;
}

export function capabilitiesOf(
  principal: Principal__Output | null,
  scope: AccessScope,
  settings: DiscussionSettings,
  allowed: boolean,
): Capabilities {
  const mayReply = principal ? hasPermission(principal, 'Reply to item', scope) : settings.anonymousComments;
  return {
    userId: principal?.id ?? null,
    moderator: hasPermission(principal, 'Moderate Discussion', scope),
    canReply: allowed && mayReply,
    editEnabled: settings.editCommentEnabled,
  };
}

const isAuthor = (comment: CommentDoc, caller: Capabilities) =>
  caller.userId !== null && comment.author_username === caller.userId;

/** Pending and rejected comments: only their author and moderators see them. */
export function isVisible(comment: CommentDoc, caller: Capabilities): boolean {
  return comment.review_state === 'published' || caller.moderator || isAuthor(comment, caller);
}

/** Specification: only the creating user may update a comment (while the registry lets authors edit). */
export function isEditable(comment: CommentDoc, caller: Capabilities): boolean {
  return caller.editEnabled && isAuthor(comment, caller);
}

/** Addendum §8: the author may delete their own comment; moderators any. */
export function isDeletable(comment: CommentDoc, caller: Capabilities): boolean {
  return caller.moderator || isAuthor(comment, caller);
}

/**
 * The visible comments in thread order: each comment followed by its replies (depth first), siblings oldest
 * first. A reply whose parent is gone or invisible is left out with it.
 */
export function threadOrder(comments: readonly CommentDoc[], caller: Capabilities): CommentDoc[] {
  const children = new Map<string | null, CommentDoc[]>();
  for (const comment of [...comments].sort(byId)) {
    if (!isVisible(comment, caller)) continue;
    const siblings = children.get(comment.in_reply_to) ?? [];
    siblings.push(comment);
    children.set(comment.in_reply_to, siblings);
  }
  const ordered: CommentDoc[] = [];
  const pending = [...(children.get(null) ?? [])].reverse();
  while (pending.length > 0) {
    const next = pending.pop() as CommentDoc;
    ordered.push(next);
    pending.push(...[...(children.get(next._id) ?? [])].reverse());
  }
  return ordered;
}

/** A comment and every reply below it. */
export function withReplies(rootId: string, comments: readonly CommentDoc[]): string[] {
  const ids = [rootId];
  for (let i = 0; i < ids.length; i++) {
    for (const comment of comments) if (comment.in_reply_to === ids[i]) ids.push(comment._id);
  }
  return ids;
}

/** Ids compare as numbers; equal-length decimal strings compare the same way as text. */
export function byId(a: CommentDoc, b: CommentDoc): number {
  return a._id.length - b._id.length || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

let lastId = 0;

/** Microseconds since the epoch, as the reference's ids; strictly increasing in this process. */
export function nextCommentId(now = Date.now()): string {
  lastId = Math.max(now * 1000, lastId + 1);
  return String(lastId);
}

/** Specification convention 5: comment dates end in `+00:00`, without fractions of a second. */
export function commentDate(instant: string): string {
  return `${instant.slice(0, 19)}+00:00`;
}

/** The text's length limit of the registry (400 above; the body's byte limit is checked before, see bodyLimit). */
export function checkLength(text: string, settings: DiscussionSettings): void {
  if (text.trim() === '') throw badRequest('The comment text is empty', [{ field: 'text', message: 'empty' }]);
  if ([...text].length > settings.maxCommentLength) {
    const message = `longer than ${settings.maxCommentLength} characters`;
    throw badRequest(`The comment text is ${message}`, [{ field: 'text', message }]);
  }
}

/** The largest body that may carry a comment of the longest allowed text (UTF-8, JSON escapes, other fields). */
export function bodyLimit(settings: DiscussionSettings): number {
  return settings.maxCommentLength * 6 + 4096;
}
