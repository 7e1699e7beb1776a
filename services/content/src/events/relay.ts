import { OutboxRelay, type EventBus, type Logger } from '@cms/shared';
import type { EventRelay } from '../domain/content';
import type { StoreContentRepository } from '../store/content-repository';

/**
 * Publishes content events from the outbox. A write waits for its own events
 * to be confirmed (so a search right after it sees the change), but at most
 * `flushTimeoutMs`, and not at all while the broker cannot be reached: the
 * write is committed either way, and the sweep delivers what the broker could
 * not take now.
 */
export class ContentEventRelay implements EventRelay {
  readonly outbox: OutboxRelay;

  constructor(
    repo: StoreContentRepository,
    bus: EventBus,
    log: Logger,
    private readonly flushTimeoutMs: number,
    /** Names this relay in its outbox claims: the replica's epoch, so that the others can free them if it is lost. */
    owner: string,
  ) {
    this.outbox = new OutboxRelay(repo.docs, bus, log, {
      owner,
      // A delete interrupted after its commit point finishes here.
      beforeTombstoneRemoval: (doc) => repo.deleteDescendants(doc._id as string),
    });
  }

  async flush(uid: string): Promise<void> {
    await this.outbox.flushWithin(uid, this.flushTimeoutMs);
  }
}
