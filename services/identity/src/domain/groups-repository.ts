import type { EventEnvelope } from '@cms/shared';
import type { GroupDoc } from './groups';

/** What the group rules need of persistence; implemented in store/ over the store port. */
export interface GroupStore {
  /** A live group (not a tombstone). */
  byId(id: string): Promise<GroupDoc | null>;
  byIds(ids: string[]): Promise<GroupDoc[]>;
  /** Live groups sorted by id; with `text`, those whose id or title contains it (case-insensitive). */
  list(text?: string): Promise<GroupDoc[]>;
  /** Live groups that have any of the ids as a direct member. */
  containing(memberIds: string[]): Promise<GroupDoc[]>;
  /** False when the id is taken by a live group; a tombstone with the id is replaced. */
  insert(group: GroupDoc): Promise<boolean>;
  /** Applies changes if the group is still at `expectedVersion`; null on a conflict or when it is gone. */
  update(id: string, expectedVersion: number, changes: Partial<GroupDoc>): Promise<GroupDoc | null>;
  tombstone(id: string, expectedVersion: number, event: EventEnvelope): Promise<boolean>;
  /** Drops a removed principal from every group it was a member of. */
  removeMemberEverywhere(memberId: string): Promise<void>;
}
