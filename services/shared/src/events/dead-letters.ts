/**
 * The dead-letter queues of RabbitMQ consumer groups, for an operator: how
 * many events wait in one, and a replay that sends them back to the group's
 * queue with their failure count reset (after the cause is fixed). The replay
 * moves at most the depth the queue had when it began, so an event that fails
 * again and comes back meanwhile waits for the next replay instead of looping.
 */
import * as amqp from 'amqplib';
import type { ChannelModel } from 'amqplib';
import { deadLetterQueueName, moveMessages, originalRoutingKey, queueName } from '../adapters/bus/amqp/amqp-topology';

export interface ReplayReport {
  group: string;
  from: string;
  to: string;
  /** Events in the dead-letter queue when the replay began. */
  depth: number;
  replayed: number;
}

const CONNECT_TIMEOUT_MS = 5_000;
const noop = () => {};

export async function countDeadLetters(url: string, group: string): Promise<number> {
  return withConnection(url, (connection) => depthOf(connection, deadLetterQueueName(group), group));
}

/** What a replay reports as it goes: made once the depth is known, told of each event replayed (its routing key). */
export type ReplayProgress = (depth: number) => { tick(what: string): void; stop(): void };

/**
 * Each event is confirmed on the group's queue before it leaves the dead-letter queue: a replay cut short leaves
 * the rest where they were (and at most one event twice, which consumers take at least once anyway), so running
 * it again goes on from there.
 */
export async function replayDeadLetters(url: string, group: string, progress?: ReplayProgress): Promise<ReplayReport> {
  return withConnection(url, async (connection) => {
    const from = deadLetterQueueName(group);
    const to = queueName(group);
    await depthOf(connection, to, group);
    const depth = await depthOf(connection, from, group);
    const channel = await connection.createConfirmChannel();
    const shown = progress?.(depth);
    try {
      // The copies carry no failure count: each event gets its full number of attempts again.
      const replayed = await moveMessages(channel, from, to, depth, undefined, (msg) =>
        shown?.tick(originalRoutingKey(msg)),
      );
      return { group, from, to, depth, replayed };
    } finally {
      shown?.stop();
      await channel.close().catch(noop);
    }
  });
}

async function withConnection<T>(url: string, work: (connection: ChannelModel) => Promise<T>): Promise<T> {
  const connection = await amqp.connect(url, { timeout: CONNECT_TIMEOUT_MS });
  connection.on('error', noop);
  try {
    return await work(connection);
  } finally {
    await connection.close().catch(noop);
  }
}

/** Each check on a channel of its own: asking about a queue that does not exist closes the channel. */
async function depthOf(connection: ChannelModel, queue: string, group: string): Promise<number> {
  const channel = await connection.createChannel();
  channel.on('error', noop);
  try {
    return (await channel.checkQueue(queue)).messageCount;
  } catch {
    throw new Error(`Queue ${queue} does not exist: no consumer of group "${group}" has started on this broker`);
  } finally {
    await channel.close().catch(noop);
  }
}
