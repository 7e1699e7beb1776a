import { redactUrl } from '@cms/shared';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
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

/**
 * A RabbitMQ virtual host of the test's own (`rabbitmqctl`, on the broker's machine), so that two test runs on
 * one broker never see each other's queues; `dispose` deletes it with everything in it. Without rabbitmqctl
 * (a broker elsewhere), the URL as given, with a warning: such runs must not overlap.
 */
export function isolatedVhost(url: string): { url: string; dispose(): void } {
  const name = `cms-test-${randomUUID().slice(0, 8)}`;
  try {
    execFileSync('rabbitmqctl', ['add_vhost', name], { stdio: 'ignore' });
    execFileSync('rabbitmqctl', ['set_permissions', '-p', name, new URL(url).username || 'guest', '.*', '.*', '.*'], {
      stdio: 'ignore',
    });
  } catch (error) {
    console.warn(`No virtual host of its own for this test (${String(error)}); using ${redactUrl(url)} as it is`);
    return { url, dispose() {} };
  }
  const isolated = new URL(url);
  isolated.pathname = `/${encodeURIComponent(name)}`;
  return {
    url: isolated.toString(),
    dispose() {
      execFileSync('rabbitmqctl', ['delete_vhost', name], { stdio: 'ignore' });
    },
  };
}
