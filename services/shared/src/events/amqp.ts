import * as amqp from 'amqplib';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { redactUrl } from '../logging/redact';
import type { Logger } from '../logging/logger';
import { decodeEvent, encodeEvent, EVENT_CONTENT_TYPE } from './codec';
import type { EventBus, EventEnvelope, EventHandler, SubscribeOptions, Subscription } from './port';
import { type BusOptions, normalizeTopology, resolveDeliveryLimit, resolvePrefetch } from './topology';

export interface AmqpBusOptions extends BusOptions {
  /** Topic exchange events are published to. Default `cms.events`. */
  exchange?: string;
  /** How long publish() and subscribe() wait for a lost connection to come back. Default 5 s. */
  reconnectWaitMs?: number;
}

const DEFAULT_EXCHANGE = 'cms.events';
const DEFAULT_RECONNECT_WAIT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;
const RECONNECT_INITIAL_DELAY_MS = 100;
const RECONNECT_MAX_DELAY_MS = 5_000;
const DRAIN_POLL_INTERVAL_MS = 5;

const queueName = (group: string) => `cms.${group}`;
const deadLetterQueueName = (group: string) => `cms.${group}.dead`;
const deadLetterExchangeName = (exchange: string) => `${exchange}.dlx`;

/** The channel closed before the broker confirmed; the message may or may not have been routed. */
class LinkLostError extends Error {}

/** One live connection with its publishing channel. */
interface Link {
  connection: ChannelModel;
  publisher: ConfirmChannel;
  lost: boolean;
  /** Returns (unroutable) not yet matched with their confirm, by messageId. */
  returned: Map<string, number>;
  /** Set while the socket buffer is full; publishers wait on it. */
  drained: Promise<void> | null;
}

