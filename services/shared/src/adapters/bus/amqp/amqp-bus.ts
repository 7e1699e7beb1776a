import { randomUUID } from 'node:crypto';
import * as amqp from 'amqplib';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { redactUrl } from '../../../logging/redact';
import type { Logger } from '../../../logging/logger';
import {
  broadcastExchangeName,
  controlExchangeName,
  copyOptions,
  deadLetterExchangeName,
  deadLetterQueueName,
  FAILURES_HEADER,
  failuresOf,
  groupQueueArguments,
  LAST_ERROR_HEADER,
  legacyQueueNames,
  moveMessages,
  originalRoutingKey,
  queueName,
  redeliveriesOf,
  retryQueueArguments,
  retryQueueName,
} from './amqp-topology';
import { decodeEvent, encodeEvent, EVENT_CONTENT_TYPE } from '../../../events/codec';
import type { DomainEvent } from '../../../events/event-types';
import { BroadcastSubscriber } from '../../../events/broadcast';
import type {
  BroadcastMessage,
  BroadcastSubscription,
  EventBus,
  EventEnvelope,
  EventHandler,
  SubscribeOptions,
  Subscription,
} from '../../../ports/bus';
import {
  type BusOptions,
  describeError,
  normalizeTopology,
  resolveDeliveryLimit,
  resolvePrefetch,
  resolveRetryDelays,
  retryDelayAfter,
  retryDelaysInUse,
} from '../../../events/topology';
import {
  eventsConsumed,
  eventsDeadLettered,
  eventsPublished,
  eventsRetried,
  eventTypeLabel,
  observeApplyLag,
} from '../../../metrics/metrics';

export interface AmqpBusOptions extends BusOptions {
  /** Topic exchange events are published to. Default `cms.events`. */
  exchange?: string;
  /** How long publish() waits for a lost connection to come back. Default 5 s. */
  reconnectWaitMs?: number;
  /**
   * How often the bus checks each group's dead-letter depth (logged when it changed) and clears what is left of
   * an earlier version's group queue. Default 30 s.
   */
  housekeepingIntervalMs?: number;
}

const DEFAULT_EXCHANGE = 'cms.events';
const DEFAULT_RECONNECT_WAIT_MS = 5_000;
const DEFAULT_HOUSEKEEPING_INTERVAL_MS = 30_000;
const CONNECT_TIMEOUT_MS = 5_000;
const RECONNECT_INITIAL_DELAY_MS = 100;
const RECONNECT_MAX_DELAY_MS = 5_000;
const DRAIN_POLL_INTERVAL_MS = 5;
/** When a failed event cannot be parked in its retry queue, the longest it is held before going back. */
const REQUEUE_FALLBACK_MAX_DELAY_MS = 1_000;
/** What an operator runs to send a group's dead letters back (services/shared/src/runtime/replay-dead-letters.ts). */
const replayCommand = (group: string) => `node services/shared/dist/runtime/replay-dead-letters.js ${group}`;

/** AMQP `type` of the messages on a control queue that are not broadcasts. */
const DRAIN_REQUEST = 'cms.drain-request';
const DRAIN_REPLY = 'cms.drain-reply';

/** What a replica of a group answers to another's drain question. */
interface DrainReply {
  /** The answering subscription's id. */
  subscription: string;
  /** Its deliveries so far, as of its clean checks. */
  received: number;
  /** It had nothing in flight and the group's queues nothing ready (false: not so before the asker's deadline). */
  quiet: boolean;
}

/** The result of one subscription's own clean checks (see AmqpSubscription.settle). */
interface Settled {
  quiet: boolean;
  received: number;
  /** Consumers of the group queue, as the last check saw them. */
  consumers: number;
}

