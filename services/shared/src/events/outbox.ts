import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger';
import { outboxPending, outboxRelayLag } from '../metrics/metrics';
import type { Collection, Document, Update } from '../ports/store';
import type { EventBus, EventEnvelope } from '../ports/bus';

/**
 * The transactional outbox, kept inside the changed document itself so that a
 * write and its events are one atomic single-document operation on every store
 * (no multi-document transactions needed): the write pushes its events onto
 * `_outbox` and sets `_pending`; the relay publishes them with confirms and
 * pulls each one after its confirm (the last one in the same write that
 * releases the document). A crash between the two repeats the publish
 * (at-least-once), never loses it.
 *
 * A document is deleted the same way: the write marks it `_deleted` with its
 * event (a tombstone), and the relay removes it once the event is out.
 *
 * Replicas on one store: a relay claims a document (`_relay`, a lease with its
 * owner) before publishing its events and releases it after, so the relays of
 * two replicas never publish one document's events side by side (which would
 * duplicate them and could reorder them) nor both remove a tombstone. A sweep
 * passes over a document another relay holds; a write's own flush waits for
 * the holder to finish. A relay that dies holding a claim delays the document
 * until the lease runs out; a relay slower than the lease may publish beside
 * the next one (at least once, as always).
 */
export interface OutboxFields {
  _outbox?: EventEnvelope[];
  /** Set while `_outbox` may be non-empty; indexed so the relay finds work without a scan. */
  _pending?: boolean;
  /** The relay publishing the events now, and until when (milliseconds since the epoch) its claim holds. */
  _relay?: { owner: string; until: number };
  /** A tombstone: gone for readers, removed by the relay after its events are published. */
  _deleted?: boolean;
}

/** Adds events to an update so they commit with it. */
export function withEvents(update: Update, events: EventEnvelope[]): Update {
  return {
    ...update,
    $set: { ...update.$set, _pending: true },
    $push: { ...update.$push, _outbox: { $each: events } },
  };
}

/** Fields for a new document that carries its own creation event. */
export function outboxFieldsFor(events: EventEnvelope[]): OutboxFields {
  return { _outbox: events, _pending: true };
}

/** What a producer has left unpublished (`OutboxRelay.awaitPublished`). */
export interface PublishBacklog {
  /** Every event committed before the question is confirmed by the broker. */
  published: boolean;
  /** Documents whose events are still unpublished. */
  pending: number;
  /** How long ago the oldest unpublished event's write committed (the producer's clock); 0 when published. */
  oldestAgeMs: number;
  /** The producer's broker link is down now. */
  disconnected: boolean;
}

/** How long stop() waits for publishes under way. */
const DEFAULT_STOP_WAIT_MS = 5_000;
/** How long a relay's claim on a document holds: far more than publishing its events takes. */
const DEFAULT_LEASE_MS = 30_000;
/** Between looks at a document another replica's relay holds, for a flush that waits for it. */
const CLAIM_POLL_MS = 20;

export interface OutboxRelayOptions {
  pollIntervalMs?: number;
  /** How long stop() waits for publishes under way; default 5 s. */
  stopWaitMs?: number;
  /** Runs before a tombstone is removed, e.g. to finish deleting what it contained. */
  beforeTombstoneRemoval?: (doc: Document & OutboxFields) => Promise<void>;
  /** How long a claim on a document holds (default 30 s). */
  leaseMs?: number;
  /** Names this relay in its claims (default a random UUID); content uses its replica's epoch. */
  owner?: string;
}

