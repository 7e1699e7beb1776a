import { batchingLinks, urlOf, type Batch, type QueryParam__Output } from '@cms/shared';
import type { Author } from '../clients/authors';
import { commentDate, isDeletable, isEditable, type Capabilities, type CommentDoc } from '../domain/comment';
import type { DiscussionSettings } from '../domain/settings';

/** `<content url>/@comments`: built from the content's current path, so comment URLs follow a move. */
export function commentsUrl(publicUrl: string, contextPath: string): string {
  return `${urlOf(publicUrl, contextPath)}/@comments`;
}

/** One comment as the specification's Comment (the text as sent, with its mime-type, never as HTML). */
export function renderComment(
  comment: CommentDoc,
  base: string,
  publicUrl: string,
  caller: Capabilities,
  authors: Map<string, Author>,
  settings: DiscussionSettings,
): Record<string, unknown> {
  const author = comment.author_username === null ? undefined : authors.get(comment.author_username);
  const image =
    settings.showCommenterImage && author?.hasPortrait
      ? `${publicUrl}/@portrait/${encodeURIComponent(author.id)}`
      : null;
  return {
    '@id': `${base}/${comment._id}`,
    '@parent': comment.in_reply_to === null ? null : `${base}/${comment.in_reply_to}`,
    '@type': 'Discussion Item',
    author_image: image,
    author_name: author?.title ?? comment.author_name ?? comment.author_username,
    author_username: comment.author_username,
    can_reply: caller.canReply,
    comment_id: comment._id,
    creation_date: commentDate(comment.created),
    in_reply_to: comment.in_reply_to,
    is_deletable: isDeletable(comment, caller),
    is_editable: isEditable(comment, caller),
    modification_date: commentDate(comment.modified),
    // Moderators see where each comment stands (the moderation panel's column); others see published ones only.
    ...(caller.moderator ? { review_state: comment.review_state } : {}),
    text: { data: comment.text, 'mime-type': comment.mime_type },
    user_notification: comment.user_notification,
  };
}

/** The comment list: one batch of the thread, its total, batching links and the caller's permissions. */
export function renderList(
  base: string,
  page: Record<string, unknown>[],
  total: number,
  batch: Batch,
  query: readonly QueryParam__Output[],
  canReply: boolean,
): Record<string, unknown> {
  const batching = batchingLinks(base, query, batch, total);
  return {
    '@id': base,
    items: page,
    items_total: total,
    ...(batching ? { batching } : {}),
    permissions: { can_reply: canReply, view_comments: true },
  };
}
