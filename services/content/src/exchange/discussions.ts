/**
 * discussions.json, in and out, through discussion's `ImportComments` and `ExportComments`: the comments keep
 * their ids, replies, authors, dates and (this suite's own extension) review states.
 */
import {
  callUnary,
  requestMetadata,
  type CommentRecord__Output,
  type Conversation__Output,
  type DiscussionServiceClient,
  type ImportCommentsResponse__Output,
  type ImportedComment,
  type Principal__Output,
} from '@cms/shared';
import { randomUUID } from 'node:crypto';
import type { ExportComment, ExportConversation, PloneExport } from './plone-export';

const KIND = 'discussions.json comments';
/** Comments sent in one call: a long conversation goes in parts, oldest first (a parent is older than its replies). */
const COMMENTS_PER_CALL = 500;
const REVIEW_STATES = new Set(['published', 'pending', 'rejected']);

export interface DiscussionsTarget {
  discussion: DiscussionServiceClient;
  principal: Principal__Output;
  timeoutMs: number;
}

/**
 * Imports the comments of every object that is here (`paths`: UID → path); those of objects not imported, and of
 * the site root (whose UID is this site's own), are counted with why. Answers how many were created.
 */
export async function importDiscussions(
  exported: PloneExport,
  target: DiscussionsTarget,
  paths: ReadonlyMap<string, string>,
  count: (what: string, reason: string, times?: number) => void,
): Promise<number> {
  let created = 0;
  for (const [uid, { items }] of Object.entries(await exported.discussions())) {
    const path = paths.get(uid);
    if (path === undefined) {
      count(KIND, 'their object was not imported', items.length);
      continue;
    }
    if (path === '/') {
      count(KIND, "on the site root: this site's root is kept", items.length);
      continue;
    }
    const comments = [...items].sort(olderFirst).map((item) => importedComment(item, count));
    for (let start = 0; start < comments.length; start += COMMENTS_PER_CALL) {
      const part = comments.slice(start, start + COMMENTS_PER_CALL);
      try {
        const answer = await callUnary<ImportCommentsResponse__Output>(
          (md, o, cb) =>
            target.discussion.ImportComments(
              { principal: target.principal, content_uid: uid, comments: part },
              md,
              o,
              cb,
            ),
          { requestId: randomUUID(), timeoutMs: target.timeoutMs },
        );
        created += answer.created;
        count(KIND, 'there already (left as it is)', answer.skipped);
        for (const { reason } of answer.refused) count(KIND, `refused here: ${reason.slice(0, 200)}`);
      } catch (error) {
        count(KIND, `refused here: ${(error as Error).message.slice(0, 200)}`, part.length);
      }
    }
  }
  return created;
}

/** Ids are microseconds at creation: a shorter id is older. */
function olderFirst(a: ExportComment, b: ExportComment): number {
  const [x, y] = [a.comment_id, b.comment_id];
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

function importedComment(item: ExportComment, count: (what: string, reason: string) => void): ImportedComment {
  let reviewState = item.review_state ?? '';
  if (reviewState && !REVIEW_STATES.has(reviewState)) {
    count('review_state', `of a comment: "${reviewState.slice(0, 50)}" is not a comment state here (published)`);
    reviewState = '';
  }
  return {
    comment_id: item.comment_id,
    in_reply_to: item.in_reply_to ?? '',
    text: item.text.data,
    mime_type: item.text['mime-type'],
    author_username: item.author_username ?? '',
    author_name: item.author_name ?? '',
    author_email: item.author_email ?? '',
    user_notification: item.user_notification === true,
    review_state: reviewState,
    created: item.creation_date,
    modified: item.modification_date,
  };
}

/**
 * Every object's comments as discussions.json entries, one object at a time (only one conversation is held);
 * `pathOf` gives an object's path here, null for one that is gone (its comments are not written).
 */
export async function* exportedDiscussions(
  target: Omit<DiscussionsTarget, 'timeoutMs'>,
  pathOf: (uid: string) => Promise<string | null>,
): AsyncGenerator<ExportConversation> {
  const stream = target.discussion.ExportComments({ principal: target.principal }, requestMetadata(randomUUID()));
  try {
    for await (const conversation of stream as AsyncIterable<Conversation__Output>) {
      const path = await pathOf(conversation.content_uid);
      if (path === null) continue;
      const base = `${path === '/' ? '' : path}/@comments`;
      const items = conversation.comments.map((comment) => exportedComment(comment, base));
      yield [
        conversation.content_uid,
        { items, items_total: items.length, permissions: { can_reply: false, view_comments: true } },
      ];
    }
  } finally {
    stream.cancel();
  }
}

/** plone.restapi's serialization of a comment, as plone.exportimport writes it (the exporter's own view of it). */
function exportedComment(comment: CommentRecord__Output, base: string): ExportComment {
  return {
    '@id': `${base}/${comment.comment_id}`,
    '@type': 'Discussion Item',
    '@parent': comment.in_reply_to ? `${base}/${comment.in_reply_to}` : null,
    comment_id: comment.comment_id,
    in_reply_to: comment.in_reply_to || null,
    text: { data: comment.text, 'mime-type': comment.mime_type },
    user_notification: comment.user_notification,
    author_username: comment.author_username || null,
    // Plone always names the author; comments written here by users leave the name to identity.
    author_name: comment.author_name || comment.author_username || null,
    author_image: null,
    creation_date: ploneDate(comment.created),
    modification_date: ploneDate(comment.modified),
    is_editable: false,
    is_deletable: true,
    can_reply: false,
    // Plone's comments are published; another state is kept for an import here.
    ...(comment.review_state && comment.review_state !== 'published' ? { review_state: comment.review_state } : {}),
  };
}

/** Comment dates as plone.restapi writes them: UTC, whole seconds, `+00:00`. */
function ploneDate(instant: string): string {
  return `${new Date(instant).toISOString().slice(0, 19)}+00:00`;
}
