import pino from 'pino';
import { createAmqpBus } from '../../src/adapters/bus/amqp/amqp-bus';
import type { BroadcastMessage, EventBus } from '../../src/ports/bus';
import { isolatedVhost } from '../../../../test/support/broker';
import { describeWithBroker } from '../../../../test/support/broker-tests';
import { pollUntil } from '../../../../test/support/poll';
import { TcpProxy } from '../../../../test/support/tcp-proxy';
import { validEvent } from './fixtures';

/**
 * Two buses on one broker stand for two replicas of a service (each its own connection, as two processes have):
 * broadcasts reach both, a group's events are shared between them, and one replica's waitUntilDrained accounts
 * for what the other holds.
 */

const BROKER_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const GROUP = 'replicas';
const TYPE = 'content.added';
const logger = pino({ level: 'silent' });

let vhost: ReturnType<typeof isolatedVhost> | undefined;
const buses: EventBus[] = [];

async function replica(url = vhost?.url ?? BROKER_URL): Promise<EventBus> {
  const bus = await createAmqpBus(url, {
    topology: [{ group: GROUP, patterns: [TYPE] }],
    logger,
    retryDelaysMs: [20],
  });
  buses.push(bus);
  return bus;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

beforeAll(() => {
  vhost = isolatedVhost(BROKER_URL);
});

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  vhost?.dispose();
});

describeWithBroker('replicas on one broker', () => {
  it('a broadcast reaches every live subscriber once, with its origin', async () => {
    const [a, b] = [await replica(), await replica()];
    const seen: Record<string, BroadcastMessage[]> = { a: [], b: [] };
    const subA = await a.subscribeBroadcast('test.notice', (message) => seen.a.push(message));
    const subB = await b.subscribeBroadcast('test.notice', (message) => seen.b.push(message));
    await b.subscribeBroadcast('test.other', () => seen.b.push({ topic: 'wrong', body: Buffer.alloc(0), origin: '' }));
    expect([subA.live, subB.live]).toEqual([true, true]);

    await a.broadcast('test.notice', Buffer.from('one'), 'replica-a');
    await pollUntil(() => seen.a.length === 1 && seen.b.length === 1, 5000, { description: 'both to receive it' });
    for (const message of [...seen.a, ...seen.b]) {
      expect(message).toEqual({ topic: 'test.notice', body: Buffer.from('one'), origin: 'replica-a' });
    }

    const changes: boolean[] = [];
    subB.onLiveChange((live) => changes.push(live));
    await b.close();
    expect(subB.live).toBe(false);
    expect(changes).toEqual([false]);
  });

  it('a broadcast subscription is not live from a lost connection until the next, and hears again after', async () => {
    const { proxy, url } = await TcpProxy.forUrl(vhost?.url ?? BROKER_URL);
    try {
      const [a, b] = [await replica(), await replica(url)];
      const heard: string[] = [];
      const sub = await b.subscribeBroadcast('test.cut', ({ body }) => heard.push(body.toString()));
      const changes: boolean[] = [];
      sub.onLiveChange((live) => changes.push(live));
      expect(sub.live).toBe(true);

      await proxy.refuse();
      await pollUntil(() => !sub.live, 5000, { description: 'the subscription to go down with its connection' });
      // Published while B cannot hear: lost for B, which is why it said it was not live.
      await a.broadcast('test.cut', Buffer.from('missed'), 'a');
      await proxy.up();
      await pollUntil(() => sub.live, 15_000, { description: 'the subscription to be live again' });
      await a.broadcast('test.cut', Buffer.from('heard'), 'a');
      await pollUntil(() => heard.includes('heard'), 5000, { description: 'the broadcast after the reconnection' });
      expect(heard).toEqual(['heard']);
      expect(changes).toEqual([false, true]);
    } finally {
      await proxy.close();
    }
  });

  it('the events of a group are shared between its replicas, each delivered to one', async () => {
    const [a, b] = [await replica(), await replica()];
    const handled: Record<string, string[]> = { a: [], b: [] };
    const subA = await a.subscribe({ group: GROUP, patterns: [TYPE] }, async ({ event }) => {
      handled.a.push(event.id);
    });
    const subB = await b.subscribe({ group: GROUP, patterns: [TYPE] }, async ({ event }) => {
      handled.b.push(event.id);
    });
    const published = Array.from({ length: 20 }, () => validEvent(TYPE));
    for (const event of published) await a.publish(event);
    expect(await subA.waitUntilDrained(10_000)).toBe(true);

    expect([...handled.a, ...handled.b].sort()).toEqual(published.map((event) => event.id).sort());
    expect(handled.a.length).toBeGreaterThan(0);
    expect(handled.b.length).toBeGreaterThan(0);
    await Promise.all([subA.stop(), subB.stop()]);
  });

  it("one replica's waitUntilDrained is false while another holds an event, true once it is handled", async () => {
    const [a, b] = [await replica(), await replica()];
    const gate = deferred();
    const holding = deferred();
    let handledByB = 0;
    const subA = await a.subscribe({ group: GROUP, patterns: [TYPE] }, async () => undefined);
    const subB = await b.subscribe({ group: GROUP, patterns: [TYPE] }, async () => {
      holding.resolve();
      await gate.promise;
      handledByB++;
    });
    expect(await subA.waitUntilDrained(5000)).toBe(true);

    // Round-robin between the two consumers: within a few events, one goes to B, which holds it unacked.
    let heldByB = false;
    void holding.promise.then(() => (heldByB = true));
    for (let i = 0; i < 10 && !heldByB; i++) {
      await a.publish(validEvent(TYPE));
      await Promise.race([holding.promise, subA.waitUntilDrained(200)]);
    }
    expect(heldByB).toBe(true);
    // Nothing is ready in the queue and A holds nothing: only B's answer can tell A that B is not done.
    expect(await subA.waitUntilDrained(300)).toBe(false);

    const waiting = subA.waitUntilDrained(10_000);
    gate.resolve();
    expect(await waiting).toBe(true);
    expect(handledByB).toBeGreaterThan(0);
    await Promise.all([subA.stop(), subB.stop()]);
  });
});
