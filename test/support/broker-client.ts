/**
 * A test's own connection to the suite's virtual host (never through a proxy): publishes to the `cms.events`
 * exchange as a producer would (or as a forger would), reads queue depths, and taps the events content publishes.
 */
import { decodeEvent, encodeEvent, EVENT_CONTENT_TYPE, type DomainEvent, type EventEnvelope } from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes';

export const EVENTS_EXCHANGE = 'cms.events';

/** The AMQP properties a message is published with (amqp.ts `publishOn` uses the same). */
export interface PublishProperties {
  persistent?: boolean;
  mandatory?: boolean;
  contentType?: string;
  messageId?: string;
  type?: string;
  headers?: Record<string, unknown>;
}

interface Message {
  content: Buffer;
  fields: { routingKey: string; deliveryTag: number };
  properties: PublishProperties;
}

/** The few amqplib calls used here (amqplib is a dependency of services/shared, not of the root). */
interface ConfirmChannel {
  publish(
    exchange: string,
    routingKey: string,
    content: Buffer,
    options: PublishProperties,
    callback: (error: unknown) => void,
  ): boolean;
  checkQueue(queue: string): Promise<{ messageCount: number; consumerCount: number }>;
  assertQueue(
    queue: string,
    options: { exclusive?: boolean; autoDelete?: boolean; durable?: boolean },
  ): Promise<{ queue: string }>;
  bindQueue(queue: string, exchange: string, pattern: string): Promise<unknown>;
  consume(queue: string, onMessage: (message: Message | null) => void, options: { noAck: boolean }): Promise<unknown>;
  on(event: 'return', listener: (message: Message) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): Promise<void>;
}
interface Connection {
  createConfirmChannel(): Promise<ConfirmChannel>;
  close(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}
interface Amqplib {
  connect(url: string, options?: { timeout?: number }): Promise<Connection>;
}

const loadFromShared = createRequire(join(ROOT, 'services', 'shared', 'package.json'));
const amqplib = loadFromShared(loadFromShared.resolve('amqplib')) as Amqplib;

/** One message a tap received: the bytes and properties as published, and the event when it decodes. */
export interface TappedMessage {
  routingKey: string;
  content: Buffer;
  properties: PublishProperties;
  event: DomainEvent | null;
}

export class BrokerClient {
  /** Returns not yet matched with their confirm, by messageId. */
  private readonly returned = new Set<string>();

  private constructor(
    private readonly connection: Connection,
    private readonly channel: ConfirmChannel,
  ) {
    channel.on('return', (message) => {
      if (message.properties.messageId) this.returned.add(message.properties.messageId);
    });
  }

  static async connect(url: string): Promise<BrokerClient> {
    const connection = await amqplib.connect(url, { timeout: 5000 });
    connection.on('error', () => {});
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => {});
    return new BrokerClient(connection, channel);
  }

  /**
   * Publishes raw bytes to `cms.events` under `routingKey` and waits for the broker's confirm; throws when the
   * broker nacks it or no queue took it. Properties default to what the bus adapter sets.
   */
  async publishRaw(routingKey: string, content: Buffer, properties: PublishProperties = {}): Promise<void> {
    const options: PublishProperties = {
      persistent: true,
      mandatory: true,
      contentType: EVENT_CONTENT_TYPE,
      messageId: randomUUID(),
      type: routingKey,
      headers: {},
      ...properties,
    };
    const messageId = options.messageId!;
    await new Promise<void>((resolve, reject) => {
      this.channel.publish(EVENTS_EXCHANGE, routingKey, content, options, (error) => {
        if (error) reject(new Error(`The broker nacked message ${messageId}`));
        // The broker sends basic.return before the ack of the same message.
        else if (this.returned.delete(messageId))
          reject(new Error(`Message ${messageId} (${routingKey}) was unroutable`));
        else resolve();
      });
    });
  }

  /** Publishes an event as the bus adapter does: encoded, routed by its type, with its id as messageId. */
  publishEvent(event: EventEnvelope): Promise<void> {
    return this.publishRaw(event.type, encodeEvent(event), {
      messageId: event.id,
      type: event.type,
      headers: event.requestId === undefined ? {} : { 'x-request-id': event.requestId },
    });
  }

  /** Publishes a message again exactly as it was tapped (same bytes, routing key and properties): a duplicate. */
  republish(message: TappedMessage): Promise<void> {
    return this.publishRaw(message.routingKey, message.content, message.properties);
  }

  /** Messages ready in a queue (not those delivered and unacknowledged). */
  async queueDepth(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).messageCount;
  }

  /**
   * A queue of the test's own bound to `cms.events` with `patterns` (exclusive: gone with the connection), and
   * everything it receives from now on, in arrival order.
   */
  async tap(patterns: string[]): Promise<TappedMessage[]> {
    const { queue } = await this.channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    for (const pattern of patterns) await this.channel.bindQueue(queue, EVENTS_EXCHANGE, pattern);
    const received: TappedMessage[] = [];
    await this.channel.consume(
      queue,
      (message) => {
        if (!message) return;
        const decoded = decodeEvent(message.content, message.fields.routingKey);
        received.push({
          routingKey: message.fields.routingKey,
          content: message.content,
          properties: {
            persistent: true,
            mandatory: true,
            contentType: message.properties.contentType,
            messageId: message.properties.messageId,
            type: message.properties.type,
            headers: message.properties.headers,
          },
          event: decoded.ok ? decoded.event : null,
        });
      },
      { noAck: true },
    );
    return received;
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => {});
    await this.connection.close().catch(() => {});
  }
}
