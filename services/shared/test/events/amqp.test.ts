import { randomUUID } from 'node:crypto';
import net from 'node:net';
import * as amqp from 'amqplib';
import pino from 'pino';
import { createAmqpBus } from '../../src/events/amqp';
import type { Delivery, EventBus, EventEnvelope } from '../../src/events/port';
import type { ConsumerGroup } from '../../src/events/topology';
import { describeWithBroker } from '../../../../test/support/broker-tests';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = randomUUID().slice(0, 8);
const exchange = `cms.test.${suffix}`;
const group = (name: string) => `test-${suffix}-${name}`;

const G = {
  roundTrip: group('round-trip'),
  inspect: group('inspect'),
  early: group('early'),
  failing: group('failing'),
  malformed: group('malformed'),
  drain: group('drain'),
  order: group('order'),
  latency: group('latency'),
  reconnect: group('reconnect'),
  outage: group('outage'),
};
const topology: ConsumerGroup[] = [
  { group: G.roundTrip, patterns: ['round.*'] },
  { group: G.inspect, patterns: ['round.*'] },
  { group: G.early, patterns: ['early.#'] },
  { group: G.failing, patterns: ['failing.*'] },
  { group: G.malformed, patterns: ['malformed.*'] },
  { group: G.drain, patterns: ['drain.*'] },
  { group: G.order, patterns: ['order.*'] },
  { group: G.latency, patterns: ['latency.*'] },
  { group: G.reconnect, patterns: ['reconnect.*'] },
  { group: G.outage, patterns: ['outage.*'] },
];
const DELIVERY_LIMIT = 2;

interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}
const records: LogRecord[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => records.push(JSON.parse(line) as LogRecord) });

let counter = 0;
function event(type: string, payload: unknown = {}, requestId?: string): EventEnvelope {
  counter++;
  return { id: `${suffix}-${counter}`, type, occurredAt: new Date().toISOString(), requestId, payload };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('Condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A TCP hop between a bus and the broker that a test can cut or refuse, to simulate an outage. */
async function startProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5672), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: () => sockets.forEach((socket) => socket.destroy()),
    refuse: (value: boolean) => (refusing = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let raw: amqp.ChannelModel;
let rawChannel: amqp.Channel;
let bus: EventBus;
const buses: EventBus[] = [];

async function openBus(url = AMQP_URL, reconnectWaitMs?: number): Promise<EventBus> {
  const created = await createAmqpBus(url, {
    topology,
    logger,
    deliveryLimit: DELIVERY_LIMIT,
    exchange,
    reconnectWaitMs,
  });
  buses.push(created);
  return created;
}

async function getOne(queue: string): Promise<amqp.GetMessage> {
  return eventually(async () => (await rawChannel.get(queue, { noAck: true })) || undefined);
}

beforeAll(async () => {
  raw = await amqp.connect(AMQP_URL);
  rawChannel = await raw.createChannel();
  bus = await openBus();
});

afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  for (const name of Object.values(G)) {
    await rawChannel.deleteQueue(`cms.${name}`);
    await rawChannel.deleteQueue(`cms.${name}.dead`);
  }
  await rawChannel.deleteExchange(exchange);
  await rawChannel.deleteExchange(`${exchange}.dlx`);
  await raw.close();
});

