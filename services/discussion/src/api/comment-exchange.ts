/**
 * `ImportComments` and `ExportComments`: the comments of a plone.exportimport export, in and out (`npm run import`
 * and `npm run export`, `@import` and `@export`, through content). Like content's `ImportObject` and
 * `ExportObjects`, each needs a service proof (checked before any handler) and a principal holding the
 * exportimport permission.
 */
import {
  badRequest,
  requireCallerPermission,
  serverStream,
  unary,
  type DiscussionServiceHandlers,
  type ExportCommentsRequest__Output,
  type ImportCommentsRequest__Output,
  type Logger,
} from '@cms/shared';
import { z } from 'zod';
import { threadOrder, type Capabilities } from '../domain/comment';
import type { CommentCommands } from '../domain/comment-commands';
import type { ImportedComment } from '../domain/comment-import';
import type { CommentStore } from '../store/comments';
import { commentRecord } from './comment-rpc';

/** Most comments one call imports (one object's conversation). */
const MAX_COMMENTS_PER_CALL = 10_000;

const commentId = z.string().regex(/^[0-9]{1,20}$/, 'not a comment id (decimal digits)');
const instant = z
  .string()
  .min(1, 'required')
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a date')
  .transform((value) => new Date(value).toISOString());
const orNull = (value: string) => (value === '' ? null : value);

const importedCommentSchema = z.object({
  comment_id: commentId,
  in_reply_to: z.union([z.literal(''), commentId]).transform(orNull),
  text: z.string(),
  mime_type: z
    .string()
    .max(100)
    .transform((value) => value || 'text/plain'),
  author_username: z.string().max(255).transform(orNull),
  author_name: z.string().max(255).transform(orNull),
  author_email: z.string().max(320).transform(orNull),
  user_notification: z.boolean(),
  review_state: z
    .enum(['', 'published', 'pending', 'rejected'])
    .transform((value) => (value === '' ? 'published' : value)),
  created: instant,
  modified: instant,
});

const importRequestSchema = z.object({
  content_uid: z.string().regex(/^[0-9a-f]{32}$/, 'not a content UID (32 hexadecimal digits)'),
  comments: z
    .array(importedCommentSchema)
    .max(MAX_COMMENTS_PER_CALL, `at most ${MAX_COMMENTS_PER_CALL} comments per call`)
    .superRefine((comments, ctx) => {
      const seen = new Set<string>();
      comments.forEach((comment, index) => {
        if (seen.has(comment.comment_id))
          ctx.addIssue({ code: 'custom', path: [index, 'comment_id'], message: 'given twice' });
        if (comment.in_reply_to === comment.comment_id)
          ctx.addIssue({ code: 'custom', path: [index, 'in_reply_to'], message: 'a reply to itself' });
        seen.add(comment.comment_id);
      });
    }),
});

/** Sees every comment: an export carries pending and rejected ones too. */
const EXPORTER: Capabilities = { userId: null, moderator: true, canReply: false, editEnabled: false };

export function commentExchangeRpcs(
  commands: CommentCommands,
  store: CommentStore,
  log: Logger,
): Pick<DiscussionServiceHandlers, 'ImportComments' | 'ExportComments'> {
  return {
    ImportComments: unary(log, async (request: ImportCommentsRequest__Output, ctx) => {
      requireCallerPermission(request.principal, 'plone.exportimport.import', 'Importing comments');
      const parsed = importRequestSchema.safeParse(request);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw badRequest(`ImportComments: ${issue.path.join('.').slice(0, 200)}: ${issue.message}`);
      }
      const comments: ImportedComment[] = parsed.data.comments.map((c) => ({
        id: c.comment_id,
        inReplyTo: c.in_reply_to,
        text: c.text,
        mimeType: c.mime_type,
        authorUsername: c.author_username,
        authorName: c.author_name,
        authorEmail: c.author_email,
        userNotification: c.user_notification,
        reviewState: c.review_state,
        created: c.created,
        modified: c.modified,
      }));
      const outcome = await commands.importConversation(parsed.data.content_uid, comments, ctx.requestId);
      return {
        created: outcome.created,
        skipped: outcome.skipped,
        refused: outcome.refused.map(({ commentId: comment_id, reason }) => ({ comment_id, reason })),
      };
    }),
    ExportComments: serverStream(log, async function* (request: ExportCommentsRequest__Output) {
      requireCallerPermission(request.principal, 'plone.exportimport.export', 'Exporting comments');
      for await (const { contentUid, comments } of store.conversations()) {
        const ordered = threadOrder(comments, EXPORTER);
        if (ordered.length) yield { content_uid: contentUid, comments: ordered.map(commentRecord) };
      }
    }),
  };
}
