import type { Document, LocalRoles, OutboxFields, Principal__Output } from '@cms/shared';
import type { FileValue } from '../files/files';

/** One entry of an object's workflow history. */
export interface WorkflowEntry {
  /** The transition taken; null for the creation entry. */
  action: string | null;
  actor: string;
  comments: string;
  review_state: string;
  /** ISO-8601 instant. */
  time: string;
}

/** A lock on an object (`@lock`, locks.ts). */
export interface StoredLock {
  /** Opaque; the holder sends it back in `Lock-Token` to write from another session. */
  token: string;
  /** User id of the holder. */
  creator: string;
  /** ISO-8601 instant the lock was taken or last refreshed. */
  created: string;
  stealable: boolean;
  /** Seconds after `created` the lock ends. */
  timeout: number;
  name: string;
}

/** What a version keeps of an object: what a revert restores (versions.ts). */
export interface VersionedContent {
  title: string;
  description: string;
  effective: string | null;
  expires: string | null;
  /** Every other field, file and image values (their blobs) included. */
  fields: Record<string, unknown>;
}

/** One version of an object (`@history`), kept apart from the object, keyed by UID. */
export interface VersionRecord extends Document {
  /** `<uid>:<version>`. */
  _id: string;
  uid: string;
  version: number;
  /** ISO-8601 instant. */
  time: string;
  /** User id of the author. */
  actor: string;
  /** The change note sent with the write. */
  comments: string;
  content: VersionedContent;
}

/** A transition still to be taken on the subtree of the object it was taken on (`include_children`). */
export interface PendingTransition {
  /** ISO-8601 instant of the anchor's write: the mark's identity. */
  at: string;
  transition: string;
  comment?: string;
  effective?: string;
  expires?: string;
  /** Who took it, as the request authenticated them: the sweep decides for them what they could change. */
  principal: Principal__Output | null;
  requestId: string;
}

/** On an original that is checked out (`@workingcopy`): its working copy, and who checked it out. */
export interface WorkingCopyLink {
  /** UID of the working copy. */
  uid: string;
  /** User id of the caller who checked it out. */
  creator: string;
}

/**
 * On an original: a check-out, check-in or cancel whose other documents (the working copy) are still to be
 * written, recorded by the original's own write with `subtree_stale`; the request or the sweep finishes it
 * (working-copies.ts).
 */
export interface PendingIteration {
  op: 'checkout' | 'checkin' | 'cancel';
  /** UID of the working copy. */
  copy: string;
  /**
   * Blobs to delete when it is finished: after a check-in or cancel, the copy's and those the check-in replaced
   * on the original (those a version of the original refers to stay); after a check-out undone, the copy's.
   */
  release: FileValue[];
}

/** One alias of an object: its site-relative path, when it was made, and whether by hand. */
export interface AliasInfo {
  path: string;
  datetime: string;
  manual: boolean;
}

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
  effective?: string | null;
  expires?: string | null;
  /** Every other schema field of the type, keyed by field name (unset = the field's default). */
  fields?: Record<string, unknown>;
  workflow_history?: WorkflowEntry[];
  /** Local roles granted on this object itself (the creator holds `Owner`). */
  local_roles?: LocalRoles;
  /** True when this object does not inherit local roles from above. */
  block_local_roles?: boolean;
  /** Own and inherited local roles, kept current so a check needs no walk up the tree. */
  effective_local_roles?: LocalRoles;
  /** Who may view it (roles and `user:<id>` tokens), for listings and the search index. */
  allowed?: string[];
  /** For objects without a workflow: the state of the container, whose permissions they follow (see access.ts). */
  acquired_state?: string | null;
  /** Paths the object had before moves and renames (`@aliases`). */
  aliases?: string[];
  /** When each alias was made and whether by hand (`@aliases` POST); aliases older than this record have none. */
  alias_info?: AliasInfo[];
  /**
   * Set (to the time of the write) together with a write that leaves writes of other documents to do: the
   * descendants deriving from this object (path, ancestors, inherited local roles), or a follow-up recorded
   * beside it (`iteration_pending`); cleared once all are done. A crash in between is finished by the sweep
   * (subtree.ts).
   */
  subtree_stale?: string;
  /** Child UIDs in their new order while a re-ordering is being written; cleared when done (finished by the sweep). */
  order_pending?: string[];
  /** The lock on the object (`@lock`); one past its timeout counts as none (locks.ts). */
  lock?: StoredLock;
  /** On an original that is checked out: its working copy (valid only while the copy points back). */
  working_copy?: WorkingCopyLink;
  /** On a working copy: the UID of its original (valid only while the original points back). */
  working_copy_of?: string;
  /** A working-copy operation whose other documents are still to be written (with `subtree_stale`). */
  iteration_pending?: PendingIteration;
  /**
   * Set with a transition taken with `include_children` (to the time of the write), and cleared once everything
   * below that the caller could change has taken it too; the sweep finishes it after a crash, as the caller.
   */
  transition_pending?: PendingTransition;
  /** Number of the object's latest version (`@history`); unset while it has none. */
  last_version?: number;
  /**
   * The version its latest write made, committed with that write and moved to the versions collection right
   * after (or before the next write, or by the sweep after a crash): a version is never lost nor half-made.
   */
  version_pending?: VersionRecord;
  /** The translation group the object is linked into (multilingual sites, translations.ts); unset: none. */
  translation_group?: string;
}

/** What navigation listings read of an object. */
export type NavDoc = Pick<
  ContentDoc,
  '_id' | 'path' | 'id' | 'title' | 'description' | 'review_state' | 'portal_type' | 'parent_uid' | 'position'
> & { fields?: { exclude_from_nav?: unknown; remoteUrl?: unknown } };

export function childPath(parentPath: string, id: string): string {
  return parentPath === '/' ? `/${id}` : `${parentPath}/${id}`;
}

export function parentPathOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}
