/**
 * Comments in the catalog: each is a `Discussion Item` entry below its content object
 * (`<content path>/++conversation++default/<comment_id>`, the path the moderation panel posts to), and the content
 * entry carries the conversation's columns (`total_comments`, `last_comment_date`, `commentators`).
 */
import { rolesWith, type ContentSnapshot } from '@cms/shared';
import { depthOf, instant, pathParents, type CatalogEntry } from './catalog-entry';
import { normalise, words } from './text';

export const COMMENT_TYPE = 'Discussion Item';

/** A comment as the discussion service confirms it (`DiscussionService.GetComment`). */
export interface CommentRecord {
  content_uid: string;
  comment_id: string;
  version: number;
  in_reply_to: string;
  text: string;
  mime_type: string;
  author_username: string;
  author_name: string;
  review_state: string;
  created: string;
  modified: string;
}

/** The content object a comment is on, as the catalog needs it: where it is and who may view it. */
export type CommentHost = Pick<CatalogEntry, '_id' | 'path' | 'title' | 'allowed' | 'language'>;

/** The catalog id of a comment: comment ids are unique, the prefix keeps them apart from content UIDs. */
export function commentEntryId(commentId: string): string {
  return `comment-${commentId}`;
}

/** What a comment's path adds to its content object's path, before the comment id. */
export const CONVERSATION_SEGMENT = '/++conversation++default/';

export function conversationPath(contentPath: string, commentId: string): string {
  return `${contentPath === '/' ? '' : contentPath}${CONVERSATION_SEGMENT}${commentId}`;
}

/**
 * Who may find a comment: whoever may view its object once it is published; while it is pending (or rejected),
 * moderators only, as the discussion service shows it (the moderation panel lists it for them).
 */
export function commentAllowed(reviewState: string, host: CommentHost): string[] {
  if (reviewState === 'published') return host.allowed;
  return [...rolesWith('Moderate Discussion', null)];
}

/** A comment's catalog entry; placed and guarded by its content object. */
export function commentEntry(comment: CommentRecord, host: CommentHost, indexedAt: string): CatalogEntry {
  const path = conversationPath(host.path, comment.comment_id);
  const author = comment.author_username || comment.author_name || 'Anonymous';
  const title = `${author} on ${host.title}`;
  return {
    _id: commentEntryId(comment.comment_id),
    version: comment.version,
    content_uid: comment.content_uid,
    path,
    path_parents: pathParents(path),
    depth: depthOf(path),
    id: comment.comment_id,
    portal_type: COMMENT_TYPE,
    type_title: 'Comment',
    title,
    sortable_title: normalise(title),
    description: comment.text.slice(0, 200),
    review_state: comment.review_state,
    created: instant(comment.created) ?? comment.created,
    modified: instant(comment.modified) ?? comment.modified,
    creators: comment.author_username ? [comment.author_username] : [],
    position: 0,
    is_folderish: false,
    words: words(comment.text),
    subjects: [],
    effective: null,
    expires: null,
    exclude_from_nav: true,
    language: host.language ?? '',
    mime_type: comment.mime_type,
    title_words: [],
    description_words: words(comment.text),
    allowed: commentAllowed(comment.review_state, host),
    indexed_at: indexedAt,
  };
}

/** The host of a comment from content's snapshot of its object. */
export function hostOf(snapshot: ContentSnapshot): CommentHost {
  return {
    _id: snapshot.uid,
    path: snapshot.path,
    title: snapshot.title,
    allowed: snapshot.allowed_roles_and_users,
    language: snapshot.language ?? '',
  };
}

/** The conversation's columns on its content entry, from its comments' entries: published comments only. */
export function conversationColumns(comments: readonly Pick<CatalogEntry, 'review_state' | 'created' | 'creators'>[]) {
  const published = comments.filter((c) => c.review_state === 'published');
  const last = published.reduce<string | null>(
    (latest, c) => (latest && latest > c.created ? latest : c.created),
    null,
  );
  return {
    total_comments: published.length,
    last_comment_date: last,
    commentators: [...new Set(published.flatMap((c) => c.creators))].sort(),
  };
}