/** A process's own exclusive queue for broadcasts and drain questions, on the current connection. */
interface Control {
  connection: ChannelModel;
  channel: Channel;
  queue: string;
  lost: boolean;
}

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
  readonly retryDelays: number[];
  /** The waits a failed event can meet, one retry queue per group for each. */
  readonly retryQueueDelays: number[];
  private readonly deadLetterExchange: string;
  private readonly broadcastExchange: string;
  private readonly controlExchange: string;
  private readonly groups: Map<string, string[]>;
  private readonly broadcastSubscribers = new Set<BroadcastSubscriber>();
  /** Drain questions of this process waiting for answers, by correlation id. */
  private readonly drainReplies = new Map<string, (reply: DrainReply) => void>();
  private control: Control | null = null;
  private readonly reconnectWaitMs: number;
  private readonly housekeepingIntervalMs: number;
  private readonly subscriptions = new Set<AmqpSubscription>();
  private readonly linkListeners = new Set<() => void>();
  private link: Link | null = null;
  private reconnecting: Promise<void> | null = null;
  private cancelBackoff: () => void = noop;
  private closing = false;
  /** Connected at least once: the topology declared, the consumers started. */
  private started = false;
  private housekeepingTimer: NodeJS.Timeout | undefined;
  private housekeeping = false;
  private migrating: Promise<void> = Promise.resolve();
  /** Last depth logged per group. */
  private readonly deadLetterDepths = new Map<string, number>();

  constructor(
    private readonly url: string,
    options: AmqpBusOptions,
  ) {
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
    this.deadLetterExchange = deadLetterExchangeName(this.exchange);
    this.broadcastExchange = broadcastExchangeName(this.exchange);
    this.controlExchange = controlExchangeName(this.exchange);
    this.logger = options.logger;
    this.deliveryLimit = resolveDeliveryLimit(options);
    this.retryDelays = resolveRetryDelays(options);
    this.retryQueueDelays = retryDelaysInUse(this.deliveryLimit, this.retryDelays);
    this.groups = normalizeTopology(options.topology);
    this.reconnectWaitMs = options.reconnectWaitMs ?? DEFAULT_RECONNECT_WAIT_MS;
    this.housekeepingIntervalMs = options.housekeepingIntervalMs ?? DEFAULT_HOUSEKEEPING_INTERVAL_MS;
  }

  get connected(): boolean {
    return !this.closing && this.link !== null && !this.link.lost;
  }

  /**
   * Connects; when the broker cannot be reached, keeps trying in the background
   * (with backoff) instead of failing, so that a service starts, reports not
   * ready, and connects when the broker comes back.
   */
  async open(): Promise<void> {
    this.housekeepingTimer = setInterval(() => void this.keepHouse(), this.housekeepingIntervalMs);
    this.housekeepingTimer.unref();
    try {
      await this.connect();
    } catch (err) {
      if (this.closing) return;
      this.logger.warn(
        { err, url: redactUrl(this.url) },
        'Event bus cannot reach the broker; connecting in the background',
      );
      this.startReconnecting();
    }
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
      await this.assertTopology(connection, publisher);
      const control = await this.openControl(connection);
      // A subscription added while this loop runs is visited too (a Set iterates what is added meanwhile).
      for (const subscription of this.subscriptions) {
        await subscription.start(connection);
        await this.bindControl(control, this.controlExchange, subscription.group);
      }
      for (const subscriber of this.broadcastSubscribers) await this.listen(control, subscriber);
      if (closed) throw new Error('Connection closed while it was being set up');
      if (this.closing) throw new Error('Event bus is closed');
      this.link = link;
      this.started = true;
    } catch (err) {
      await connection.close().catch(noop);
      throw err;
    }
    this.logger.info({ url: redactUrl(this.url), exchange: this.exchange }, 'Event bus connected');
    this.notifyLinkListeners();
    void this.keepHouse();
  }

  async publish(event: EventEnvelope): Promise<void> {
    const deadline = Date.now() + this.reconnectWaitMs;
    const body = encodeEvent(event);
    const options: Options.Publish = {
      persistent: true,
      mandatory: true,
      contentType: EVENT_CONTENT_TYPE,
      messageId: event.id,
      type: event.type,
      headers: event.requestId === undefined ? {} : { 'x-request-id': event.requestId },
    };
    const what = `Event ${event.id} of type ${event.type}`;
    for (;;) {
      const link = await this.awaitLink(deadline);
      try {
        await this.publishOn(link, this.exchange, event.type, body, options, what);
        eventsPublished.inc({ type: eventTypeLabel(event.type) });
        return;
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

  /**
   * Subscribes at once when connected (and fails if the broker refuses the
   * group's queues); while disconnected, the subscription is kept and starts
   * with the connection, like every live subscription after a reconnection.
   */
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
    const link = this.link;
    if (!link || link.lost) return subscription;
    try {
      await subscription.start(link.connection);
      const control = this.control;
      if (control && !control.lost) await this.bindControl(control, this.controlExchange, options.group);
    } catch (err) {
      // A connection lost meanwhile is no failure: the reconnection starts it.
      if (link.lost || this.link !== link) return subscription;
      await subscription.stop();
      throw err;
    }
    return subscription;
  }

  async broadcast(topic: string, body: Buffer, origin: string): Promise<void> {
    const link = this.link;
    if (!link || link.lost || this.closing) throw new Error('Event bus is not connected');
    const options: Options.Publish = { appId: origin, messageId: randomUUID(), type: 'broadcast' };
    await this.publishOn(link, this.broadcastExchange, topic, body, options, `Broadcast on ${topic}`);
  }

  /** Live once the topic is bound to this process's control queue; not live from a lost connection to the next. */
  async subscribeBroadcast(
    topic: string,
    handler: (message: BroadcastMessage) => void,
  ): Promise<BroadcastSubscription> {
    if (this.closing) throw new Error('Event bus is closed');
    const subscriber = new BroadcastSubscriber(topic, handler, this.logger, (s) => this.broadcastSubscribers.delete(s));
    this.broadcastSubscribers.add(subscriber);
    const control = this.control;
    if (control && !control.lost) {
      await this.listen(control, subscriber).catch((err: unknown) => {
        // A connection lost meanwhile is no failure: the reconnection binds it.
        this.logger.warn({ err, topic }, 'Could not bind a broadcast topic yet; the next connection does');
      });
    }
    return subscriber;
  }

  /**
   * Asks every other consumer of `group` to settle (see AmqpSubscription.waitUntilDrained) and collects the
   * answers, until `expected` distinct subscriptions have answered or the deadline passes.
   */
  askReplicas(group: string, requester: string, expected: number, deadline: number): Promise<Map<string, DrainReply>> {
    const replies = new Map<string, DrainReply>();
    const control = this.control;
    const link = this.link;
    if (!control || control.lost || !link || link.lost) return Promise.resolve(replies);
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.drainReplies.delete(requestId);
        resolve(replies);
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      this.drainReplies.set(requestId, (reply) => {
        replies.set(reply.subscription, reply);
        if (replies.size >= expected) finish();
      });
      const body = Buffer.from(JSON.stringify({ requester, timeoutMs: Math.max(0, deadline - Date.now()) }));
      const options: Options.Publish = { type: DRAIN_REQUEST, correlationId: requestId, replyTo: control.queue };
      this.publishOn(link, this.controlExchange, group, body, options, `Drain question for ${group}`).catch(finish);
    });
  }

  async ping(): Promise<void> {
    const link = this.link;
    if (!link || link.lost || this.closing) throw new Error('Event bus is not connected');
    await link.publisher.checkExchange(this.exchange);
  }

  async ready(): Promise<void> {
    if (this.closing) throw new Error('Event bus is closed');
    if (!this.started) throw new Error('Event bus has not reached the broker yet');
  }

  async deadLetterCounts(): Promise<Record<string, number>> {
    const link = this.link;
    if (!link || link.lost || this.closing) throw new Error('Event bus is not connected');
    // A channel of its own: asking about a queue that does not exist closes the channel it is asked on.
    const channel = await link.connection.createChannel();
    channel.on('error', noop);
    try {
      const counts: Record<string, number> = {};
      for (const group of this.knownGroups().keys()) {
        counts[group] = (await channel.checkQueue(deadLetterQueueName(group))).messageCount;
      }
      return counts;
    } finally {
      await channel.close().catch(noop);
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const subscriber of [...this.broadcastSubscribers]) await subscriber.stop();
    clearInterval(this.housekeepingTimer);
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

  /**
   * Sends a copy of a consumed message to one of the bus's queues by name (a
   * retry or dead-letter queue) and resolves on the broker's confirm. Does not
   * wait for a lost connection: the consumer's own channel went with it, so the
   * broker redelivers the original anyway.
   */
  async sendToQueue(queue: string, body: Buffer, options: Options.Publish): Promise<void> {
    const link = this.link;
    if (!link || link.lost) throw new LinkLostError('Connection lost');
    await this.publishOn(link, '', queue, body, { ...options, mandatory: true }, `Message for ${queue}`);
  }

  async assertGroup(connection: ChannelModel, channel: Channel, group: string, patterns: string[]): Promise<void> {
    const queue = queueName(group);
    await channel.assertQueue(queue, { durable: true, arguments: groupQueueArguments(this.deadLetterExchange, group) });
    for (const pattern of patterns) await channel.bindQueue(queue, this.exchange, pattern);
    for (const delayMs of this.retryQueueDelays) {
      await channel.assertQueue(retryQueueName(group, delayMs), {
        durable: true,
        arguments: retryQueueArguments(group, delayMs),
      });
    }
    await channel.assertQueue(deadLetterQueueName(group), { durable: true });
    await channel.bindQueue(deadLetterQueueName(group), this.deadLetterExchange, group);
    await this.migrateLegacyQueues(connection, group, patterns);
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

  /** The groups this bus declared or consumes, with their patterns. */
  private knownGroups(): Map<string, string[]> {
    const groups = new Map(this.groups);
    for (const { group, patterns } of this.subscriptions)
      groups.set(group, [...(groups.get(group) ?? []), ...patterns]);
    return groups;
  }

  private async assertTopology(connection: ChannelModel, channel: Channel): Promise<void> {
    await channel.assertExchange(this.exchange, 'topic', { durable: true });
    await channel.assertExchange(this.deadLetterExchange, 'direct', { durable: true });
    await channel.assertExchange(this.broadcastExchange, 'topic', { durable: true });
    await channel.assertExchange(this.controlExchange, 'direct', { durable: true });
    for (const [group, patterns] of this.groups) await this.assertGroup(connection, channel, group, patterns);
  }

  /**
   * The group queue of an earlier version (other arguments, another name; see
   * amqp-topology.ts) stops receiving events, and what it holds moves to the
   * current one, which is bound to the same patterns (so whatever reaches the
   * old queue from now on is a copy). It is deleted once empty and without
   * consumers: a consumer of the earlier version may still hold events it
   * would return to it, during a rolling upgrade. RabbitMQ cannot delete a
   * quorum queue on those conditions itself, so they are checked first; a
   * later pass (housekeeping) finishes what this one left.
   */
  private migrateLegacyQueues(connection: ChannelModel, group: string, patterns: string[]): Promise<void> {
    // One pass at a time in this process (connection, subscriptions and housekeeping all ask for one).
    const pass = this.migrating.then(() => this.migrateLegacyQueuesNow(connection, group, patterns));
    this.migrating = pass.catch(noop);
    return pass;
  }

  private async migrateLegacyQueuesNow(connection: ChannelModel, group: string, patterns: string[]): Promise<void> {
    for (const legacy of legacyQueueNames(group)) {
      // A channel of its own: asking about a queue that does not exist closes the channel it is asked on.
      const channel = await connection.createConfirmChannel();
      channel.on('error', noop);
      try {
        const found = await channel.checkQueue(legacy).catch(() => null);
        if (!found) continue;
        for (const pattern of patterns) await channel.unbindQueue(legacy, this.exchange, pattern);
        const moved = await moveMessages(channel, legacy, queueName(group), found.messageCount);
        const left = await channel.checkQueue(legacy);
        const deleted = left.messageCount === 0 && left.consumerCount === 0;
        if (deleted) await channel.deleteQueue(legacy);
        if (moved > 0 || deleted) {
          this.logger.info(
            { group, from: legacy, to: queueName(group), moved, deleted },
            'Moved the events of a group queue declared by an earlier version',
          );
        }
      } catch (err) {
        // Another process may be at it too; whatever is left, a later pass moves. Consuming goes on meanwhile.
        this.logger.warn({ err, group, from: legacy }, 'Could not finish moving an earlier version’s group queue');
      } finally {
        await channel.close().catch(noop);
      }
    }
  }

  private async publishOn(
    link: Link,
    exchange: string,
    routingKey: string,
    body: Buffer,
    options: Options.Publish,
    what: string,
  ): Promise<void> {
    while (link.drained) await link.drained;
    if (link.lost) throw new LinkLostError('Connection lost');
    const id = options.messageId;
    return new Promise<void>((resolve, reject) => {
      const confirmed = (err: unknown) => {
        if (err) {
          reject(link.lost ? new LinkLostError('Connection lost') : new Error(`${what} was nacked by the broker`));
          return;
        }
        // The broker sends basic.return before the ack of the same message.
        const returns = id === undefined ? 0 : (link.returned.get(id) ?? 0);
        if (id !== undefined && returns > 0) {
          if (returns === 1) link.returned.delete(id);
          else link.returned.set(id, returns - 1);
          reject(
            new Error(
              exchange === ''
                ? `${what} is unroutable: the queue does not exist`
                : `${what} is unroutable: no consumer group matches`,
            ),
          );
          return;
        }
        resolve();
      };
      let writable: boolean;
      try {
        writable = link.publisher.publish(exchange, routingKey, body, options, confirmed);
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

  /**
   * This process's control queue on `connection`: server-named, exclusive (gone with the connection), read
   * without acks. What is published to it while the connection is down is lost, hence `live`.
   */
  private async openControl(connection: ChannelModel): Promise<Control> {
    const channel = await connection.createChannel();
    channel.on('error', (err: Error) => this.logger.warn({ err }, 'Event bus control channel error'));
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    const control: Control = { connection, channel, queue, lost: false };
    channel.on('close', () => {
      control.lost = true;
      if (this.control === control) this.controlLost();
      this.channelLost(connection, 'control channel closed');
    });
    await channel.consume(queue, (msg) => this.onControl(control, msg), { noAck: true });
    this.control = control;
    return control;
  }

  private async bindControl(control: Control, exchange: string, routingKey: string): Promise<void> {
    await control.channel.bindQueue(control.queue, exchange, routingKey);
  }

  private async listen(control: Control, subscriber: BroadcastSubscriber): Promise<void> {
    await this.bindControl(control, this.broadcastExchange, subscriber.topic);
    if (this.control === control && !control.lost) subscriber.setLive(true);
  }

  private controlLost(): void {
    this.control = null;
    for (const subscriber of this.broadcastSubscribers) subscriber.setLive(false);
  }

  private onControl(control: Control, msg: ConsumeMessage | null): void {
    if (msg === null) {
      this.channelLost(control.connection, 'control queue consumer cancelled by the broker');
      return;
    }
    if (msg.fields.exchange === this.broadcastExchange) {
      const topic = msg.fields.routingKey;
      const origin = typeof msg.properties.appId === 'string' ? msg.properties.appId : '';
      for (const subscriber of this.broadcastSubscribers) {
        if (subscriber.topic === topic) subscriber.deliver({ topic, body: msg.content, origin });
      }
      return;
    }
    const correlationId: unknown = msg.properties.correlationId;
    if (typeof correlationId !== 'string') return;
    if (msg.properties.type === DRAIN_REPLY) {
      const reply = parseDrainReply(msg.content);
      if (reply) this.drainReplies.get(correlationId)?.(reply);
    } else if (msg.properties.type === DRAIN_REQUEST && msg.fields.exchange === this.controlExchange) {
      void this.answerDrainQuestion(msg.fields.routingKey, correlationId, msg);
    }
  }

  /** Each consuming subscription of the group in this process settles and answers (the asker's own excepted). */
  private async answerDrainQuestion(group: string, correlationId: string, msg: ConsumeMessage): Promise<void> {
    const replyTo: unknown = msg.properties.replyTo;
    const question = parseDrainQuestion(msg.content);
    if (typeof replyTo !== 'string' || !question) return;
    const deadline = Date.now() + Math.min(question.timeoutMs, DRAIN_ANSWER_MAX_MS);
    await Promise.all(
      [...this.subscriptions]
        .filter((subscription) => subscription.group === group && subscription.id !== question.requester)
        .filter((subscription) => subscription.consuming)
        .map(async (subscription) => {
          const settled = await subscription.settle(deadline);
          const reply: DrainReply = { subscription: subscription.id, received: settled.received, quiet: settled.quiet };
          const link = this.link;
          if (!link || link.lost) return;
          await this.publishOn(
            link,
            '',
            replyTo,
            Buffer.from(JSON.stringify(reply)),
            { type: DRAIN_REPLY, correlationId },
            `Drain answer for ${group}`,
          ).catch((err: unknown) => this.logger.debug({ err, group }, 'Could not answer a drain question'));
        }),
    );
  }

  private linkLost(err: Error | undefined): void {
    this.link = null;
    if (this.control) this.controlLost();
    if (this.closing) return;
    this.logger.warn({ err }, 'Event bus connection lost; reconnecting');
    this.startReconnecting();
  }

  private startReconnecting(): void {
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

  /** Runs after each connection and every `housekeepingIntervalMs`, one pass at a time. */
  private async keepHouse(): Promise<void> {
    const link = this.link;
    if (!link || link.lost || this.closing || this.housekeeping) return;
    this.housekeeping = true;
    try {
      await this.reportDeadLetters();
      for (const [group, patterns] of this.knownGroups()) {
        await this.migrateLegacyQueues(link.connection, group, patterns);
      }
    } catch (err) {
      this.logger.debug({ err }, 'Event bus housekeeping failed; the next pass tries again');
    } finally {
      this.housekeeping = false;
    }
  }

  /** Logs each group's dead-letter depth when it changed: a warning while events wait there for a replay. */
  private async reportDeadLetters(): Promise<void> {
    const counts = await this.deadLetterCounts();
    for (const [group, depth] of Object.entries(counts)) {
      const before = this.deadLetterDepths.get(group) ?? 0;
      this.deadLetterDepths.set(group, depth);
      if (depth === before) continue;
      const context = { group, queue: deadLetterQueueName(group), deadLetters: depth };
      if (depth > 0)
        this.logger.warn({ ...context, replay: replayCommand(group) }, 'Dead-lettered events are waiting for replay');
      else this.logger.info(context, 'Dead-letter queue is empty');
    }
  }
}

class AmqpSubscription implements Subscription {
  /** Names it in the replicas' drain questions and answers. */
  readonly id = randomUUID();
  private readonly queue: string;
  /** Where this group's failed events wait; checked before the group queue by waitUntilDrained. */
  private readonly retryQueues: string[];
  private readonly inFlight = new Set<Promise<void>>();
  /** Channels that have closed: what they delivered is back in the queue, and must not be settled or copied. */
  private readonly closedChannels = new WeakSet<Channel>();
  private channel: Channel | null = null;
  private consumerTag: string | null = null;
  private startedOn: ChannelModel | null = null;
  private starting: Promise<void> = Promise.resolve();
  /** Deliveries received so far; lets waitUntilDrained notice one that raced its queue check. */
  private received = 0;
  private stopped = false;

  constructor(
    private readonly bus: AmqpEventBus,
    readonly group: string,
    readonly patterns: string[],
    private readonly prefetch: number,
    private readonly handler: EventHandler,
  ) {
    this.queue = queueName(group);
    this.retryQueues = bus.retryQueueDelays.map((delayMs) => retryQueueName(group, delayMs));
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

  /** Consuming now: the broker may hand it events of the group. */
  get consuming(): boolean {
    return this.channel !== null && this.consumerTag !== null;
  }

  /**
   * Every event published before the call is handled when, for two rounds in a row, every other consumer of the
   * group (as many as the broker counts, bar this one) answered that it had settled (`settle`: nothing in flight,
   * nothing ready) with the same delivery count in both rounds, and this subscription settled in between. Why
   * that is enough: an event still held by another replica when this one settled was delivered to it after that
   * replica settled in the first round (before, it would have been handled then), so before it settled in the
   * second: its count would have changed. Alone in the group, this subscription's own settling is the answer.
   * A consumer that does not answer (a replica that hangs, a foreign client) makes it wait to the deadline.
   */
  async waitUntilDrained(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    let previous: Map<string, number> | null = null;
    for (;;) {
      if (!this.bus.connected) return false;
      const seen = await this.queueState(this.queue, deadline);
      if (seen === null) {
        if (Date.now() >= deadline) return false;
        await sleep(DRAIN_POLL_INTERVAL_MS);
        continue;
      }
      const others = seen.consumers - (this.consuming ? 1 : 0);
      const replies =
        others > 0 ? await this.bus.askReplicas(this.group, this.id, others, deadline) : new Map<string, DrainReply>();
      const own = await this.settle(deadline);
      if (!own.quiet) return false;
      if (own.consumers - (this.consuming ? 1 : 0) <= 0 && others <= 0) return true;
      const counts = new Map([...replies].map(([id, reply]) => [id, reply.received]));
      const agreed =
        own.consumers === seen.consumers && replies.size >= others && [...replies.values()].every((r) => r.quiet);
      if (agreed && previous !== null && sameCounts(previous, counts)) return true;
      previous = agreed ? counts : null;
      if (Date.now() >= deadline) return false;
    }
  }

  /**
   * Polls the queue depths (the retry queues', then the group queue's) on this
   * subscription's own channel until nothing is in flight here and nothing is
   * ready: the broker writes a delivery it has already taken off the queue
   * before the reply to a later check on the same channel, so two clean checks
   * in a row with no delivery in between mean nothing was on its way to this
   * subscription. Deliveries held by other replicas are not seen here (see
   * waitUntilDrained). Not quiet when the deadline passes first or the
   * connection is lost.
   */
  async settle(deadline: number): Promise<Settled> {
    let cleanChecks = 0;
    for (;;) {
      if (!this.bus.connected) return { quiet: false, received: this.received, consumers: 0 };
      const receivedBefore = this.received;
      const pending = this.inFlight.size === 0 ? await this.pendingCount(deadline) : null;
      if (pending?.ready === 0 && this.inFlight.size === 0 && this.received === receivedBefore) {
        if (++cleanChecks === 2) return { quiet: true, received: receivedBefore, consumers: pending.consumers };
        continue;
      }
      cleanChecks = 0;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { quiet: false, received: this.received, consumers: pending?.consumers ?? 0 };
      await sleep(Math.min(DRAIN_POLL_INTERVAL_MS, remaining));
    }
  }

  /** Retry queues first: an event that moves on to the group queue meanwhile is then seen in one of them. */
  private async pendingCount(deadline: number): Promise<{ ready: number; consumers: number } | null> {
    let ready = 0;
    let consumers = 0;
    for (const queue of [...this.retryQueues, this.queue]) {
      const state = await this.queueState(queue, deadline);
      if (state === null) return null;
      ready += state.ready;
      consumers = state.consumers;
    }
    return { ready, consumers };
  }

  private async queueState(queue: string, deadline: number): Promise<{ ready: number; consumers: number } | null> {
    const channel = this.channel ?? this.bus.publisherChannel;
    if (!channel) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
    });
    try {
      const check = channel.checkQueue(queue).then(
        (reply) => ({ ready: reply.messageCount, consumers: reply.consumerCount }),
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
      this.closedChannels.add(channel);
      if (this.channel !== channel) return;
      this.channel = null;
      this.consumerTag = null;
      if (!this.stopped) this.bus.channelLost(connection, `consumer channel of ${this.group} closed`);
    });
    try {
      await channel.prefetch(this.prefetch);
      await this.bus.assertGroup(connection, channel, this.group, this.patterns);
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
    const failures = failuresOf(msg);
    // Every delivery counts here (a lost connection's too); only handler failures count toward the limit.
    const attempt = failures + redeliveriesOf(msg) + 1;
    // Back from a retry queue (or a replay), it came by the queue's name and carries the key it was published with.
    const routingKey = msg.fields.routingKey === this.queue ? originalRoutingKey(msg) : msg.fields.routingKey;
    const decoded = decodeEvent(msg.content, routingKey);
    if (!decoded.ok) {
      // No retry can make it valid: rejected without requeue, the quorum queue dead-letters it now.
      logger.error({ ...context, reason: decoded.reason, attempt }, 'Event refused and dead-lettered');
      eventsDeadLettered.inc({ group: this.group, reason: 'refused' });
      settle(() => channel.nack(msg, false, false));
      return;
    }
    const { event } = decoded;
    const run: Promise<void> = Promise.resolve()
      .then(() => this.handler({ event, attempt }))
      .then(
        () => {
          eventsConsumed.inc({ group: this.group });
          observeApplyLag(this.group, event.occurredAt);
          settle(() => channel.ack(msg));
        },
        (err: unknown) => this.handlerFailed(channel, msg, event, failures + 1, attempt, err),
      )
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  /**
   * A handler failure: the event waits in the retry queue for its delay (then
   * comes back to the group queue as a new message, so its redelivery count
   * starts over), or after `deliveryLimit` failures goes to the dead-letter
   * queue with the last error. The copy is confirmed before the original is
   * acked: a crash in between duplicates the event, never loses it.
   */
  private async handlerFailed(
    channel: Channel,
    msg: ConsumeMessage,
    event: DomainEvent,
    failures: number,
    attempt: number,
    err: unknown,
  ): Promise<void> {
    // The broker has put it back already, with the channel: a copy now would be a duplicate.
    if (this.closedChannels.has(channel)) return;
    const { bus } = this;
    const context = { group: this.group, messageId: event.id, type: event.type, attempt, failures, err };
    const giveUp = failures >= bus.deliveryLimit;
    const delayMs = retryDelayAfter(failures, bus.retryDelays);
    const target = giveUp ? deadLetterQueueName(this.group) : retryQueueName(this.group, delayMs);
    try {
      const headers = { [FAILURES_HEADER]: failures, [LAST_ERROR_HEADER]: describeError(err) };
      await bus.sendToQueue(target, msg.content, copyOptions(msg, headers));
    } catch (sendError) {
      // The connection went (the consumer channel's close may not have been seen yet): the broker redelivers it.
      if (sendError instanceof LinkLostError || this.closedChannels.has(channel)) return;
      bus.logger.warn({ ...context, sendError, queue: target }, 'Could not move the failed event; requeueing it');
      // Held a little, so that a broker refusing the copy does not turn into a busy loop.
      await sleep(Math.min(delayMs, REQUEUE_FALLBACK_MAX_DELAY_MS));
      settle(() => channel.nack(msg, false, true));
      return;
    }
    settle(() => channel.ack(msg));
    if (giveUp) eventsDeadLettered.inc({ group: this.group, reason: 'delivery_limit' });
    else eventsRetried.inc({ group: this.group });
    if (giveUp) {
      bus.logger.error(
        { ...context, deadLetterQueue: target, replay: replayCommand(this.group) },
        'Event dead-lettered after reaching the delivery limit',
      );
    } else {
      bus.logger.warn({ ...context, retryInMs: delayMs, retryQueue: target }, 'Event handler failed; retrying later');
    }
  }
}

function sameCounts(a: Map<string, number>, b: Map<string, number>): boolean {
  return a.size === b.size && [...a].every(([id, count]) => b.get(id) === count);
}

/** The longest a replica spends settling for another's drain question, whatever the question says. */
const DRAIN_ANSWER_MAX_MS = 60_000;

function parseDrainQuestion(body: Buffer): { requester: string; timeoutMs: number } | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const { requester, timeoutMs } = value;
    if (typeof requester !== 'string' || typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs)) return null;
    return { requester, timeoutMs: Math.max(0, timeoutMs) };
  } catch {
    return null;
  }
}

function parseDrainReply(body: Buffer): DrainReply | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const { subscription, received, quiet } = value;
    if (typeof subscription !== 'string' || typeof received !== 'number' || typeof quiet !== 'boolean') return null;
    return { subscription, received, quiet };
  } catch {
    return null;
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

/**
 * Opens the bus. Resolves connected when the broker answers; when it does
 * not, resolves all the same, disconnected (`ready()` rejects until the first
 * connection), and connects in the background.
 */
export async function createAmqpBus(url: string, options: AmqpBusOptions): Promise<EventBus> {
  const bus = new AmqpEventBus(url, options);
  await bus.open();
  return bus;
}
