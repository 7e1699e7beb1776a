import { withEvents, type Collection, type DocumentStore, type EventEnvelope, type Filter } from '@cms/shared';
import type { GroupDoc } from '../domain/group';
import type { GroupStore } from '../domain/groups-repository';
import { contains, insertOverTombstone, LIVE, updateAtVersion } from './records';

export class GroupsRepository implements GroupStore {
  readonly groups: Collection<GroupDoc>;

  constructor(store: DocumentStore) {
    this.groups = store.collection<GroupDoc>('groups');
  }

  /** Membership look-ups (which groups contain a principal) are indexed. */
  async ensureIndexes(): Promise<void> {
    await this.groups.createIndex({ members: 1 });
  }

  byId(id: string): Promise<GroupDoc | null> {
    return this.groups.findOne({ _id: id, ...LIVE }, { projection: { _outbox: 0 } });
  }

  async byIds(ids: string[]): Promise<GroupDoc[]> {
    if (ids.length === 0) return [];
    return this.groups.find({ _id: { $in: ids }, ...LIVE }, { projection: { _outbox: 0 } });
  }

  list(text?: string): Promise<GroupDoc[]> {
    const filter: Filter = { ...LIVE };
    if (text !== undefined) filter.$or = [{ _id: contains(text) }, { title: contains(text) }];
    return this.groups.find(filter, { sort: { _id: 1 }, projection: { _outbox: 0 } });
  }

  async containing(memberIds: string[]): Promise<GroupDoc[]> {
    if (memberIds.length === 0) return [];
    return this.groups.find({ members: { $in: memberIds }, ...LIVE }, { projection: { _outbox: 0 } });
  }

  insert(group: GroupDoc): Promise<boolean> {
    return insertOverTombstone(this.groups, group);
  }

  updateAt(
    id: string,
    expectedVersion: number | undefined,
    changes: Partial<GroupDoc>,
    events: EventEnvelope[],
  ): Promise<boolean> {
    const update = { $set: changes };
    return updateAtVersion(this.groups, id, expectedVersion, events.length ? withEvents(update, events) : update);
  }

  /** The members go at once: a tombstone gives no roles. */
  tombstoneAt(id: string, expectedVersion: number | undefined, events: EventEnvelope[]): Promise<boolean> {
    return updateAtVersion(
      this.groups,
      id,
      expectedVersion,
      withEvents({ $set: { _deleted: true, members: [] } }, events),
    );
  }

  async removeMemberEverywhere(memberId: string): Promise<void> {
    await this.groups.updateMany(
      { members: memberId, ...LIVE },
      { $pull: { members: memberId }, $inc: { version: 1 } },
    );
  }
}
