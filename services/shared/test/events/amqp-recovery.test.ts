/**
 * The RabbitMQ adapter through broker outages and handler failures (issue 9,
 * findings 12, 13 and 16): starting while the broker is down, retries with
 * backoff that count only handler failures, the dead-letter queue with its
 * replay, the upgrade from the group queues of the earlier version, and what
 * readiness and a write wait for while the broker is away. Each test has an
 * exchange and groups of its own in this file's virtual host; outages go
 * through a TCP proxy, never the real broker.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import * as amqp from 'amqplib';
import pino from 'pino';
import { createAmqpBus, type AmqpBusOptions } from '../../src/adapters/bus/amqp/amqp-bus';
import {
  deadLetterQueueName,
  FAILURES_HEADER,
  LAST_ERROR_HEADER,
  queueName,
  retryQueueName,
  ROUTING_KEY_HEADER,
} from '../../src/adapters/bus/amqp/amqp-topology';
import { encodeEvent } from '../../src/events/codec';
import { countDeadLetters, replayDeadLetters } from '../../src/events/dead-letters';
import type { DomainEvent } from '../../src/events/event-types';
import { OutboxRelay, outboxFieldsFor, type OutboxFields } from '../../src/events/outbox';
import type { Delivery, EventBus } from '../../src/ports/bus';
import { storeAndBusReady } from '../../src/runtime/service';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import type { Document } from '../../src/ports/store';
import { isolatedVhost } from '../../../../test/support/broker';
import { describeWithBroker } from '../../../../test/support/broker-tests';
import { pollUntil } from '../../../../test/support/poll';
import { TcpProxy } from '../../../../test/support/tcp-proxy';
import { forgedMessages, validEvent } from './fixtures';

const BROKER_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** Far longer than any test may take: a wait this long shows up as a test timeout, not as a slow pass. */
const FOREVER_MS = 10 * 60_000;
const DELIVERY_LIMIT = 2;

interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}
const records: LogRecord[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => records.push(JSON.parse(line) as LogRecord) });

let vhost: ReturnType<typeof isolatedVhost> | undefined;
let url = BROKER_URL;
let raw: amqp.ChannelModel;
const opened: EventBus[] = [];
const proxies: TcpProxy[] = [];

/** An exchange and a group of the test's own, on every content event. */
function scope(name: string) {
  const id = `${name}-${randomUUID().slice(0, 8)}`;
  const group = `test-${id}`;
  return { exchange: `cms.test.${id}`, group, topology: [{ group, patterns: ['content.#'] }] };
}

async function open(
  where: ReturnType<typeof scope>,
  options: Partial<AmqpBusOptions> & { url?: string } = {},
): Promise<EventBus> {
  const bus = await createAmqpBus(options.url ?? url, {
    logger,
    deliveryLimit: DELIVERY_LIMIT,
    retryDelaysMs: [20],
    exchange: where.exchange,
    topology: where.topology,
    ...options,
  });
  opened.push(bus);
  return bus;
}

async function proxy(): Promise<{ proxy: TcpProxy; url: string }> {
  const through = await TcpProxy.forUrl(url);
  proxies.push(through.proxy);
  return through;
}

/** Each check on a channel of its own: asking about a missing queue closes the channel it is asked on. */
async function depth(queue: string): Promise<number | undefined> {
  const channel = await raw.createChannel();
  channel.on('error', () => {});
  try {
    return (await channel.checkQueue(queue)).messageCount;
  } catch {
    return undefined;
  } finally {
    await channel.close().catch(() => {});
  }
}

async function takeOne(queue: string): Promise<amqp.GetMessage> {
  const channel = await raw.createChannel();
  try {
    return await pollUntil(async () => (await channel.get(queue, { noAck: true })) || undefined, 10_000, {
      description: `a message in ${queue}`,
      intervalMs: 10,
    });
  } finally {
    await channel.close();
  }
}

