import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@cms/shared';

/** One reference of a source object, to a live or gone target. */
export interface StoredReference {
  relation: string;
  target: string;
}

/** The references one object holds, as extracted from the version `version` of it. `_id` is its UID. */
export interface ReferenceRecord extends Document {
  _id: string;
  version: number;
  refs: StoredReference[];
  /** Every target UID, for "who refers to these" (indexed). */
  targets: string[];
  /** Every relation name, for "every relation of this name" (indexed). */
  relations: string[];
}

/**
 * The reference index: which objects refer to which, fed by content events (events/references-consumer.ts)
 * and rebuilt from the content store on request. Kept by source; idempotent by the source's version.
 */
export class ReferenceIndex {
  private readonly records: Collection<ReferenceRecord>;

  constructor(store: DocumentStore) {
    this.records = store.collection<ReferenceRecord>('references');
  }

  async ensureIndexes(): Promise<void> {
    await this.records.createIndex({ targets: 1 });
    await this.records.createIndex({ relations: 1 });
  }

  /**
   * Stores the references of a source at `version`, unless the index holds a newer version of it already (a
   * redelivered or overtaken event); `force` replaces whatever it holds (a rebuild: the store is right). True
   * when stored.
   */
  async put(uid: string, version: number, refs: StoredReference[], force = false): Promise<boolean> {
    const set = {
      version,
      refs,
      targets: [...new Set(refs.map((r) => r.target))],
      relations: [...new Set(refs.map((r) => r.relation))],
    };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const filter = force ? { _id: uid } : { _id: uid, version: { $lt: version } };
      const updated = await this.records.updateOne(filter, { $set: set });
      if (updated.matchedCount === 1) return true;
      if (await this.records.findOne({ _id: uid }, { projection: { _id: 1 } })) return false;
      try {
        await this.records.insertOne({ _id: uid, ...set });
        return true;
      } catch (error) {
        // A concurrent handler inserted it first: compare versions with that one.
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    }
    return false;
  }

  async remove(uids: readonly string[]): Promise<void> {
    if (uids.length) await this.records.deleteMany({ _id: { $in: [...uids] } });
  }

  get(uid: string): Promise<ReferenceRecord | null> {
    return this.records.findOne({ _id: uid });
  }

  /** The records of the sources that refer to any of `targets`. */
  referringTo(targets: readonly string[]): Promise<ReferenceRecord[]> {
    return targets.length ? this.records.find({ targets: { $in: [...targets] } }) : Promise.resolve([]);
  }

  withRelation(relation: string): Promise<ReferenceRecord[]> {
    return this.records.find({ relations: relation });
  }

  all(): Promise<ReferenceRecord[]> {
    return this.records.find({});
  }

  /** UIDs of every source the index holds (a rebuild drops those content no longer has). */
  async sources(): Promise<string[]> {
    return (await this.records.find({}, { projection: { _id: 1 } })).map((r) => r._id);
  }
}
