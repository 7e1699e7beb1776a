/**
 * The rules of importing a conversation from a plone.exportimport export: comments keep their ids, replies,
 * authors, dates and states; a parent is written before its replies, and a reply whose parent is neither there
 * nor imported with it is refused (as is every reply below it).
 */
import type { ReviewState } from './comment';

export interface ImportedComment {
  id: string;
  inReplyTo: string | null;
  text: string;
  mimeType: string;
  authorUsername: string | null;
  /** The name the export gives: shown when identity does not know the author (e.g. one not imported). */
  authorName: string | null;
  authorEmail: string | null;
  userNotification: boolean;
  reviewState: ReviewState;
  /** ISO-8601 instants in UTC. */
  created: string;
  modified: string;
}

export interface ImportOutcome {
  created: number;
  /** Comments whose id was on this object already. */
  skipped: number;
  refused: { commentId: string; reason: string }[];
}

/**
 * The comments in an order that writes each parent before its replies (siblings as given). Those never reached
 * from a root, a comment there already, or a comment of `present`, are answered apart: their reply chain loops.
 */
export function parentsFirst(
  comments: readonly ImportedComment[],
  present: ReadonlySet<string>,
): { ordered: ImportedComment[]; looping: ImportedComment[] } {
  const given = new Set(comments.map((c) => c.id));
  const replies = new Map<string, ImportedComment[]>();
  const ordered: ImportedComment[] = [];
  const roots: ImportedComment[] = [];
  for (const comment of comments) {
    const parent = comment.inReplyTo;
    // A parent that is not in this call is either there already or missing: the writer tells which.
    if (parent === null || !given.has(parent) || present.has(comment.id)) roots.push(comment);
    else replies.set(parent, [...(replies.get(parent) ?? []), comment]);
  }
  const pending = [...roots].reverse();
  const reached = new Set<ImportedComment>();
  while (pending.length > 0) {
    const next = pending.pop() as ImportedComment;
    if (reached.has(next)) continue;
    reached.add(next);
    ordered.push(next);
    pending.push(...[...(replies.get(next.id) ?? [])].reverse());
  }
  return { ordered, looping: comments.filter((c) => !reached.has(c)) };
}
