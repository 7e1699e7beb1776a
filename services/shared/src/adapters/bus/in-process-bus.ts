import type { Logger } from '../../logging/logger';
import { decodeEvent, encodeEvent } from '../../events/codec';
import type { DomainEvent } from '../../events/event-types';
import { BroadcastSubscriber } from '../../events/broadcast';
import type {
  BroadcastMessage,
  BroadcastSubscription,
  EventBus,
  EventEnvelope,
  EventHandler,
  SubscribeOptions,
  Subscription,
} from '../../ports/bus';
import {
  type BusOptions,
  describeError,
  matchesTopic,
  normalizeTopology,
  resolveDeliveryLimit,
  resolvePrefetch,
  resolveRetryDelays,
  retryDelayAfter,
} from '../../events/topology';
import type { Context } from '@opentelemetry/api';
import { activeTraceContext, inSpan } from '../../tracing/spans';
import {
  eventsConsumed,
  eventsDeadLettered,
  eventsPublished,
  eventsRetried,
  eventTypeLabel,
  observeApplyLag,
} from '../../metrics/metrics';

/** A message a group gave up on, as its dead-letter queue would keep it. */
export interface DeadLetter {
  routingKey: string;
  /** The message as it was published. */
  body: Buffer;
  /** Why: the message was refused (did not decode or validate), or its handler kept failing. */
  reason: string;
  /** The handler's last error, when it kept failing. */
  lastError?: string;
  /** The event, when the message decodes. */
  event?: DomainEvent;
}

export interface InProcessBus extends EventBus {
  readonly kind: 'in-process';
  /**
   * Routes message bytes as they are, as any client of a broker can; the
   * consumer side decodes and validates them like every other message. Tests
   * forge messages with it.
   */
  publishRaw(routingKey: string, body: Buffer): Promise<void>;
  /** Copies of what `group` dead-lettered, oldest first. */
  deadLetters(group: string): DeadLetter[];
  /**
   * Sends what `group` dead-lettered back to it with its failure count reset,
   * as the RabbitMQ replay command does; resolves with how many.
   */
  replayDeadLetters(group: string): number;
}

const noop = () => {};

/** Kept as the bytes; deadLetters() decodes them afresh. */
type DeadMessage = Omit<DeadLetter, 'event'>;

/** One message in one group's queue: the encoded bytes, decoded afresh for each delivery. */
interface Pending {
  routingKey: string;
  body: Buffer;
  /** Handler failures so far. */
  failures: number;
  /** Settles the publisher's promise: handled (or dead-lettered), or dropped at close. */
  handled: () => void;
  dropped: (error: Error) => void;
  /** The publisher's trace context, as AMQP headers carry it: the consumer's span continues its trace. */
  trace?: Context;
}

interface Consumer {
  handler: EventHandler;
  prefetch: number;
  stopped: boolean;
  inFlight: Set<Promise<void>>;
}

/** The in-memory counterpart of one durable group queue. */
class GroupQueue {
  readonly pending: Pending[] = [];
  /** Failed events waiting for their retry, with the timer that puts each back in `pending`. */
  readonly delayed = new Map<Pending, NodeJS.Timeout>();
  readonly dead: DeadMessage[] = [];
  readonly consumers: Consumer[] = [];
  inFlight = 0;
  dispatchScheduled = false;
  private nextConsumer = 0;
  private readonly progressListeners = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly patterns: string[],
  ) {}

  get idle(): boolean {
    return this.pending.length === 0 && this.inFlight === 0 && this.delayed.size === 0;
  }

  matches(routingKey: string): boolean {
    return this.patterns.some((pattern) => matchesTopic(pattern, routingKey));
  }

  /** Round-robin over the group's consumers, like competing consumers on one queue. */
  takeConsumer(): Consumer | undefined {
    for (let i = 0; i < this.consumers.length; i++) {
      const index = (this.nextConsumer + i) % this.consumers.length;
      const consumer = this.consumers[index];
      if (consumer.inFlight.size < consumer.prefetch) {
        this.nextConsumer = index + 1;
        return consumer;
      }
    }
    return undefined;
  }

  onProgress(listener: () => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  notifyProgress(): void {
    for (const listener of [...this.progressListeners]) listener();
  }
}

class InProcessEventBus implements InProcessBus {
  readonly kind = 'in-process' as const;
  private readonly groups = new Map<string, GroupQueue>();
  private readonly broadcastSubscribers = new Set<BroadcastSubscriber>();
  private readonly logger: Logger;
  private readonly deliveryLimit: number;
  private readonly retryDelays: number[];
  private closed = false;

  constructor(options: BusOptions) {
    this.logger = options.logger;
    this.deliveryLimit = resolveDeliveryLimit(options);
    this.retryDelays = resolveRetryDelays(options);
    for (const [group, patterns] of normalizeTopology(options.topology)) {
      this.groups.set(group, new GroupQueue(group, patterns));
    }
  }

