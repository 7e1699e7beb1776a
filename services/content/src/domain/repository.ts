import type { EventEnvelope } from '@cms/shared';
import type { NavDoc } from './components/tree';
import type { ContentDoc } from './model';

/** What the content rules need of persistence; implemented in store/ over the store port. */
export interface ContentRepository {
  byPath(path: string): Promise<ContentDoc | null>;
  byUid(uid: string): Promise<ContentDoc | null>;
  /** Children the holder of `viewerTokens` may see (see `callerTokens`), in folder order. */
  children(parentUid: string, viewerTokens: string[], skip: number, limit: number): Promise<ContentDoc[]>;
  countChildren(parentUid: string, viewerTokens: string[]): Promise<number>;
  /** The nearest child before or after `position` that the holder of `viewerTokens` may see (next/previous). */
  sibling(
    parentUid: string,
    position: number,
    direction: 'previous' | 'next',
    viewerTokens: string[],
  ): Promise<ContentDoc | null>;
  /** Objects on which the principal holds local roles of their own. */
  grantedTo(principal: string): Promise<ContentDoc[]>;
  /** Everything below an object, parents before their children. */
  descendants(uid: string): Promise<ContentDoc[]>;
  /** Sets fields with an event if the object is still at `expectedVersion`; false on a conflict. */
  setFields(uid: string, expectedVersion: number, fields: Partial<ContentDoc>, event: EventEnvelope): Promise<boolean>;
  descendantUids(uid: string): Promise<string[]>;
  /** Takes the next child position of a folder atomically. */
  takeChildPosition(parentUid: string): Promise<number>;
  /** Inserts with its creation event; false when the path is taken. */
  insertNew(doc: ContentDoc, event: EventEnvelope): Promise<boolean>;
  /**
   * Applies `changes` with the event if the object is still at `expectedVersion`
   * (optimistic concurrency); returns the updated object, or null on a conflict.
   */
  updateFields(
    uid: string,
    expectedVersion: number,
    changes: Partial<ContentDoc>,
    event: EventEnvelope,
  ): Promise<ContentDoc | null>;
  /** Marks an object removed with its event (the commit point of a delete); false on a version conflict. */
  tombstone(uid: string, expectedVersion: number, event: EventEnvelope): Promise<boolean>;
  deleteDescendants(uid: string): Promise<void>;
  /** Every child of a folder, whoever may see it, in folder order (re-ordering works on all of them). */
  allChildren(parentUid: string): Promise<ContentDoc[]>;
  /** Objects whose subtree still has to follow a write made before `before` (ISO instant). */
  staleSubtrees(before: string): Promise<ContentDoc[]>;
  /** Clears the stale mark if it is still the one set at `stamp`. */
  clearStale(uid: string, stamp: string): Promise<void>;
  /** Records (or, with null, clears) the order a folder's children are being given. */
  setOrderPending(folderUid: string, order: string[] | null): Promise<void>;
  /** Folders with a re-ordering that did not finish. */
  pendingOrders(): Promise<ContentDoc[]>;
  /** Live objects by UID (an object's ancestors), in no particular order. */
  byUids(uids: string[]): Promise<ContentDoc[]>;
  /**
   * The children of several folders at once that the holder of `viewerTokens` may see, grouped by parent and
   * in folder order, with the navigation fields only (one query per level of a navigation tree).
   */
  visibleChildrenOf(parentUids: string[], viewerTokens: string[]): Promise<NavDoc[]>;
}

/** Hands committed events to the bus; resolves when they are confirmed (or gives up quietly after a bound). */
export interface EventRelay {
  flush(uid: string): Promise<void>;
}
