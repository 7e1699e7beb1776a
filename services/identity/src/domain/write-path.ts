import {
  conflict,
  DEFAULT_RETRY,
  notFound,
  LOST_RACE,
  retryLostRaces,
  type Document,
  type EventEnvelope,
  type OutboxFields,
  type WriteRetry,
} from '@cms/shared';

/**
 * The one way identity writes a user or group: read the record, plan from it
 * what to write, write that only if the record is still at the version read
 * (else read again after a short randomized wait, a bounded number of times,
 * then 409), with the write's events in the record's outbox. After the commit:
 * the writes that complete it, the announcement of changed principals (so
 * cached credentials are dropped), and the publication of the events.
 */

/** A record the write path changes: `version` is bumped by every write (absent on records older than versions). */
export interface VersionedRecord extends Document, OutboxFields {
  _id: string;
  version?: number;
}

/** What the write path needs of the collection of one kind of record; implemented in store/. */
export interface VersionedStore<T extends VersionedRecord> {
  /** A live record (not a tombstone). */
  byId(id: string): Promise<T | null>;
  /** False when the id is taken by a live record; a tombstone with the id is replaced (its queued events stay). */
  insert(record: T): Promise<boolean>;
  /**
   * If the record is live at `expectedVersion` (undefined: written before versions existed), sets `changes`
   * and the next version and queues `events` in its outbox, in one atomic write; false otherwise.
   */
  updateAt(
    id: string,
    expectedVersion: number | undefined,
    changes: Partial<T>,
    events: EventEnvelope[],
  ): Promise<boolean>;
  /** As `updateAt`, marking the record removed: a tombstone, emptied of what must not outlive it, until its events are out. */
  tombstoneAt(id: string, expectedVersion: number | undefined, events: EventEnvelope[]): Promise<boolean>;
}

/** Hands committed events to the bus; resolves when confirmed, or quietly after a bound. */
export interface EventFlusher {
  flushUser(id: string): Promise<void>;
  flushGroup(id: string): Promise<void>;
}

/**
 * Told when what a principal may do changed (password, roles, membership,
 * removal), so caches of verified credentials can be dropped.
 */
export interface PrincipalChanges {
  /** Resolves once the change is announced; writes await it before answering. */
  userChanged(id: string): Promise<void>;
  /** Anything may have changed, e.g. a group's roles. */
  allChanged(): Promise<void>;
}

/** Whose cached credentials a write makes stale: one user's, or anyone's. */
export type Announcement = { user: string } | 'all';

interface Effects {
  /** Events that commit with the write (outbox) and are published after it. */
  events?: EventEnvelope[];
  announce?: Announcement;
  /** Writes that complete a committed change, e.g. dropping a removed principal from the groups that held it. */
  followUp?: () => Promise<void>;
}

/** What to write on the record read: fields to set (the version is the write path's), or its removal. */
export type Change<T> = ({ set: Partial<T> } | { remove: true }) & Effects;

/**
 * Plans from the current record what to write; null: nothing. Called again on
 * every attempt; it may refuse (throw), and nothing of the write is left then.
 */
export type Plan<T> = (current: T) => Change<T> | null | Promise<Change<T> | null>;

/** Takes a write back. */
export type Undo = () => Promise<void>;

/** A write to another record that must stand or fall with the change (e.g. a user's portrait). */
export interface SideWrite {
  /** Makes the write; resolves to what takes it back. */
  apply(): Promise<Undo>;
}

export interface ChangeOptions {
  /** When the record is not there: 404 (the default), or nothing to do. */
  ifMissing?: 'notFound' | 'skip';
  /** Made once, after the first plan and before the first write; taken back unless the change commits. */
  alongside?: SideWrite;
}

export interface WritePathOptions {
  /** What the records are, in messages: `user`, `group`. */
  kind: string;
  /** Publishes the events queued in a record's outbox (and lets the relay drop a tombstone). */
  flush: (id: string) => Promise<void>;
  changes: PrincipalChanges;
  retry?: Partial<WriteRetry>;
}

/** The write path of one kind of record. */
export class WritePath<T extends VersionedRecord> {
  private readonly retry: WriteRetry;

  constructor(
    private readonly records: VersionedStore<T>,
    private readonly options: WritePathOptions,
  ) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Writes a new record; false when its id is taken. */
  async insert(record: T, announce?: Announcement): Promise<boolean> {
    if (!(await this.records.insert(record))) return false;
    await this.announce(announce);
    return true;
  }

  /** Changes the record `id` as `plan` says (see the module comment); false when nothing was written. */
  async change(id: string, plan: Plan<T>, options: ChangeOptions = {}): Promise<boolean> {
    let undo: Undo | undefined;
    const prepare = async () => {
      undo ??= await options.alongside?.apply();
    };
    let committed: Change<T> | null;
    try {
      committed = await this.commit(id, plan, options.ifMissing ?? 'notFound', prepare);
    } catch (error) {
      // The refusal or conflict is the answer; a take-back that fails too has nothing better to say.
      await undo?.().catch(() => undefined);
      throw error;
    }
    if (!committed) {
      await undo?.();
      return false;
    }
    await this.complete(id, committed);
    return true;
  }

  /** Reads, plans and writes until a write commits; the change committed, or null for nothing to write. */
  private async commit(
    id: string,
    plan: Plan<T>,
    ifMissing: 'notFound' | 'skip',
    prepare: () => Promise<void>,
  ): Promise<Change<T> | null> {
    return retryLostRaces(
      this.retry,
      async () => {
        const current = await this.records.byId(id);
        if (!current) {
          if (ifMissing === 'skip') return null;
          throw notFound(`No ${this.options.kind} ${id}`);
        }
        const change = await plan(current);
        if (!change) return null;
        await prepare();
        return (await this.write(current, change)) ? change : LOST_RACE;
      },
      () => conflict(`The ${this.options.kind} ${id} is being changed by others; try again`),
    );
  }

  private write(current: T, change: Change<T>): Promise<boolean> {
    const events = change.events ?? [];
    return 'remove' in change
      ? this.records.tombstoneAt(current._id, current.version, events)
      : this.records.updateAt(current._id, current.version, change.set, events);
  }

  /** After the commit: the follow-up writes, then, whatever became of them, the announcement and the events. */
  private async complete(id: string, change: Change<T>): Promise<void> {
    try {
      await change.followUp?.();
    } finally {
      await this.announce(change.announce);
      if (change.events?.length || 'remove' in change) await this.options.flush(id);
    }
  }

  private async announce(announcement: Announcement | undefined): Promise<void> {
    if (announcement === 'all') await this.options.changes.allChanged();
    else if (announcement) await this.options.changes.userChanged(announcement.user);
  }
}