const noop = () => {};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class AmqpEventBus implements EventBus {
  readonly kind = 'amqp' as const;
  readonly exchange: string;
  readonly logger: Logger;
  readonly deliveryLimit: number;
  private readonly deadLetterExchange: string;
  private readonly groups: Map<string, string[]>;
  private readonly reconnectWaitMs: number;
  private readonly subscriptions = new Set<AmqpSubscription>();
  private readonly linkListeners = new Set<() => void>();
  private link: Link | null = null;
  private reconnecting: Promise<void> | null = null;
  private cancelBackoff: () => void = noop;
  private closing = false;

  constructor(
    private readonly url: string,
    options: AmqpBusOptions,
  ) {
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
    this.deadLetterExchange = deadLetterExchangeName(this.exchange);
    this.logger = options.logger;
    this.deliveryLimit = resolveDeliveryLimit(options);
    this.groups = normalizeTopology(options.topology);
    this.reconnectWaitMs = options.reconnectWaitMs ?? DEFAULT_RECONNECT_WAIT_MS;
  }

  async connect(): Promise<void> {
    const connection = await amqp.connect(this.url, {
      noDelay: true,
      timeout: CONNECT_TIMEOUT_MS,
      clientProperties: { connection_name: `${this.exchange} pid ${process.pid}` },
    });
    let closed = false;
    connection.on('error', (err: Error) => this.logger.warn({ err }, 'Event bus connection error'));
    connection.on('blocked', (reason: string) =>
      this.logger.warn({ reason }, 'Event bus connection blocked by the broker'),
    );
    connection.on('unblocked', () => this.logger.info('Event bus connection unblocked'));
    connection.on('close', (err?: Error) => {
      closed = true;
      if (this.link?.connection === connection) this.linkLost(err);
    });
    try {
      const publisher = await connection.createConfirmChannel();
      const link: Link = { connection, publisher, lost: false, returned: new Map(), drained: null };
      // Ahead of amqplib's own listener, which fails the pending confirms, so they see `lost`.
      publisher.prependListener('close', () => {
        link.lost = true;
        this.channelLost(connection, 'publisher channel closed');
      });
      publisher.on('error', (err: Error) => this.logger.warn({ err }, 'Event bus publisher channel error'));
      publisher.on('return', (msg: ConsumeMessage) => {
        const id: unknown = msg.properties.messageId;
        if (typeof id === 'string') link.returned.set(id, (link.returned.get(id) ?? 0) + 1);
      });
      await this.assertTopology(publisher);
      for (const subscription of this.subscriptions) await subscription.start(connection);
      if (closed) throw new Error('Connection closed while it was being set up');
      if (this.closing) throw new Error('Event bus is closed');
      this.link = link;
    } catch (err) {
      await connection.close().catch(noop);
      throw err;
    }
    this.logger.info({ url: redactUrl(this.url), exchange: this.exchange }, 'Event bus connected');
    this.notifyLinkListeners();
  }

  async publish(event: EventEnvelope): Promise<void> {
    const deadline = Date.now() + this.reconnectWaitMs;
    const body = encodeEvent(event);
    for (;;) {
      const link = await this.awaitLink(deadline);
      try {
        return await this.publishOn(link, event, body);
      } catch (err) {
        // Republishing after a lost confirm may duplicate the event; delivery is at least once anyway.
        if (!(err instanceof LinkLostError) || Date.now() >= deadline) throw err;
        this.logger.warn(
          { eventId: event.id, type: event.type },
          'Connection lost before the publish was confirmed; retrying',
        );
      }
    }
  }

  async subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription> {
    if (this.closing) throw new Error('Event bus is closed');
    const prefetch = resolvePrefetch(options.prefetch);
    const declared = this.groups.get(options.group) ?? [];
    const undeclared = options.patterns.filter((pattern) => !declared.includes(pattern));
    if (undeclared.length > 0) {
      this.logger.warn(
        { group: options.group, patterns: undeclared },
        'Subscription patterns are not in the bus topology; events published before subscribing were not kept for them',
      );
    }
    const subscription = new AmqpSubscription(this, options.group, options.patterns, prefetch, handler);
    this.subscriptions.add(subscription);
    const deadline = Date.now() + this.reconnectWaitMs;
    try {
      for (;;) {
        const link = await this.awaitLink(deadline);
        try {
          await subscription.start(link.connection);
          return subscription;
        } catch (err) {
          // A connection lost meanwhile is retried; the reconnect starts live subscriptions.
          if (!link.lost || Date.now() >= deadline) throw err;
        }
      }
    } catch (err) {
      await subscription.stop();
      throw err;
    }
  }

  async ping(): Promise<void> {
    const link = this.link;
    if (!link || link.lost || this.closing) throw new Error('Event bus is not connected');
    await link.publisher.checkExchange(this.exchange);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.cancelBackoff();
    this.notifyLinkListeners();
    await this.reconnecting?.catch(noop);
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    const link = this.link;
    this.link = null;
    if (link) {
      await link.publisher.waitForConfirms().catch(noop);
      await link.connection.close().catch(noop);
    }
    this.logger.info({ exchange: this.exchange }, 'Event bus closed');
  }

  forget(subscription: AmqpSubscription): void {
    this.subscriptions.delete(subscription);
  }

  /** The publisher channel, for queue checks by a subscription that has no channel of its own (stopped). */
  get publisherChannel(): Channel | null {
    return this.link?.publisher ?? null;
  }

  async assertGroup(channel: Channel, group: string, patterns: string[]): Promise<void> {
    const queue = queueName(group);
    await channel.assertQueue(queue, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        // The broker dead-letters once a message has been returned more than this many
        // times, i.e. on the (limit + 1)th failure; minus one makes deliveryLimit the
        // number of attempts, as in the in-process bus.
        'x-delivery-limit': this.deliveryLimit - 1,
        'x-dead-letter-exchange': this.deadLetterExchange,
        'x-dead-letter-routing-key': group,
      },
    });
    for (const pattern of patterns) await channel.bindQueue(queue, this.exchange, pattern);
    await channel.assertQueue(deadLetterQueueName(group), { durable: true });
    await channel.bindQueue(deadLetterQueueName(group), this.deadLetterExchange, group);
  }

  /**
   * A channel that closes on its own (channel error, consumer cancelled by the
   * broker) is recovered by reconnecting, which re-asserts the topology too.
   */
  channelLost(connection: ChannelModel, reason: string): void {
    // Deferred: when the whole connection goes down its channels close first.
    setImmediate(() => {
      if (this.closing || this.link?.connection !== connection) return;
      this.logger.warn({ reason }, 'Event bus channel lost; reconnecting');
      connection.close().catch(noop);
    });
  }

  private async assertTopology(channel: Channel): Promise<void> {
    await channel.assertExchange(this.exchange, 'topic', { durable: true });
    await channel.assertExchange(this.deadLetterExchange, 'direct', { durable: true });
    for (const [group, patterns] of this.groups) await this.assertGroup(channel, group, patterns);
  }

  private async publishOn(link: Link, event: EventEnvelope, body: Buffer): Promise<void> {
    while (link.drained) await link.drained;
    if (link.lost) throw new LinkLostError('Connection lost');
    const options: Options.Publish = {
      persistent: true,
      mandatory: true,
      contentType: EVENT_CONTENT_TYPE,
      messageId: event.id,
      type: event.type,
      headers: event.requestId === undefined ? {} : { 'x-request-id': event.requestId },
    };
    return new Promise<void>((resolve, reject) => {
      const confirmed = (err: unknown) => {
        if (err) {
          reject(
            link.lost ? new LinkLostError('Connection lost') : new Error(`Event ${event.id} was nacked by the broker`),
          );
          return;
        }
        // The broker sends basic.return before the ack of the same message.
        const returns = link.returned.get(event.id) ?? 0;
        if (returns > 0) {
          if (returns === 1) link.returned.delete(event.id);
          else link.returned.set(event.id, returns - 1);
          reject(new Error(`Event ${event.id} of type ${event.type} is unroutable: no consumer group matches`));
          return;
        }
        resolve();
      };
      let writable: boolean;
      try {
        writable = link.publisher.publish(this.exchange, event.type, body, options, confirmed);
      } catch {
        // Only a closed channel throws here.
        reject(new LinkLostError('Connection lost'));
        return;
      }
      if (!writable && !link.drained) {
        link.drained = new Promise<void>((done) => {
          const release = () => {
            link.publisher.off('drain', release);
            link.publisher.off('close', release);
            link.drained = null;
            done();
          };
          link.publisher.on('drain', release);
          link.publisher.on('close', release);
        });
      }
    });
  }

  private async awaitLink(deadline: number): Promise<Link> {
    for (;;) {
      if (this.closing) throw new Error('Event bus is closed');
      // A link whose channel closed is about to be replaced; wait for the new one.
      if (this.link && !this.link.lost) return this.link;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('Event bus is not connected');
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.linkListeners.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, remaining);
        this.linkListeners.add(wake);
      });
    }
  }

  private notifyLinkListeners(): void {
    for (const listener of [...this.linkListeners]) listener();
  }

  private linkLost(err: Error | undefined): void {
    this.link = null;
    if (this.closing) return;
    this.logger.warn({ err }, 'Event bus connection lost; reconnecting');
    this.reconnecting ??= this.reconnect().finally(() => {
      this.reconnecting = null;
    });
  }

  private async reconnect(): Promise<void> {
    let delay = RECONNECT_INITIAL_DELAY_MS;
    for (let attempt = 1; !this.closing; attempt++) {
      // Jitter keeps many processes from reconnecting in lockstep after a broker restart.
      await this.backoff(delay / 2 + Math.random() * (delay / 2));
      if (this.closing) return;
      try {
        await this.connect();
        this.logger.info({ attempt }, 'Event bus reconnected');
        return;
      } catch (err) {
        if (this.closing) return;
        this.logger.warn({ err, attempt }, 'Event bus reconnect failed');
        delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
      }
    }
  }

  private backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.cancelBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

