import {
  OutboxRelay,
  type Collection,
  type Document,
  type EventBus,
  type Logger,
  type OutboxFields,
} from '@cms/shared';
import type { EventFlusher } from '../domain/write-path';

/**
 * Publishes identity events (documented in proto/EVENTS.md) from the outboxes
 * of the users and groups collections. A write waits for its events' confirm
 * at most `flushTimeoutMs`, and not at all while the broker cannot be reached:
 * it is committed either way, and the sweep delivers what could not go out now
 * (e.g. while no consumer takes them off an in-process bus). Stopping waits as
 * long at most; what is still unpublished stays in the outbox for the next start.
 */
export class IdentityEventRelay implements EventFlusher {
  readonly users: OutboxRelay;
  readonly groups: OutboxRelay;

  constructor(
    users: Collection<Document & OutboxFields>,
    groups: Collection<Document & OutboxFields>,
    bus: EventBus,
    private readonly log: Logger,
    private readonly flushTimeoutMs: number,
  ) {
    this.users = new OutboxRelay(users, bus, log);
    this.groups = new OutboxRelay(groups, bus, log);
  }

  async ensureIndexes(): Promise<void> {
    await this.users.ensureIndexes();
    await this.groups.ensureIndexes();
  }

  start(): void {
    this.users.start();
    this.groups.start();
  }

  async stop(): Promise<void> {
    const stopped = await this.bounded(Promise.all([this.users.stop(), this.groups.stop()]));
    if (stopped === 'timeout') this.log.warn('identity events still unpublished at stop; left in the outbox');
  }

  flushUser(id: string): Promise<void> {
    return this.flush(this.users, id);
  }

  flushGroup(id: string): Promise<void> {
    return this.flush(this.groups, id);
  }

  private async flush(outbox: OutboxRelay, id: string): Promise<void> {
    await outbox.flushWithin(id, this.flushTimeoutMs);
  }

  private async bounded(work: Promise<unknown>): Promise<'done' | 'timeout'> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), this.flushTimeoutMs)),
    );
    try {
      return await Promise.race([work.then(() => 'done' as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
