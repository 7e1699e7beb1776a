import type { Collection, DocumentStore } from '../ports/store';

/**
 * Where a rebuild over the content objects (search's `Reindex`, content's `RebuildTranslations`) stands. Kept in
 * the rebuilding service's own store rather than beside the tool, so that the next rebuild goes on from it on
 * whichever replica it lands (the tool runs as a Kubernetes Job, the service may have restarted meanwhile).
 */
export type RebuildCheckpoint = {
  /** The rebuild's name: one checkpoint per kind of rebuild. */
  _id: string;
  /** When the rebuild cut short began: a resumed one goes on with this time, so what it wrote counts as its own. */
  started_at: string;
  /** The last UID the scan (in UID order) yielded whose work is written; '' before the first. */
  after_uid: string;
  /** Objects done so far, for the progress. */
  done: number;
  /** The scan is complete: only the steps after it are left. */
  scan_complete: boolean;
  saved_at: string;
};

/** The checkpoints of one service's rebuilds (`rebuild_checkpoints`); a rebuild that ends clears its own. */
export class RebuildCheckpoints {
  private readonly checkpoints: Collection<RebuildCheckpoint>;

  constructor(
    store: DocumentStore,
    readonly name: string,
  ) {
    this.checkpoints = store.collection<RebuildCheckpoint>('rebuild_checkpoints');
  }

  load(): Promise<RebuildCheckpoint | null> {
    return this.checkpoints.findOne({ _id: this.name });
  }

  async save(checkpoint: Omit<RebuildCheckpoint, '_id'>): Promise<void> {
    await this.checkpoints.updateOne({ _id: this.name }, { $set: checkpoint }, { upsert: true });
  }

  /** The rebuild ended (or is to start from scratch): the next one starts over. */
  async clear(): Promise<void> {
    await this.checkpoints.deleteOne({ _id: this.name });
  }
}
