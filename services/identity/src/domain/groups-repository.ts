import type { GroupDoc } from './group';
import type { VersionedStore } from './write-path';

/**
 * What the group rules need of persistence; implemented in store/ over the
 * store port. Groups are written through the write path (`VersionedStore`).
 */
export interface GroupStore extends VersionedStore<GroupDoc> {
  byIds(ids: string[]): Promise<GroupDoc[]>;
  /** Live groups sorted by id; with `text`, those whose id or title contains it (case-insensitive). */
  list(text?: string): Promise<GroupDoc[]>;
  /** Live groups that have any of the ids as a direct member. */
  containing(memberIds: string[]): Promise<GroupDoc[]>;
  /** Drops a removed principal from every group it was a member of (each such group's version is bumped). */
  removeMemberEverywhere(memberId: string): Promise<void>;
}
