import { AppError, callUnary, type DiscussionServiceClient } from '@cms/shared';
import type { CommentRecord } from '../domain/comment-entry';

/** The discussion service as search asks it about the comments that events name. */
export interface DiscussionSource {
  /**
   * The comment as the discussion store holds it now (`DiscussionService.GetComment`), or null when it says there
   * is no such live comment. Rejects when discussion does not answer, so that the event is retried.
   */
  comment(contentUid: string, commentId: string, requestId: string): Promise<CommentRecord | null>;
}

export function remoteDiscussionSource(client: () => DiscussionServiceClient, timeoutMs: number): DiscussionSource {
  return {
    async comment(contentUid, commentId, requestId) {
      let discussion: DiscussionServiceClient;
      try {
        discussion = client();
      } catch (error) {
        throw new AppError(
          'ServiceUnavailable',
          `The discussion service is not reachable: ${(error as Error).message}`,
        );
      }
      try {
        return await callUnary<CommentRecord>(
          (md, o, cb) => discussion.GetComment({ content_uid: contentUid, comment_id: commentId }, md, o, cb),
          { requestId, timeoutMs },
        );
      } catch (error) {
        if (error instanceof AppError && error.type === 'NotFound') return null;
        throw error;
      }
    },
  };
}