  /**
   * Resolves once every matching group has handled the event (or dead-lettered
   * it). Nothing here is durable, so this is the bus's "confirm": until then
   * the publisher's outbox keeps the only lasting copy, and a crash in between
   * repeats the event instead of losing it.
   */
  async publish(event: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('Event bus is closed');
    // Encoded now, as for a broker: later changes to the object do not travel, and every handler decodes its own copy.
    await this.route(event.type, encodeEvent(event), `Event ${event.id} of type ${event.type}`);
    eventsPublished.inc({ type: eventTypeLabel(event.type) });
  }

  async publishRaw(routingKey: string, body: Buffer): Promise<void> {
    if (this.closed) throw new Error('Event bus is closed');
    await this.route(routingKey, Buffer.from(body), `A message routed as ${routingKey}`);
  }

  async subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription> {
    if (this.closed) throw new Error('Event bus is closed');
    const prefetch = resolvePrefetch(options.prefetch);
    const group = this.groupFor(options);
    const consumer: Consumer = { handler, prefetch, stopped: false, inFlight: new Set() };
    group.consumers.push(consumer);
    this.scheduleDispatch(group);
    return {
      stop: () => this.stopConsumer(group, consumer),
      waitUntilDrained: (timeoutMs) => this.waitUntilDrained(group, timeoutMs),
    };
  }

  /** Delivered after this call returns, as a broker would, to every subscriber of the topic in this process. */
  async broadcast(topic: string, body: Buffer, origin: string): Promise<void> {
    if (this.closed) throw new Error('Event bus is closed');
    const copy = Buffer.from(body);
    for (const subscriber of this.broadcastSubscribers) {
      if (subscriber.topic !== topic) continue;
      setImmediate(() => subscriber.deliver({ topic, body: Buffer.from(copy), origin }));
    }
  }

  async subscribeBroadcast(
    topic: string,
    handler: (message: BroadcastMessage) => void,
  ): Promise<BroadcastSubscription> {
    if (this.closed) throw new Error('Event bus is closed');
    const subscriber = new BroadcastSubscriber(topic, handler, this.logger, (s) => this.broadcastSubscribers.delete(s));
    this.broadcastSubscribers.add(subscriber);
    // Nothing can be missed within one process.
    subscriber.setLive(true);
    return subscriber;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('Event bus is closed');
  }

  get connected(): boolean {
    return !this.closed;
  }

  async ready(): Promise<void> {
    if (this.closed) throw new Error('Event bus is closed');
  }

