/** The `items` of a search answer, in the form asked for: summaries with columns, or full objects. */
import type { Principal__Output } from '@cms/shared';
import type { CommentResult, FullComments } from '../clients/comment-render';
import type { FullObjects } from '../clients/content-render';
import type { CatalogEntry } from '../domain/catalog-entry';
import { COMMENT_TYPE, CONVERSATION_SEGMENT } from '../domain/comment-entry';
import { resultItem } from '../domain/metadata';

export interface ItemsForm {
  fullobjects: boolean;
  columns: readonly string[];
  principal: Principal__Output | null;
  publicUrl: string;
  requestId: string;
}

/** Who serializes full objects: content its objects, discussion the comments (`Discussion Item` entries). */
export interface FullSources {
  content: FullObjects;
  comments: FullComments;
}

export async function resultItems(entries: CatalogEntry[], form: ItemsForm, sources: FullSources) {
  if (!form.fullobjects) return entries.map((e) => resultItem(e, form.publicUrl, form.columns));
  const comments = entries.flatMap((e) => {
    const ref = commentResult(e);
    return ref ? [[e._id, ref] as const] : [];
  });
  const commentIds = new Set(comments.map(([id]) => id));
  // One call each for the batch; each owner leaves out what the caller may no longer view.
  const [objects, renderedComments] = await Promise.all([
    sources.content.render(
      entries.filter((e) => !commentIds.has(e._id)).map((e) => e._id),
      form.principal,
      form.publicUrl,
      form.requestId,
    ),
    sources.comments.render(
      comments.map(([, ref]) => ref),
      form.principal,
      form.publicUrl,
      form.requestId,
    ),
  ]);
  const byEntry = new Map(comments.map(([id, ref]) => [id, ref.commentId]));
  return entries.flatMap((e) => {
    const commentId = byEntry.get(e._id);
    const full = commentId === undefined ? objects.get(e._id) : renderedComments.get(commentId);
    return full ? [full] : [];
  });
}

/** The comment a `Discussion Item` entry stands for; null for content entries. */
function commentResult(entry: CatalogEntry): CommentResult | null {
  if (entry.portal_type !== COMMENT_TYPE || !entry.content_uid) return null;
  const at = entry.path.lastIndexOf(CONVERSATION_SEGMENT);
  if (at < 0) return null;
  return { contentPath: entry.path.slice(0, at) || '/', contentUid: entry.content_uid, commentId: entry.id };
}
