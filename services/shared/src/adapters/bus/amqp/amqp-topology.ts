/**
 * What the RabbitMQ adapter declares for each consumer group, and how a message
 * is moved between its queues without losing the routing key it was published
 * with (the consumer checks it against the event's type).
 *
 *   cms.<group>.v2              quorum; bound to the exchange with the group's patterns; what consumers read
 *   cms.<group>.retry.<ms>ms    quorum, message TTL <ms>; an event waits here after a handler failure, then
 *                               goes back to cms.<group>.v2 (one queue per wait, so a short wait never queues
 *                               behind a long one)
 *   cms.<group>.dead            classic; what the group gave up on, until replayed (dead-letters.ts)
 *
 * Queue arguments cannot change on an existing queue (RabbitMQ refuses the
 * declaration with PRECONDITION_FAILED), and a policy cannot raise a delivery
 * limit set by an argument (the lower one applies). So the group queue's name
 * carries the version of its arguments: a version that changes them takes a new
 * name and lists the old one in `legacyQueueNames`; the bus moves what the old
 * queue holds into the new one and deletes it (see AmqpEventBus.migrateLegacyQueue).
 */
import type { ConfirmChannel, GetMessage, Message, Options } from 'amqplib';

/** The version of the group queue's arguments, in its name. */
const QUEUE_VERSION = 'v2';

export const queueName = (group: string) => `cms.${group}.${QUEUE_VERSION}`;
/** Group queues of earlier versions: cms.<group> had x-delivery-limit (deliveryLimit - 1), counting lost connections. */
export const legacyQueueNames = (group: string) => [`cms.${group}`];
export const retryQueueName = (group: string, delayMs: number) => `cms.${group}.retry.${delayMs}ms`;
export const deadLetterQueueName = (group: string) => `cms.${group}.dead`;
export const deadLetterExchangeName = (exchange: string) => `${exchange}.dlx`;
/** Topic exchange of broadcasts: every process binds its own control queue for the topics it listens to. */
export const broadcastExchangeName = (exchange: string) => `${exchange}.broadcast`;
/** Direct exchange of the replicas' drain questions, keyed by group (see AmqpSubscription.waitUntilDrained). */
export const controlExchangeName = (exchange: string) => `${exchange}.control`;

/**
 * Deliveries of one message without an outcome (a consumer's connection lost
 * while it held the message, a consumer process that crashed on it) before the
 * broker dead-letters it. Handler failures do not count toward it: they go
 * through the retry queues as new messages. High, so that a flapping network does
 * not poison a valid event, yet finite, so that a message that kills its consumer
 * ends in the dead-letter queue. Fixed: it is a queue argument.
 */
export const REDELIVERY_LIMIT = 50;

/** The routing key the event was published with, on a message that reached a group queue by its name. */
export const ROUTING_KEY_HEADER = 'x-routing-key';
/** Handler failures so far; reset by a replay. */
export const FAILURES_HEADER = 'x-handler-failures';
/** The last handler error, bounded, for whoever inspects a retry or dead-letter queue. */
export const LAST_ERROR_HEADER = 'x-last-error';
export const REQUEST_ID_HEADER = 'x-request-id';

/** Dead-lettering that waits for the target queue's confirm (quorum queues otherwise drop on failure). */
const AT_LEAST_ONCE = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };

export function groupQueueArguments(deadLetterExchange: string, group: string): Options.AssertQueue['arguments'] {
  return {
    'x-queue-type': 'quorum',
    'x-delivery-limit': REDELIVERY_LIMIT,
    'x-dead-letter-exchange': deadLetterExchange,
    'x-dead-letter-routing-key': group,
    ...AT_LEAST_ONCE,
  };
}

/** Expired messages go back to the group queue through the default exchange, by its name. */
export function retryQueueArguments(group: string, delayMs: number): Options.AssertQueue['arguments'] {
  return {
    'x-queue-type': 'quorum',
    'x-message-ttl': delayMs,
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': queueName(group),
    ...AT_LEAST_ONCE,
  };
}

/**
 * The routing key a message was published with: its own when it came through
 * the exchange, else the header set when it was moved, else the one RabbitMQ
 * recorded when it dead-lettered it.
 */
export function originalRoutingKey(msg: Message): string {
  const headers = msg.properties.headers ?? {};
  const recorded: unknown = headers[ROUTING_KEY_HEADER];
  if (typeof recorded === 'string') return recorded;
  const deaths: unknown = headers['x-death'];
  if (Array.isArray(deaths)) {
    const keys: unknown = (deaths[deaths.length - 1] as { 'routing-keys'?: unknown } | undefined)?.['routing-keys'];
    if (Array.isArray(keys) && typeof keys[0] === 'string') return keys[0];
  }
  return msg.fields.routingKey;
}

export function failuresOf(msg: Message): number {
  const value = Number(msg.properties.headers?.[FAILURES_HEADER] ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** Deliveries of this message that ended without an outcome (quorum queues count them). */
export function redeliveriesOf(msg: Message): number {
  const value = Number(msg.properties.headers?.['x-delivery-count'] ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/**
 * The properties of `msg` for a copy sent to a queue by name: the same body,
 * id, type and request id, its routing key in a header, plus `headers`;
 * RabbitMQ's own headers (x-death, x-delivery-count) do not travel.
 */
export function copyOptions(msg: Message, headers: Record<string, unknown> = {}): Options.Publish {
  const requestId: unknown = msg.properties.headers?.[REQUEST_ID_HEADER];
  return {
    persistent: true,
    contentType: msg.properties.contentType as string | undefined,
    messageId: msg.properties.messageId as string | undefined,
    type: msg.properties.type as string | undefined,
    headers: {
      ...(typeof requestId === 'string' ? { [REQUEST_ID_HEADER]: requestId } : {}),
      [ROUTING_KEY_HEADER]: originalRoutingKey(msg),
      ...headers,
    },
  };
}

/**
 * Moves at most `max` messages from queue `from` to queue `to` (which must
 * exist), each confirmed in `to` before it is acked in `from`: a crash in
 * between leaves a duplicate, never a loss. Bounded, so that messages that come
 * back to `from` meanwhile (a poison event dead-lettered again) are not moved
 * in a loop. Resolves with how many were moved. Cut short, what is left stays in `from`: a later move goes on
 * from there.
 */
export async function moveMessages(
  channel: ConfirmChannel,
  from: string,
  to: string,
  max: number,
  headersFor: (msg: GetMessage) => Record<string, unknown> = () => ({}),
  /** Hears of each message once it is moved (a tool's progress). */
  onMoved: (msg: GetMessage) => void = () => {},
): Promise<number> {
  let moved = 0;
  while (moved < max) {
    const msg = await channel.get(from, { noAck: false });
    if (!msg) break;
    try {
      await new Promise<void>((resolve, reject) =>
        channel.publish('', to, msg.content, copyOptions(msg, headersFor(msg)), (err: unknown) =>
          err ? reject(new Error(`The broker refused a message moved to ${to}`)) : resolve(),
        ),
      );
    } catch (err) {
      channel.nack(msg, false, true);
      throw err;
    }
    channel.ack(msg);
    moved++;
    onMoved(msg);
  }
  return moved;
}