  async deadLetterCounts(): Promise<Record<string, number>> {
    if (this.closed) throw new Error('Event bus is closed');
    return Object.fromEntries([...this.groups.values()].map((group) => [group.name, group.dead.length]));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const subscriber of [...this.broadcastSubscribers]) await subscriber.stop();
    const dropped = new Error('Event bus closed before the event was handled');
    for (const group of this.groups.values()) {
      for (const item of group.pending.splice(0)) item.dropped(dropped);
      for (const [item, timer] of group.delayed) {
        clearTimeout(timer);
        item.dropped(dropped);
      }
      group.delayed.clear();
    }
    await Promise.all(
      [...this.groups.values()].flatMap((group) => [...group.consumers].map((c) => this.stopConsumer(group, c))),
    );
  }

  deadLetters(group: string): DeadLetter[] {
    return (this.groups.get(group)?.dead ?? []).map(({ routingKey, body, reason, lastError }) => {
      const decoded = decodeEvent(body, routingKey);
      return {
        routingKey,
        body: Buffer.from(body),
        reason,
        ...(lastError === undefined ? {} : { lastError }),
        ...(decoded.ok ? { event: decoded.event } : {}),
      };
    });
  }

  replayDeadLetters(name: string): number {
    if (this.closed) throw new Error('Event bus is closed');
    const group = this.groups.get(name);
    if (!group) return 0;
    const replayed = group.dead.splice(0, group.dead.length);
    for (const { routingKey, body } of replayed) {
      // Its publisher was answered when it was dead-lettered.
      group.pending.push({ routingKey, body, failures: 0, handled: noop, dropped: noop });
    }
    this.logger.info({ group: name, replayed: replayed.length }, 'Dead-lettered events replayed');
    this.scheduleDispatch(group);
    return replayed.length;
  }

  private async route(routingKey: string, body: Buffer, what: string): Promise<void> {
    const targets = [...this.groups.values()].filter((group) => group.matches(routingKey));
    if (targets.length === 0) throw new Error(`${what} is unroutable: no consumer group matches`);
    const trace = activeTraceContext();
    await Promise.all(
      targets.map(
        (group) =>
          new Promise<void>((handled, dropped) => {
            group.pending.push({ routingKey, body, failures: 0, handled, dropped, trace });
            this.scheduleDispatch(group);
          }),
      ),
    );
  }

  private groupFor({ group: name, patterns }: SubscribeOptions): GroupQueue {
    let group = this.groups.get(name);
    if (!group) {
      group = new GroupQueue(name, []);
      this.groups.set(name, group);
    }
    const undeclared = patterns.filter((pattern) => !group.patterns.includes(pattern));
    if (undeclared.length > 0) {
      this.logger.warn(
        { group: name, patterns: undeclared },
        'Subscription patterns are not in the bus topology; events published before subscribing were not kept for them',
      );
      group.patterns.push(...undeclared);
    }
    return group;
  }

  private scheduleDispatch(group: GroupQueue): void {
    if (group.dispatchScheduled) return;
    group.dispatchScheduled = true;
    // Handlers never run inside publish() or subscribe(), as with a broker.
    queueMicrotask(() => {
      group.dispatchScheduled = false;
      this.dispatch(group);
    });
  }

  private dispatch(group: GroupQueue): void {
    while (group.pending.length > 0) {
      const consumer = group.takeConsumer();
      if (!consumer) return;
      const item = group.pending.shift()!;
      const decoded = decodeEvent(item.body, item.routingKey);
      if (decoded.ok) this.deliver(group, consumer, item, decoded.event);
      else this.refuse(group, item, decoded.reason);
    }
  }

  /** A message that does not decode or validate never will: dead-lettered at once, the handler never sees it. */
  private refuse(group: GroupQueue, item: Pending, reason: string): void {
    group.dead.push({ routingKey: item.routingKey, body: item.body, reason });
    eventsDeadLettered.inc({ group: group.name, reason: 'refused' });
    this.logger.error(
      { group: group.name, routingKey: item.routingKey, reason, attempt: item.failures + 1 },
      'Event refused and dead-lettered',
    );
    item.handled();
    group.notifyProgress();
  }

  private deliver(group: GroupQueue, consumer: Consumer, item: Pending, event: DomainEvent): void {
    group.inFlight++;
    const delivery = { event, attempt: item.failures + 1 };
    const run: Promise<void> = Promise.resolve()
      .then(() =>
        inSpan(
          `${group.name} process`,
          'consumer',
          { 'messaging.system': 'in-process', 'messaging.destination.name': event.type, 'cms.group': group.name },
          () => consumer.handler(delivery),
          item.trace,
        ),
      )
      .then(
        () => {
          eventsConsumed.inc({ group: group.name });
          observeApplyLag(group.name, event.occurredAt);
          item.handled();
        },
        (err: unknown) => this.handlerFailed(group, item, event, err),
      )
      .finally(() => {
        consumer.inFlight.delete(run);
        group.inFlight--;
        group.notifyProgress();
        this.dispatch(group);
      });
    consumer.inFlight.add(run);
  }

  /** As on RabbitMQ: a retry after a delay that grows with the failures, dead-lettered after `deliveryLimit` of them. */
  private handlerFailed(group: GroupQueue, item: Pending, event: DomainEvent, err: unknown): void {
    const failures = item.failures + 1;
    const context = { err, group: group.name, eventId: event.id, type: event.type, attempt: failures, failures };
    if (failures >= this.deliveryLimit) {
      const lastError = describeError(err);
      group.dead.push({ routingKey: item.routingKey, body: item.body, reason: 'delivery limit reached', lastError });
      eventsDeadLettered.inc({ group: group.name, reason: 'delivery_limit' });
      this.logger.error(
        { ...context, deadLetters: group.dead.length },
        'Event dead-lettered after reaching the delivery limit',
      );
      item.handled();
      return;
    }
    const retryInMs = retryDelayAfter(failures, this.retryDelays);
    eventsRetried.inc({ group: group.name });
    this.logger.warn({ ...context, retryInMs }, 'Event handler failed; retrying later');
    const retry = { ...item, failures };
    group.delayed.set(
      retry,
      setTimeout(() => {
        group.delayed.delete(retry);
        group.pending.push(retry);
        this.scheduleDispatch(group);
      }, retryInMs),
    );
  }

  private async stopConsumer(group: GroupQueue, consumer: Consumer): Promise<void> {
    if (!consumer.stopped) {
      consumer.stopped = true;
      group.consumers.splice(group.consumers.indexOf(consumer), 1);
    }
    await Promise.all(consumer.inFlight);
  }

  private waitUntilDrained(group: GroupQueue, timeoutMs: number): Promise<boolean> {
    if (group.idle) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (drained: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(drained);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const unsubscribe = group.onProgress(() => {
        if (group.idle) finish(true);
      });
    });
  }
}

export function createInProcessBus(options: BusOptions): InProcessBus {
  return new InProcessEventBus(options);
}