const rejects = (promise: Promise<unknown>) =>
  promise.then(
    () => false,
    () => true,
  );

const logged = (predicate: (record: LogRecord) => boolean, description: string) =>
  pollUntil(() => records.find(predicate), 10_000, { description, intervalMs: 10 });

beforeAll(async () => {
  vhost = isolatedVhost(BROKER_URL);
  url = vhost.url;
  raw = await amqp.connect(url);
});

afterAll(async () => {
  await Promise.all(opened.map((bus) => bus.close()));
  await Promise.all(proxies.map((p) => p.close()));
  await raw.close();
  vhost?.dispose();
});

describeWithBroker('AMQP event bus: outages and failures', () => {
  it('starts while the broker is down, is not ready, and connects and consumes once the broker is back (finding 12)', async () => {
    const where = scope('start-down');
    // The group's queue exists already, with an event in it, as after an earlier run.
    const direct = await open(where);
    const published = validEvent('content.added');
    await direct.publish(published);
    await direct.close();

    const { proxy: broker, url: through } = await proxy();
    await broker.down();
    const bus = await open(where, { url: through });
    expect(bus.connected).toBe(false);
    await expect(bus.ready()).rejects.toThrow(/not reached the broker/);
    await expect(storeAndBusReady({ ping: async () => {} } as never, bus)()).rejects.toThrow();
    const received: Delivery[] = [];
    const sub = await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async (d) => {
      received.push(d);
    });
    expect(await sub.waitUntilDrained(FOREVER_MS)).toBe(false);

    await broker.up();
    await pollUntil(() => bus.ready().then(() => true), 20_000, { description: 'the bus to connect' });
    expect(bus.connected).toBe(true);
    await pollUntil(() => received.length > 0, 10_000, { description: 'the kept event' });
    expect(received.map((d) => d.event.id)).toEqual([published.id]);
  });

  it('stays ready through an outage once started; a publish is not waited for, and waitUntilDrained answers at once (finding 16)', async () => {
    const where = scope('outage');
    const { proxy: broker, url: through } = await proxy();
    const bus = await open(where, { url: through });
    const sub = await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async () => {});
    await bus.ready();

    await broker.down();
    await pollUntil(() => !bus.connected, 10_000, { description: 'the bus to notice the outage' });
    expect(await rejects(bus.ping())).toBe(true);
    await bus.ready();
    await storeAndBusReady({ ping: async () => {} } as never, bus)();
    expect(await sub.waitUntilDrained(FOREVER_MS)).toBe(false);

    // A write's events in an outbox: the write does not wait for the broker, the sweep publishes them later.
    const dir = mkdtempSync(join(tmpdir(), 'outbox-outage-'));
    const store = await openEmbeddedStore(dir);
    try {
      const docs = store.collection<Document & OutboxFields>('docs');
      const event = validEvent('content.added');
      await docs.insertOne({ _id: 'doc', ...outboxFieldsFor([event]) });
      const relay = new OutboxRelay(docs, bus, logger, { pollIntervalMs: 20 });
      expect(await relay.flushWithin('doc', FOREVER_MS)).toBe('deferred');
      relay.start();
      await broker.up();
      await pollUntil(async () => (await docs.findOne({ _id: 'doc' }))?._pending === undefined, 20_000, {
        description: 'the sweep to publish the event after the reconnection',
      });
      await relay.stop();
      expect(await relay.flushWithin('doc', FOREVER_MS)).toBe('confirmed');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not count a delivery cut short by a lost connection toward the delivery limit (finding 13)', async () => {
    const where = scope('cuts');
    const { proxy: broker, url: through } = await proxy();
    const bus = await open(where, { url: through });
    const cuts = DELIVERY_LIMIT + 1;
    const held: (() => void)[] = [];
    const attempts: number[] = [];
    await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async ({ attempt }) => {
      attempts.push(attempt);
      // Held until the test has cut the connection under it, for the first `cuts` deliveries.
      if (attempts.length <= cuts) await new Promise<void>((release) => held.push(release));
    });
    await bus.publish(validEvent('content.added'));
    try {
      for (let cut = 1; cut <= cuts; cut++) {
        await pollUntil(() => attempts.length === cut, 20_000, { description: `delivery ${cut}` });
        broker.cut();
      }
      await pollUntil(() => attempts.length === cuts + 1, 20_000, { description: 'the delivery after the last cut' });
    } finally {
      held.forEach((release) => release());
    }
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(await depth(deadLetterQueueName(where.group))).toBe(0);
  });

  it('parks a failed event in its retry queue for the delay, then delivers it again: a brief failure loses nothing (finding 13)', async () => {
    const where = scope('retry');
    const delayMs = 1500;
    const bus = await open(where, { retryDelaysMs: [delayMs], deliveryLimit: 5 });
    const attempts: number[] = [];
    const sub = await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async ({ attempt }) => {
      attempts.push(attempt);
      if (attempt === 1) throw new Error('store down');
    });
    await bus.publish(validEvent('content.added'));
    await pollUntil(async () => (await depth(retryQueueName(where.group, delayMs))) === 1, 10_000, {
      description: 'the failed event in the retry queue',
      intervalMs: 10,
    });
    expect(attempts).toEqual([1]);
    // Still waiting: read-your-writes does not call the group drained.
    expect(await sub.waitUntilDrained(10)).toBe(false);
    await pollUntil(() => attempts.length === 2, 20_000, { description: 'the retry' });
    expect(attempts).toEqual([1, 2]);
    expect(await sub.waitUntilDrained(10_000)).toBe(true);
    expect(await depth(deadLetterQueueName(where.group))).toBe(0);
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'Event handler failed; retrying later', group: where.group, retryInMs: delayMs }),
    );
  });

  it('dead-letters after the delivery limit of handler failures, with the count and last error, an error log and the depth reported (finding 13)', async () => {
    const where = scope('dead');
    const bus = await open(where, { housekeepingIntervalMs: 20 });
    await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async () => {
      throw new Error(`store down ${'!'.repeat(5000)}`);
    });
    const published = validEvent('content.removed', 'req-dead');
    await bus.publish(published);

    const dead = await takeOne(deadLetterQueueName(where.group));
    expect(dead.properties.messageId).toBe(published.id);
    expect(dead.properties.headers).toMatchObject({
      [FAILURES_HEADER]: DELIVERY_LIMIT,
      [ROUTING_KEY_HEADER]: 'content.removed',
      'x-request-id': 'req-dead',
    });
    const lastError = String(dead.properties.headers?.[LAST_ERROR_HEADER]);
    expect(lastError).toMatch(/^Error: store down !!!/);
    expect(lastError.length).toBeLessThanOrEqual(1001);
    // Logged once the broker has confirmed the copy, which may come after the copy can be taken off the queue.
    const error = await logged((r) => r.level === 50 && r.messageId === published.id, 'the dead-letter error log');
    expect(error).toMatchObject({
      msg: 'Event dead-lettered after reaching the delivery limit',
      group: where.group,
      failures: DELIVERY_LIMIT,
      deadLetterQueue: deadLetterQueueName(where.group),
      replay: `node services/shared/dist/runtime/replay-dead-letters.js ${where.group}`,
    });

    // Taken off above; the next one shows in the depth, both in the counts and in a warning.
    await bus.publish(validEvent('content.removed'));
    await pollUntil(async () => (await bus.deadLetterCounts())[where.group] === 1, 10_000, {
      description: 'one dead letter counted',
    });
    await logged(
      (r) => r.level === 40 && r.group === where.group && r.deadLetters === 1,
      'the dead-letter depth warning',
    );
    expect(await countDeadLetters(url, where.group)).toBe(1);
  });

  it('replays dead letters with the failure count reset, at most the depth it began with (finding 13)', async () => {
    const where = scope('replay');
    const bus = await open(where);
    let failing = true;
    const handled: Delivery[] = [];
    await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async (d) => {
      if (failing) throw new Error('store down');
      handled.push(d);
    });
    const fixed = validEvent('content.added');
    await bus.publish(fixed);
    await pollUntil(async () => (await depth(deadLetterQueueName(where.group))) === 1, 10_000, {
      description: 'the event dead-lettered',
    });
    // A message that is refused on every delivery: a replay must not keep moving it round.
    const [forged] = forgedMessages();
    const channel = await raw.createChannel();
    channel.publish(where.exchange, 'content.added', forged.body, { messageId: 'forged' });
    await channel.close();
    await pollUntil(async () => (await depth(deadLetterQueueName(where.group))) === 2, 10_000, {
      description: 'the forged message dead-lettered',
    });

    failing = false;
    const shown: string[] = [];
    const report = await replayDeadLetters(url, where.group, (total) => ({
      tick: (what) => shown.push(`${shown.length + 1}/${total} ${what}`),
      stop: () => shown.push('stop'),
    }));
    // The progress of the tool (npm run events:replay): one tick per event replayed, with its routing key.
    expect(shown).toEqual(['1/2 content.added', '2/2 content.added', 'stop']);
    expect(report).toEqual({
      group: where.group,
      from: deadLetterQueueName(where.group),
      to: queueName(where.group),
      depth: 2,
      replayed: 2,
    });
    await pollUntil(() => handled.length === 1, 10_000, { description: 'the replayed event handled' });
    expect(handled.map((d) => [d.event.id, d.attempt])).toEqual([[fixed.id, 1]]);
    await pollUntil(async () => (await depth(deadLetterQueueName(where.group))) === 1, 10_000, {
      description: 'the forged message back in the dead-letter queue',
    });
    await expect(replayDeadLetters(url, 'no-such-group')).rejects.toThrow(/does not exist/);
  });

  it('moves the events of the earlier version’s group queue into the new one and deletes it (upgrade)', async () => {
    const where = scope('upgrade');
    const legacy = `cms.${where.group}`;
    // What the earlier version declared: cms.<group>, delivery limit (deliveryLimit - 1) counting lost connections.
    const setup = await raw.createChannel();
    await setup.assertExchange(where.exchange, 'topic', { durable: true });
    await setup.assertExchange(`${where.exchange}.dlx`, 'direct', { durable: true });
    await setup.assertQueue(legacy, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': DELIVERY_LIMIT - 1,
        'x-dead-letter-exchange': `${where.exchange}.dlx`,
        'x-dead-letter-routing-key': where.group,
      },
    });
    await setup.bindQueue(legacy, where.exchange, 'content.#');
    const waiting = validEvent('content.modified', 'req-upgrade');
    setup.publish(where.exchange, waiting.type, encodeEvent(waiting), {
      persistent: true,
      messageId: waiting.id,
      type: waiting.type,
      headers: { 'x-request-id': 'req-upgrade' },
    });
    await setup.close();
    await pollUntil(async () => (await depth(legacy)) === 1, 10_000, { description: 'the event in the old queue' });

    const bus = await open(where);
    const received: DomainEvent[] = [];
    await bus.subscribe({ group: where.group, patterns: ['content.#'] }, async ({ event }) => {
      received.push(event);
    });
    await pollUntil(() => received.length === 1, 10_000, { description: 'the moved event' });
    expect(received[0]).toMatchObject({ id: waiting.id, requestId: 'req-upgrade' });
    expect(await depth(legacy)).toBeUndefined();
    // New events reach the new queue only.
    const after = validEvent('content.added');
    await bus.publish(after);
    await pollUntil(() => received.length === 2, 10_000, { description: 'an event published after the upgrade' });
    expect(received.map((e) => e.id)).toEqual([waiting.id, after.id]);
  });
});
