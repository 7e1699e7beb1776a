import type { EventEnvelope } from '@cms/shared';
import type { ContentDoc } from './model';

/** What the content rules need of persistence; implemented in store/ over the store port. */
export interface ContentRepository {
  byPath(path: string): Promise<ContentDoc | null>;
  byUid(uid: string): Promise<ContentDoc | null>;
  /** Children the holder of `viewerTokens` may see (see `callerTokens`), in folder order. */
  children(parentUid: string, viewerTokens: string[], skip: number, limit: number): Promise<ContentDoc[]>;
  countChildren(parentUid: string, viewerTokens: string[]): Promise<number>;
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
}

/** Hands committed events to the bus; resolves when they are confirmed (or gives up quietly after a bound). */
export interface EventRelay {
  flush(uid: string): Promise<void>;
}
