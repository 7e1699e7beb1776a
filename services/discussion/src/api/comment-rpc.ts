/**
 * `GetComment`: a comment as the discussion store holds it now, for the services that confirm `comment.*` events
 * (search indexes only what this answers, as it indexes only what content confirms). `ScanComments`: every live
 * comment, for search's reindex.
 */
import { badRequest, notFound, serverStream, unary, type DiscussionServiceHandlers, type Logger } from '@cms/shared';
import type { CommentDoc } from '../domain/comment';
import type { CommentStore } from '../store/comments';

/** Comment ids are decimal microseconds; content UIDs hex. Anything longer is no id of ours. */
const MAX_ID_LENGTH = 64;

const DEFAULT_SCAN_PAGE = 500;
const MAX_SCAN_PAGE = 5000;

export function commentRpcs(
  store: CommentStore,
  log: Logger,
): Pick<DiscussionServiceHandlers, 'GetComment' | 'ScanComments'> {
  return {
    GetComment: unary(log, async (request: { content_uid?: string; comment_id?: string }) => {
      const contentUid = request.content_uid ?? '';
      const commentId = request.comment_id ?? '';
      if (!contentUid || !commentId || contentUid.length > MAX_ID_LENGTH || commentId.length > MAX_ID_LENGTH) {
        throw badRequest('GetComment needs a content_uid and a comment_id');
      }
      const comment = await store.one(contentUid, commentId);
      if (!comment) throw notFound('No such comment');
      return commentRecord(comment);
    }),
    ScanComments: serverStream(log, async function* (request: { page_size?: number }) {
      const pageSize = Math.min(request.page_size || DEFAULT_SCAN_PAGE, MAX_SCAN_PAGE);
      for await (const comment of store.scan(pageSize)) yield commentRecord(comment);
    }),
  };
}

/** A comment as other services read it (`CommentRecord`): never the author's e-mail address. */
export function commentRecord(comment: CommentDoc) {
  return {
    content_uid: comment.content_uid,
    comment_id: comment._id,
    version: comment.version,
    in_reply_to: comment.in_reply_to ?? '',
    text: comment.text,
    mime_type: comment.mime_type,
    author_username: comment.author_username ?? '',
    author_name: comment.author_name ?? '',
    review_state: comment.review_state,
    created: comment.created,
    modified: comment.modified,
    user_notification: comment.user_notification === true,
  };
}