describeWithBroker('AMQP event bus', () => {
  it('asserts the topology: quorum group queues with dead-letter queues', async () => {
    expect(bus.kind).toBe('amqp');
    await bus.ping();
    await rawChannel.checkExchange(exchange);
    await rawChannel.checkExchange(`${exchange}.dlx`);
    for (const name of Object.values(G)) {
      await rawChannel.checkQueue(`cms.${name}`);
      await rawChannel.checkQueue(`cms.${name}.dead`);
    }
    // Re-asserting with the same arguments is accepted by the broker (no PRECONDITION_FAILED).
    await rawChannel.assertQueue(`cms.${G.failing}`, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': DELIVERY_LIMIT - 1,
        'x-dead-letter-exchange': `${exchange}.dlx`,
        'x-dead-letter-routing-key': G.failing,
      },
    });
  });

  it('publishes persistent JSON with messageId, type and x-request-id, and delivers it to subscribers', async () => {
    const received: Delivery[] = [];
    const sub = await bus.subscribe({ group: G.roundTrip, patterns: ['round.*'] }, async (d) => {
      received.push(d);
    });
    const published = event('round.trip', { title: 'Hello', tags: ['a', 'b'] }, 'req-42');
    await bus.publish(published);
    expect(await sub.waitUntilDrained(5000)).toBe(true);
    expect(received).toEqual([{ event: published, attempt: 1 }]);

    const msg = await getOne(`cms.${G.inspect}`);
    expect(msg.properties).toMatchObject({
      messageId: published.id,
      type: 'round.trip',
      contentType: 'application/json',
      deliveryMode: 2,
      headers: { 'x-request-id': 'req-42' },
    });
    expect(JSON.parse(msg.content.toString())).toEqual(published);
    await sub.stop();
  });

  it('keeps an event published before the consumer subscribed', async () => {
    const published = event('early.bird.sings');
    await bus.publish(published);
    const received = deferred<Delivery>();
    const sub = await bus.subscribe({ group: G.early, patterns: ['early.#'] }, async (d) => received.resolve(d));
    expect((await received.promise).event).toEqual(published);
    await sub.stop();
  });

  it('rejects a publish that no group matches', async () => {
    await expect(bus.publish(event('nobody.listens'))).rejects.toThrow(/unroutable/);
    // The channel stays usable and later publishes are unaffected by the earlier return.
    await bus.publish(event('round.again'));
  });

  it('redelivers a failed event with attempt 2, then dead-letters it', async () => {
    const attempts: number[] = [];
    const sub = await bus.subscribe({ group: G.failing, patterns: ['failing.*'] }, async ({ attempt }) => {
      attempts.push(attempt);
      throw new Error('handler failed');
    });
    const published = event('failing.event');
    await bus.publish(published);

    const dead = await getOne(`cms.${G.failing}.dead`);
    expect(JSON.parse(dead.content.toString())).toEqual(published);
    expect(dead.properties.messageId).toBe(published.id);
    expect(attempts).toEqual([1, 2]);
    expect(await sub.waitUntilDrained(2000)).toBe(true);
    expect(records).toContainEqual(
      expect.objectContaining({ level: 50, group: G.failing, messageId: published.id, attempt: DELIVERY_LIMIT }),
    );
    await sub.stop();
  });

  it('dead-letters a message that is not JSON without calling the handler', async () => {
    const handler = jest.fn(async () => {});
    const sub = await bus.subscribe({ group: G.malformed, patterns: ['malformed.*'] }, handler);
    rawChannel.publish(exchange, 'malformed.body', Buffer.from('{not json'), { messageId: 'broken-1' });

    const dead = await getOne(`cms.${G.malformed}.dead`);
    expect(dead.content.toString()).toBe('{not json');
    expect(handler).not.toHaveBeenCalled();
    expect(records).toContainEqual(expect.objectContaining({ level: 50, group: G.malformed, messageId: 'broken-1' }));
    await sub.stop();
  });

  it('waitUntilDrained is false while a handler is blocked, true once it is done, and stop() waits for the ack', async () => {
    const gate = deferred();
    const started = deferred();
    let handled = 0;
    const sub = await bus.subscribe({ group: G.drain, patterns: ['drain.*'] }, async () => {
      started.resolve();
      await gate.promise;
      handled++;
    });
    expect(await sub.waitUntilDrained(1000)).toBe(true);
    await bus.publish(event('drain.one'));
    await started.promise;
    expect(await sub.waitUntilDrained(50)).toBe(false);

    const waiting = sub.waitUntilDrained(5000);
    setTimeout(() => gate.resolve(), 20);
    expect(await waiting).toBe(true);
    expect(handled).toBe(1);

    await bus.publish(event('drain.two'));
    expect(await sub.waitUntilDrained(5000)).toBe(true);
    expect(handled).toBe(2);
    await sub.stop();
    expect((await rawChannel.checkQueue(`cms.${G.drain}`)).messageCount).toBe(0);
  });

  it('stop() resolves only after the in-flight handler finished and was acked', async () => {
    const gate = deferred();
    const started = deferred();
    const sub = await bus.subscribe({ group: G.drain, patterns: ['drain.*'] }, async () => {
      started.resolve();
      await gate.promise;
    });
    await bus.publish(event('drain.three'));
    await started.promise;
    let stopped = false;
    const stopping = sub.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    // Acked, not requeued on channel close.
    expect((await rawChannel.checkQueue(`cms.${G.drain}`)).messageCount).toBe(0);
  });

  it('delivers sequential publishes to one group in order with prefetch 1', async () => {
    const count = 30;
    const published = Array.from({ length: count }, (_, i) => event('order.item', i));
    await Promise.all(published.map((e) => bus.publish(e)));
    const received: number[] = [];
    const sub = await bus.subscribe({ group: G.order, patterns: ['order.*'], prefetch: 1 }, async ({ event: e }) => {
      received.push(e.payload as number);
    });
    expect(await sub.waitUntilDrained(5000)).toBe(true);
    expect(received).toEqual(published.map((_, i) => i));
    await sub.stop();
  });

  it('confirms a publish in about a millisecond while a consumer acks on the same connection', async () => {
    // A consumer acking on the same connection is what makes Nagle's algorithm hold
    // the next publish for the ~40 ms delayed ACK; the bus connects with noDelay.
    let delivered = deferred<bigint>();
    const sub = await bus.subscribe({ group: G.latency, patterns: ['latency.*'] }, async () => {
      delivered.resolve(process.hrtime.bigint());
    });
    const confirms: number[] = [];
    const deliveries: number[] = [];
    for (let i = 0; i < 50; i++) {
      delivered = deferred<bigint>();
      const started = process.hrtime.bigint();
      await bus.publish(event('latency.probe', i));
      confirms.push(Number(process.hrtime.bigint() - started) / 1e6);
      deliveries.push(Number((await delivered.promise) - started) / 1e6);
    }
    const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[samples.length >> 1];
    console.log(
      `publish+confirm round trip over ${confirms.length} publishes: median ${median(confirms).toFixed(2)} ms, ` +
        `max ${Math.max(...confirms).toFixed(2)} ms; publish to handler: median ${median(deliveries).toFixed(2)} ms`,
    );
    expect(median(confirms)).toBeLessThan(25);
    await sub.stop();
  });

  it('recovers from a channel error by reconnecting and re-asserting the topology', async () => {
    const received: EventEnvelope[] = [];
    const sub = await bus.subscribe({ group: G.roundTrip, patterns: ['round.*'] }, async ({ event: e }) => {
      received.push(e);
    });
    // Publishing to the deleted exchange makes the broker close the publisher channel.
    await rawChannel.deleteExchange(exchange);
    const published = event('round.recovered');
    await bus.publish(published);
    await rawChannel.checkExchange(exchange);
    await eventually(() => (received.some((e) => e.id === published.id) ? true : undefined));
    expect(records).toContainEqual(expect.objectContaining({ msg: 'Event bus channel lost; reconnecting' }));
    await sub.stop();
  });

  it('reconnects after the connection drops and restarts live consumers', async () => {
    const proxy = await startProxy(new URL(AMQP_URL));
    try {
      const proxied = await openBus(proxy.url);
      const received: EventEnvelope[] = [];
      const sub = await proxied.subscribe({ group: G.reconnect, patterns: ['reconnect.*'] }, async ({ event: e }) => {
        received.push(e);
      });
      await proxied.publish(event('reconnect.before'));
      expect(await sub.waitUntilDrained(5000)).toBe(true);

      const lostAt = records.length;
      proxy.cut();
      await eventually(() => (records.slice(lostAt).some((r) => r.msg === 'Event bus reconnected') ? true : undefined));
      await proxied.ping();

      const after = event('reconnect.after');
      await proxied.publish(after);
      await eventually(() => (received.some((e) => e.id === after.id) ? true : undefined));
      expect(received.map((e) => e.type)).toEqual(['reconnect.before', 'reconnect.after']);
      expect(await sub.waitUntilDrained(5000)).toBe(true);
      await proxied.close();
    } finally {
      await proxy.close();
    }
  });

  it('while disconnected, publish waits for the reconnection up to a bound and ping rejects', async () => {
    const proxy = await startProxy(new URL(AMQP_URL));
    const outage = async (bus: EventBus) => {
      proxy.refuse(true);
      proxy.cut();
      await eventually(async () =>
        (await bus.ping().then(
          () => false,
          () => true,
        ))
          ? true
          : undefined,
      );
    };
    try {
      const proxied = await openBus(proxy.url, 1000);

      await outage(proxied);
      const pending = proxied.publish(event('outage.kept'));
      setTimeout(() => proxy.refuse(false), 150);
      await pending;
      await proxied.ping();
      const kept = await getOne(`cms.${G.outage}`);
      expect(JSON.parse(kept.content.toString())).toMatchObject({ type: 'outage.kept' });

      await outage(proxied);
      const started = Date.now();
      await expect(proxied.publish(event('outage.lost'))).rejects.toThrow(/not connected/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);

      proxy.refuse(false);
      await proxied.close();
      await expect(proxied.ping()).rejects.toThrow();
      await expect(proxied.publish(event('outage.closed'))).rejects.toThrow(/closed/);
    } finally {
      await proxy.close();
    }
  });
});
