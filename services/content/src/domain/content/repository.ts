import type { EventEnvelope } from '@cms/shared';
import type { ContentDoc, NavDoc } from './model';

/**
 * What the content rules read of persistence, and the bookkeeping marks of follow-ups; implemented in store/
 * over the store port. Objects themselves are only written through the write path (ContentWriteStore).
 */
export interface ContentRepository {
  byPath(path: string): Promise<ContentDoc | null>;
  /** Which of `paths` an object holds now (one query, for choosing a free id among many candidates). */
  takenPaths(paths: string[]): Promise<Set<string>>;
  byUid(uid: string): Promise<ContentDoc | null>;
  /** Children the holder of `viewerTokens` may see (see `callerTokens`), in folder order. */
  children(parentUid: string, viewerTokens: string[], skip: number, limit: number): Promise<ContentDoc[]>;
  countChildren(parentUid: string, viewerTokens: string[]): Promise<number>;
  /** How many objects of that type exist (every object, whoever may see it). */
  countOfType(portalType: string): Promise<number>;
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
  /** Takes the next child position of a folder atomically. */
  takeChildPosition(parentUid: string): Promise<number>;
  /** Removes everything below a removed object (after its tombstone committed; the relay finishes it otherwise). */
  deleteDescendants(uid: string): Promise<void>;
  /** Every child of a folder, whoever may see it, in folder order (re-ordering works on all of them). */
  allChildren(parentUid: string): Promise<ContentDoc[]>;
  /** Objects whose subtree still has to follow a write made before `before` (ISO instant). */
  staleSubtrees(before: string): Promise<ContentDoc[]>;
  /** Clears the stale mark if it is still the one set at `stamp`. */
  clearStale(uid: string, stamp: string): Promise<void>;
  /** Clears a folder's recorded re-ordering if the folder is still at `version` (no newer order was recorded). */
  clearOrderPending(folderUid: string, version: number): Promise<void>;
  /** Folders with a re-ordering that did not finish. */
  pendingOrders(): Promise<ContentDoc[]>;
  /** Objects whose subtree still has to take a transition marked before `before` (ISO instant). */
  pendingTransitions(before: string): Promise<ContentDoc[]>;
  /** Clears the transition mark if it is still the one set at `at`. */
  clearTransitionPending(uid: string, at: string): Promise<void>;
  /** Live objects by UID (an object's ancestors), in no particular order. */
  byUids(uids: string[]): Promise<ContentDoc[]>;
  /**
   * The children of several folders at once that the holder of `viewerTokens` may see, grouped by parent and
   * in folder order, with the navigation fields only (one query per level of a navigation tree).
   */
  visibleChildrenOf(parentUids: string[], viewerTokens: string[]): Promise<NavDoc[]>;
}

/** One atomic change of a stored object: members to set and members to remove. */
export interface StoredChange {
  set: Partial<ContentDoc>;
  unset?: readonly (keyof ContentDoc)[];
}

/** The writes of content objects, each one atomic with its events (the outbox); used by the write path only. */
export interface ContentWriteStore {
  byUid(uid: string): Promise<ContentDoc | null>;
  /** Inserts with its events; false when the path is taken. */
  insertNew(doc: ContentDoc, events: EventEnvelope[]): Promise<boolean>;
  /**
   * Applies `change` with its events if the object is live and still at `expectedVersion` (optimistic
   * concurrency); false on a conflict. Throws DuplicateKeyError when the change gives it a path that is taken.
   */
  applyChange(uid: string, expectedVersion: number, change: StoredChange, events: EventEnvelope[]): Promise<boolean>;
}

/** Hands committed events to the bus; resolves when they are confirmed (or gives up quietly after a bound). */
export interface EventRelay {
  flush(uid: string): Promise<void>;
}