export class OutboxRelay {
  /** Names this relay in its claims. */
  readonly owner: string;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly collection: Collection<Document & OutboxFields>,
    private readonly bus: EventBus,
    private readonly log: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.owner = options.owner ?? randomUUID();
  }

  /** Creates the index the relay's sweep uses. */
  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ _pending: 1 }, { sparse: true });
  }

  /**
   * Frees every claim on the store's pending documents: for a process that knows every other relay on the store
   * is gone (content's start-up after a crash), so that what a killed relay held is published now, not once its
   * lease has run out. Returns how many it freed.
   */
  async releaseClaims(): Promise<number> {
    const freed = await this.collection.updateMany(
      { _pending: true, _relay: { $exists: true } },
      { $unset: { _relay: '' } },
    );
    return freed.modifiedCount;
  }

  /** Frees the claims of the relays named (replicas known to be gone), so that their documents are published now. */
  async releaseClaimsOf(owners: string[]): Promise<number> {
    if (!owners.length) return 0;
    const freed = await this.collection.updateMany(
      { _pending: true, '_relay.owner': { $in: owners } },
      { $unset: { _relay: '' } },
    );
    return freed.modifiedCount;
  }

  /** Starts the periodic sweep that retries what a flush could not publish (broker down, crash, other replica). */
  start(): void {
    const interval = this.options.pollIntervalMs ?? 1000;
    const tick = () => {
      if (this.stopped) return;
      this.sweeping = this.sweep()
        .catch((error: unknown) => this.log.warn({ err: error }, 'outbox sweep failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, interval);
        });
    };
    tick();
  }

  /**
   * Stops the sweep and waits for the publishes under way, at most `stopWaitMs`: an event whose consumer cannot
   * take it now (it may be waiting for this very service) stays in the outbox for the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS);
    });
    await Promise.race([Promise.allSettled([this.sweeping, ...this.inFlight.values()]), bound]);
    clearTimeout(timer);
  }

  /** Publishes every pending document's events; nothing while the broker cannot be reached (the next sweep will). */
  async sweep(): Promise<void> {
    if (!this.bus.connected) {
      // The backlog grows most while the broker is away: still measured.
      outboxPending.set({ collection: this.collection.name }, await this.collection.countDocuments({ _pending: true }));
      return;
    }
    const pending = await this.collection.find({ _pending: true }, { projection: { _id: 1 } });
    outboxPending.set({ collection: this.collection.name }, pending.length);
    for (const doc of pending) {
      if (this.stopped) return;
      // Passed over when another replica's relay holds it: that one publishes them.
      await this.flush(doc._id as string, { wait: false }).catch((error: unknown) =>
        this.log.warn({ err: error, docId: doc._id }, 'outbox relay deferred'),
      );
    }
  }

  /**
   * Publishes the pending events of one document, in order, and resolves once
   * the bus has confirmed them all. Calls for the same document are serialised.
   * When another replica's relay holds the document, waits for it to finish
   * (the events are then out), or with `wait: false` leaves them to it.
   */
  flush(docId: string, { wait = true }: { wait?: boolean } = {}): Promise<void> {
    const previous = this.inFlight.get(docId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.relay(docId, wait));
    this.inFlight.set(docId, next);
    const cleanup = () => {
      if (this.inFlight.get(docId) === next) this.inFlight.delete(docId);
    };
    next.then(cleanup, cleanup);
    return next;
  }

  /**
   * What a write waits for after its commit: the confirm of its events, at
   * most `timeoutMs`, and not at all while the broker cannot be reached. The
   * events are safe in the outbox either way; what is not confirmed now, the
   * sweep publishes (after the reconnection). Never rejects.
   */
  async flushWithin(docId: string, timeoutMs: number): Promise<'confirmed' | 'deferred'> {
    if (!this.bus.connected) {
      this.log.debug({ docId }, 'event bus disconnected; events left to the outbox sweep');
      return 'deferred';
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const outcome = await Promise.race([this.flush(docId).then(() => 'confirmed' as const), timeout]);
      if (outcome === 'confirmed') return outcome;
      this.log.warn({ docId }, 'event publish slow; left to the outbox sweep');
    } catch (error) {
      this.log.warn({ err: error, docId }, 'event publish failed; left to the outbox sweep');
    } finally {
      clearTimeout(timer);
    }
    return 'deferred';
  }

  /**
   * Read-your-writes across the broker (a consumer asks before answering, e.g. search over `AwaitPublished`): the
   * events committed before the call, published within `timeoutMs`, or what is left unpublished and since when.
   * With nothing pending (the normal path) it costs one indexed look-up. While the broker cannot be reached it
   * answers at once.
   */
  async awaitPublished(timeoutMs: number): Promise<PublishBacklog> {
    const pending = await this.collection.find({ _pending: true }, { projection: { _id: 1 } });
    if (pending.length === 0) return { published: true, pending: 0, oldestAgeMs: 0, disconnected: false };
    if (this.bus.connected) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      // A flush that fails or outlasts the wait leaves its events to the sweep, as a write's does.
      const flushes = Promise.allSettled(pending.map((doc) => this.flush(doc._id as string)));
      await Promise.race([flushes, timeout]);
      clearTimeout(timer);
    }
    // Only the documents pending at the call: a write committed since is not the caller's to wait for.
    const left = await this.collection.find(
      { _id: { $in: pending.map((doc) => doc._id) }, _pending: true },
      { projection: { _outbox: 1 } },
    );
    const written = left.flatMap((doc) => (doc._outbox ?? []).map((event) => Date.parse(event.occurredAt)));
    const oldest = Math.min(...written.filter(Number.isFinite));
    return {
      published: written.length === 0,
      pending: left.length,
      oldestAgeMs: written.length === 0 || !Number.isFinite(oldest) ? 0 : Math.max(0, Date.now() - oldest),
      disconnected: !this.bus.connected,
    };
  }

  /** From the write that produced the event to its confirm; a stored date that does not parse is not measured. */
  private recordLag(event: EventEnvelope): void {
    const written = Date.parse(event.occurredAt);
    if (Number.isFinite(written)) {
      outboxRelayLag.observe({ collection: this.collection.name }, Math.max(0, Date.now() - written) / 1000);
    }
  }

  private async relay(docId: string, wait: boolean): Promise<void> {
    const doc = await this.claim(docId, wait);
    if (!doc) return;
    let released = false;
    try {
      const events = doc._outbox ?? [];
      for (const [i, event] of events.entries()) {
        await this.bus.publish(event);
        this.recordLag(event);
        // The last event's pull and the release in one write, when the outbox holds only that event (no write
        // pushed one meanwhile): a write of the document fewer for every write that has events.
        if (i === events.length - 1) {
          const settled = await this.collection.updateOne(
            { _id: docId, _outbox: { $size: 1 }, '_outbox.id': event.id },
            { $set: { _outbox: [] }, $unset: { _pending: '', _relay: '' } },
          );
          released = settled.matchedCount > 0;
          if (released) break;
        }
        await this.collection.updateOne({ _id: docId }, { $pull: { _outbox: { id: event.id } } });
      }
      if (!released) {
        // Only when no write pushed new events meanwhile; the claim goes with it.
        const settled = await this.collection.updateOne(
          { _id: docId, _outbox: { $size: 0 } },
          { $unset: { _pending: '', _relay: '' } },
        );
        released = settled.matchedCount > 0;
      }
      if (doc._deleted) {
        await this.options.beforeTombstoneRemoval?.(doc);
        await this.collection.deleteOne({ _id: docId, _deleted: true, _outbox: { $size: 0 } });
      }
    } finally {
      // Events pushed meanwhile are then free for the flush of the write that pushed them, on any replica.
      if (!released)
        await this.collection.updateOne({ _id: docId, '_relay.owner': this.owner }, { $unset: { _relay: '' } });
    }
  }

  /**
   * The pending document, claimed for this relay; null when nothing is pending, or when another relay holds it
   * and `wait` is false (with `wait`, polls until that one is done or its claim has run out).
   */
  private async claim(docId: string, wait: boolean): Promise<(Document & OutboxFields) | null> {
    const leaseMs = this.options.leaseMs ?? DEFAULT_LEASE_MS;
    for (;;) {
      const now = Date.now();
      const claimed = await this.collection.findOneAndUpdate(
        {
          _id: docId,
          _pending: true,
          $or: [{ _relay: { $exists: false } }, { '_relay.until': { $lt: now } }, { '_relay.owner': this.owner }],
        },
        { $set: { _relay: { owner: this.owner, until: now + leaseMs } } },
        { returnDocument: 'after' },
      );
      if (claimed) return claimed;
      if (!wait || this.stopped) return null;
      const current = await this.collection.findOne({ _id: docId }, { projection: { _pending: 1 } });
      if (!current?._pending) return null;
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }
}
