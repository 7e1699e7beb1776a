import { OutboxRelay, type EventBus, type Logger } from '@cms/shared';
import type { EventRelay } from '../domain/repository';
import type { StoreContentRepository } from '../store/content-repository';

/**
 * Publishes content events from the outbox. A write waits for its own events
 * to be confirmed (so a search right after it sees the change), but at most
 * `flushTimeoutMs`: the write is committed either way, and the sweep delivers
 * what the broker could not take now.
 */
export class ContentEventRelay implements EventRelay {
  readonly outbox: OutboxRelay;

  constructor(
    repo: StoreContentRepository,
    bus: EventBus,
    private readonly log: Logger,
    private readonly flushTimeoutMs: number,
  ) {
    this.outbox = new OutboxRelay(repo.docs, bus, log, {
      // A delete interrupted after its commit point finishes here.
      beforeTombstoneRemoval: (doc) => repo.deleteDescendants(doc._id as string),
    });
  }

  async flush(uid: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), this.flushTimeoutMs)),
    );
    try {
      const outcome = await Promise.race([this.outbox.flush(uid).then(() => 'done' as const), timeout]);
      if (outcome === 'timeout') this.log.warn({ uid }, 'event publish slow; left to the outbox sweep');
    } catch (error) {
      this.log.warn({ err: error, uid }, 'event publish failed; left to the outbox sweep');
    } finally {
      clearTimeout(timer);
    }
  }
}
