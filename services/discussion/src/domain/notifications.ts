/**
 * Who is mailed about a comment (specification: Comment; issue 14): the author of the comment replied to, when
 * they asked to hear about replies (`user_notification`) and the registry lets users ask; the moderator, when a
 * comment awaits moderation and the registry says so. Only what others may see is announced to authors: a reply
 * awaiting moderation is announced once it is published.
 */
import type { CommentDoc } from './comment';
import type { DiscussionSettings } from './settings';

export interface Notification {
  /** Names the notification within its event, so a redelivered event is not mailed twice. */
  kind: 'reply' | 'moderation';
  to: string;
  subject: string;
  text: string;
}

/** Where the comment is, for the mail: its URL built from the content's current path. */
export interface CommentLink {
  commentUrl: string;
  contentUrl: string;
}

/** Loose enough for every address a registry or a form accepted; the SMTP server has the last word. */
const looksLikeAddress = (value: string | null | undefined): value is string =>
  typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value);

/**
 * The author of `parent`, told of `reply` (a published direct reply), when they asked to be. `parentAddress` is
 * where they are mailed: the address an anonymous author gave, or a user's address in identity.
 */
export function replyNotification(
  reply: CommentDoc,
  parent: CommentDoc | null,
  parentAddress: string | null,
  settings: DiscussionSettings,
  link: CommentLink,
): Notification | null {
  if (!settings.userNotificationEnabled || reply.review_state !== 'published') return null;
  if (!parent || parent.user_notification !== true || !looksLikeAddress(parentAddress)) return null;
  // Nobody is told of their own reply.
  const sameUser = parent.author_username !== null && parent.author_username === reply.author_username;
  if (sameUser || (parent.author_username === null && parent.author_email === reply.author_email)) return null;
  return {
    kind: 'reply',
    to: parentAddress,
    subject: 'A reply to your comment has been posted',
    text: `A reply to your comment on ${link.contentUrl} has been posted here: ${link.commentUrl}\n\n---\n${reply.text}\n---\n`,
  };
}

/** The moderator, told of a comment that awaits their approval. */
export function moderationNotification(
  comment: CommentDoc,
  settings: DiscussionSettings,
  link: CommentLink,
): Notification | null {
  if (comment.review_state !== 'pending' || !settings.moderatorNotificationEnabled) return null;
  if (!looksLikeAddress(settings.moderatorEmail)) return null;
  const by = comment.author_username ?? comment.author_name ?? 'an anonymous user';
  return {
    kind: 'moderation',
    to: settings.moderatorEmail,
    subject: 'A comment awaits moderation',
    text:
      `A comment on ${link.contentUrl} has been posted by ${by} and awaits moderation: ${link.commentUrl}\n\n` +
      `---\n${comment.text}\n---\n\n` +
      `Approve it: POST ${link.commentUrl}/@workflow/publish\nReject it: POST ${link.commentUrl}/@workflow/reject\n` +
      `Delete it: DELETE ${link.commentUrl}\n`,
  };
}
