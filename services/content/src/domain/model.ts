import type { Document, OutboxFields } from '@cms/shared';

/** A content object as stored. `_id` is the UID. */
export interface ContentDoc extends Document, OutboxFields {
  _id: string;
  /** Site-relative path, `/` for the root; unset on tombstones so the path is free again. */
  path?: string;
  id: string;
  portal_type: string;
  /** Unset on tombstones, so listings need no filter for them. */
  parent_uid: string | null;
  /** UIDs from the root down to the parent, for subtree operations by index. */
  ancestors: string[];
  /** Order within the parent. */
  position: number;
  /** Next free position for a child (folderish objects). */
  next_position: number;
  title: string;
  description: string;
  /** ISO-8601 UTC instants. */
  created: string;
  modified: string;
  creators: string[];
  review_state: string | null;
  /** Incremented by every write; events carry it so consumers apply them idempotently. */
  version: number;
}

export function childPath(parentPath: string, id: string): string {
  return parentPath === '/' ? `/${id}` : `${parentPath}/${id}`;
}

export function parentPathOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}