class AmqpSubscription implements Subscription {
  private readonly queue: string;
  private readonly inFlight = new Set<Promise<void>>();
  private channel: Channel | null = null;
  private consumerTag: string | null = null;
  private startedOn: ChannelModel | null = null;
  private starting: Promise<void> = Promise.resolve();
  /** Deliveries received so far; lets waitUntilDrained notice one that raced its queue check. */
  private received = 0;
  private stopped = false;

  constructor(
    private readonly bus: AmqpEventBus,
    private readonly group: string,
    private readonly patterns: string[],
    private readonly prefetch: number,
    private readonly handler: EventHandler,
  ) {
    this.queue = queueName(group);
  }

  /** Starts consuming on `connection`; idempotent per connection. */
  start(connection: ChannelModel): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.startedOn !== connection) {
      this.startedOn = connection;
      this.starting = this.consume(connection).catch((err: unknown) => {
        if (this.startedOn === connection) this.startedOn = null;
        throw err;
      });
    }
    return this.starting;
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.bus.forget(this);
    }
    await this.starting.catch(noop);
    const channel = this.channel;
    const consumerTag = this.consumerTag;
    this.consumerTag = null;
    if (channel && consumerTag) await channel.cancel(consumerTag).catch(noop);
    // Handlers ack as they finish, so the acks are sent before the channel closes.
    await Promise.all(this.inFlight);
    if (channel && this.channel === channel) {
      this.channel = null;
      await channel.close().catch(noop);
    }
  }

  /**
   * Polls the queue depth on this subscription's own channel: the broker writes a
   * delivery it has already taken off the queue before the reply to a later check
   * on the same channel, so two clean checks in a row with no delivery in between
   * mean nothing was on its way to us. Limitation: deliveries held unacked by
   * another process of the same group do not show up in the ready count.
   */
  async waitUntilDrained(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    let cleanChecks = 0;
    for (;;) {
      const receivedBefore = this.received;
      const ready = this.inFlight.size === 0 ? await this.readyCount(deadline) : null;
      if (ready === 0 && this.inFlight.size === 0 && this.received === receivedBefore) {
        if (++cleanChecks === 2) return true;
        continue;
      }
      cleanChecks = 0;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      await sleep(Math.min(DRAIN_POLL_INTERVAL_MS, remaining));
    }
  }

  private async readyCount(deadline: number): Promise<number | null> {
    const channel = this.channel ?? this.bus.publisherChannel;
    if (!channel) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
    });
    try {
      const check = channel.checkQueue(this.queue).then(
        (reply) => reply.messageCount,
        () => null,
      );
      return await Promise.race([check, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async consume(connection: ChannelModel): Promise<void> {
    const channel = await connection.createChannel();
    channel.on('error', (err: Error) =>
      this.bus.logger.warn({ err, group: this.group }, 'Event bus consumer channel error'),
    );
    channel.on('close', () => {
      if (this.channel !== channel) return;
      this.channel = null;
      this.consumerTag = null;
      if (!this.stopped) this.bus.channelLost(connection, `consumer channel of ${this.group} closed`);
    });
    try {
      await channel.prefetch(this.prefetch);
      await this.bus.assertGroup(channel, this.group, this.patterns);
      const { consumerTag } = await channel.consume(this.queue, (msg) => this.onMessage(connection, channel, msg), {
        noAck: false,
      });
      this.channel = channel;
      this.consumerTag = consumerTag;
    } catch (err) {
      await channel.close().catch(noop);
      throw err;
    }
  }

  private onMessage(connection: ChannelModel, channel: Channel, msg: ConsumeMessage | null): void {
    if (msg === null) {
      this.bus.channelLost(connection, `consumer of ${this.group} cancelled by the broker`);
      return;
    }
    this.received++;
    const { logger } = this.bus;
    const context = {
      group: this.group,
      messageId: msg.properties.messageId as unknown,
      type: msg.properties.type as unknown,
    };
    const attempt = Number(msg.properties.headers?.['x-delivery-count'] ?? 0) + 1;
    const decoded = decodeEvent(msg.content, msg.fields.routingKey);
    if (!decoded.ok) {
      // No retry can make it valid: rejected without requeue, the quorum queue dead-letters it now.
      logger.error({ ...context, reason: decoded.reason, attempt }, 'Event refused and dead-lettered');
      settle(() => channel.nack(msg, false, false));
      return;
    }
    const { event } = decoded;
    const run: Promise<void> = Promise.resolve()
      .then(() => this.handler({ event, attempt }))
      .then(
        () => settle(() => channel.ack(msg)),
        (err: unknown) => {
          if (attempt >= this.bus.deliveryLimit) {
            logger.error({ ...context, err, attempt }, 'Event dead-lettered after reaching the delivery limit');
          } else {
            logger.warn({ ...context, err, attempt }, 'Event handler failed; redelivering');
          }
          settle(() => channel.nack(msg, false, true));
        },
      )
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }
}

/** Acks and nacks throw once the channel has closed; the broker then redelivers the message anyway. */
function settle(action: () => void): void {
  try {
    action();
  } catch {
    // Nothing to do: the unacked message returns to the queue with the channel.
  }
}

export async function createAmqpBus(url: string, options: AmqpBusOptions): Promise<EventBus> {
  const bus = new AmqpEventBus(url, options);
  await bus.connect();
  return bus;
}
