import type { Collection, DocumentStore } from '@cms/shared';
import type { GroupMember, TranslationIndex } from '../domain/translations';

/** One object's entry: its translation group (null: linked to nothing) and language, at a content version. */
interface MemberRecord extends GroupMember {
  [key: string]: unknown;
}

/**
 * The translation groups as the translations consumer keeps them (`translation_groups`): one entry per object
 * that was ever linked, keyed by its UID, indexed by group. An entry only moves forward in content versions,
 * so a redelivered or late event never sets an object back.
 */
export class StoreTranslationGroups implements TranslationIndex {
  private readonly members: Collection<MemberRecord>;

  constructor(store: DocumentStore) {
    this.members = store.collection<MemberRecord>('translation_groups');
  }

  async ensureIndexes(): Promise<void> {
    await this.members.createIndex({ group: 1 });
  }

  async member(uid: string): Promise<GroupMember | null> {
    return this.members.findOne({ _id: uid });
  }

  async group(group: string): Promise<GroupMember[]> {
    return this.members.find({ group }, { sort: { language: 1 } });
  }

  async put(member: GroupMember): Promise<boolean> {
    const stored = await this.members.findOne({ _id: member._id });
    if (stored && stored.version >= member.version) return false;
    if (!stored && member.group === null) return false;
    const { _id, ...values } = member;
    const result = await this.members.updateOne(
      stored ? { _id, version: stored.version } : { _id },
      { $set: values },
      { upsert: !stored },
    );
    return result.modifiedCount + (result.upsertedId ? 1 : 0) > 0;
  }

  async remove(uids: string[]): Promise<void> {
    if (uids.length) await this.members.deleteMany({ _id: { $in: uids } });
  }

  async all(): Promise<GroupMember[]> {
    return this.members.find({ group: { $ne: null } }, { sort: { _id: 1 } });
  }

  /**
   * Writes every entry, then removes the others: a replacement cut short (the service stopped) leaves each entry
   * either new or as it was, never the index emptied.
   */
  async replaceAll(members: GroupMember[]): Promise<void> {
    for (const member of members) {
      const { _id, ...values } = member;
      await this.members.updateOne({ _id }, { $set: values }, { upsert: true });
    }
    const kept = new Set(members.map((member) => member._id));
    const stale = (await this.members.find({}, { projection: { _id: 1 } })).filter((record) => !kept.has(record._id));
    await this.remove(stale.map((record) => record._id));
  }
}
