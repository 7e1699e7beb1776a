/**
 * The event bus port. Domain events are published to a topic (the event's
 * `type`, e.g. `content.added`) and delivered at least once to every consumer
 * group (one durable queue per consuming service) whose patterns match.
 *
 * Adapters: AMQP (RabbitMQ, when AMQP_URL is set) and in-process. Both carry
 * events as proto binary (codec.ts) and hand a handler only events that
 * decoded and validated; anything else is dead-lettered at once.
 */
import type { DomainEvent } from '../events/event-types';

/** An event as a producer builds it and its outbox keeps it: a plain object, encoded when published. */
export interface EventEnvelope<P = unknown> {
  /** Unique per event; used for de-duplication in logs and dead-letter inspection. */
  id: string;
  /** Routing key, e.g. `content.added`. */
  type: string;
  /** ISO timestamp of the write that produced the event. */
  occurredAt: string;
  /** Request id of the write, so one request can be followed across services. */
  requestId?: string;
  /** The user whose write caused it, where the producer knows (content rules' `exclude_actor`, conditions). */
  actor?: string;
  payload: P;
}

export interface Delivery {
  /** Decoded and validated; `switch (event.type)` types the payload. */
  event: DomainEvent;
  /** 1 on the first delivery, more on redeliveries (after a handler failure or a lost connection). */
  attempt: number;
}

/**
 * Applies one event. Resolve after the effect is stored (the adapter acks
 * then); reject to have it redelivered after a backoff (dead-lettered once the
 * handler has failed `deliveryLimit` times).
 */
export type EventHandler = (delivery: Delivery) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group name; one durable queue per group, e.g. `search`. */
  group: string;
  /** Topic patterns with AMQP topic semantics: `*` one word, `#` zero or more, e.g. `content.#`. */
  patterns: string[];
  /** How many unacknowledged deliveries a consumer holds at once. */
  prefetch?: number;
}

export interface Subscription {
  /** Stops taking new deliveries and resolves after in-flight handlers have finished and acked. */
  stop(): Promise<void>;
  /**
   * Resolves true when every event published (and confirmed) before this call
   * has been handled by this group, by whichever replica of the group it went
   * to (an event waiting for its retry after a handler failure is not handled
   * yet), false when `timeoutMs` passed first, or at once while the broker
   * cannot be reached. Used for read-your-writes.
   */
  waitUntilDrained(timeoutMs: number): Promise<boolean>;
}

/** One broadcast as a subscriber receives it. */
export interface BroadcastMessage {
  topic: string;
  body: Buffer;
  /** What the publisher passed as its origin, e.g. its replica id, so a replica can skip what it sent itself. */
  origin: string;
}

export interface BroadcastSubscription {
  /**
   * True while every broadcast published on the topic reaches this subscriber. False while the broker cannot be
   * reached (and once stopped): what is published meanwhile is lost for it, so whoever keeps state on the strength
   * of broadcasts must stop trusting it until `live` is true again.
   */
  readonly live: boolean;
  /** Calls `listener` on every change of `live`; returns the unsubscribe function. */
  onLiveChange(listener: (live: boolean) => void): () => void;
  stop(): Promise<void>;
}

export interface EventBus {
  readonly kind: 'in-process' | 'amqp';
  /**
   * Sends `body` to every process subscribed to `topic` (itself included), once each: not a competing group, for
   * notices each replica applies to its own memory (e.g. identity's credential invalidations). Nothing is kept:
   * a subscriber receives only what is published while it is live. Resolves on the broker's confirm (or at once
   * in-process); rejects while disconnected.
   */
  broadcast(topic: string, body: Buffer, origin: string): Promise<void>;
  /** Receives the broadcasts of `topic` (exact match) for as long as the bus is connected. */
  subscribeBroadcast(topic: string, handler: (message: BroadcastMessage) => void): Promise<BroadcastSubscription>;
  /**
   * Resolves once the event is safe without the publisher: the broker has
   * confirmed it into every matching durable queue (AMQP), or every matching
   * group has handled it (in-process, where nothing is durable). Rejects if it
   * cannot be encoded (unknown type, payload not fitting its message), was
   * unroutable or nacked.
   */
  publish(event: EventEnvelope): Promise<void>;
  subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription>;
  /** Resolves when the bus is connected and usable now; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * False while the broker cannot be reached (and once closed): a publish
   * would only wait. A write whose events are safe in its outbox then answers
   * without waiting for them; the relay publishes them after the reconnection.
   */
  readonly connected: boolean;
  /**
   * Resolves once the bus has connected at least once since it was opened
   * (its queues declared, its consumers started), until it is closed; rejects
   * otherwise. A service's readiness asks this, not `ping()`: a broker outage
   * after the start delays events (outboxes and queues keep them) but does not
   * keep the service from answering.
   */
  ready(): Promise<void>;
  /**
   * How many events wait in the dead-letter queue of each group this bus
   * declared or consumes, by group name. Rejects while disconnected.
   */
  deadLetterCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}
