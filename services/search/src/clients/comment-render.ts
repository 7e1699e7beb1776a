import { callUnary, type DiscussionServiceClient, type Principal__Output } from '@cms/shared';

/** A `Discussion Item` result: the comment and the content object it is on, as the catalog holds them. */
export interface CommentResult {
  contentPath: string;
  contentUid: string;
  commentId: string;
}

/** Discussion's full serializations of comment results (`fullobjects`), asked for a whole batch in one call. */
export interface FullComments {
  /** The serializations by comment id; comments gone or not visible to `principal` are absent. */
  render(
    comments: CommentResult[],
    principal: Principal__Output | null,
    publicUrl: string,
    requestId: string,
  ): Promise<Map<string, Record<string, unknown>>>;
}

export function remoteFullComments(client: () => DiscussionServiceClient, timeoutMs: number): FullComments {
  return {
    async render(comments, principal, publicUrl, requestId) {
      if (comments.length === 0) return new Map();
      const discussion = client();
      const refs = comments.map((c) => ({
        content_path: c.contentPath,
        content_uid: c.contentUid,
        comment_id: c.commentId,
      }));
      const answer = await callUnary<{ comments: { comment_id: string; json: Buffer }[] }>(
        (md, o, cb) =>
          discussion.RenderComments(
            { comments: refs, principal: principal ?? undefined, public_url: publicUrl },
            md,
            o,
            cb,
          ),
        { requestId, timeoutMs },
      );
      return new Map(
        answer.comments.map((c) => [c.comment_id, JSON.parse(c.json.toString('utf8')) as Record<string, unknown>]),
      );
    },
  };
}
