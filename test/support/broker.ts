import { redactUrl } from '@cms/shared';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes';

/** The few amqplib calls used here (amqplib is a dependency of services/shared, not of the root). */
interface AmqpChannel {
  deleteQueue(queue: string): Promise<unknown>;
  deleteExchange(exchange: string): Promise<unknown>;
  close(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}
interface AmqpConnection {
  createChannel(): Promise<AmqpChannel>;
  close(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}
interface Amqplib {
  connect(url: string, options?: { timeout?: number }): Promise<AmqpConnection>;
}

const loadFromShared = createRequire(join(ROOT, 'services', 'shared', 'package.json'));
const amqplib = loadFromShared(loadFromShared.resolve('amqplib')) as Amqplib;

export const DEFAULT_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

/**
 * Deletes queues and exchanges (absent ones are fine). Each deletion gets its
 * own channel, since a broker error closes the channel it happened on.
 */
export async function deleteBrokerObjects(
  url: string,
  objects: { queues: string[]; exchanges: string[] },
): Promise<void> {
  let connection: AmqpConnection;
  try {
    connection = await amqplib.connect(url, { timeout: 5000 });
  } catch (error) {
    throw new Error(
      `Cannot reach RabbitMQ at ${redactUrl(url)} (start it with \`rabbitmq-server -detached\`): ${String(error)}`,
      { cause: error },
    );
  }
  connection.on('error', () => {});
  try {
    const run = async (action: (channel: AmqpChannel) => Promise<unknown>) => {
      const channel = await connection.createChannel();
      channel.on('error', () => {});
      await action(channel);
      await channel.close().catch(() => {});
    };
    for (const queue of objects.queues) await run((channel) => channel.deleteQueue(queue));
    for (const exchange of objects.exchanges) await run((channel) => channel.deleteExchange(exchange));
  } finally {
    await connection.close().catch(() => {});
  }
}
