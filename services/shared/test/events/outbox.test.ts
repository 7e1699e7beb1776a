import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { DomainEvent } from '../../src/events/event-types';
import { createInProcessBus } from '../../src/adapters/bus/in-process-bus';
import { OutboxRelay, withEvents, type OutboxFields } from '../../src/events/outbox';
import type { EventBus } from '../../src/ports/bus';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import type { Collection, Document, DocumentStore } from '../../src/ports/store';
import { validEvent } from './fixtures';

const silent = pino({ level: 'silent' });
type Doc = Document & OutboxFields & { title?: string };

describe('OutboxRelay', () => {
  let dir: string;
  let store: DocumentStore;
  let docs: Collection<Doc>;
  let bus: EventBus;
  let received: DomainEvent[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    store = await openEmbeddedStore(dir);
    docs = store.collection<Doc>('docs');
    bus = createInProcessBus({ topology: [{ group: 'g', patterns: ['content.#'] }], logger: silent });
    received = [];
    await bus.subscribe({ group: 'g', patterns: ['content.#'] }, async ({ event }) => {
      received.push(event);
    });
  });

  afterEach(async () => {
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const drained = async () => {
    // In-process delivery happens on later ticks.
    for (let i = 0; i < 20 && received.length === 0; i++) await new Promise((r) => setImmediate(r));
  };

  it("publishes a write's events in order and clears them after the confirm", async () => {
    const relay = new OutboxRelay(docs, bus, silent);
    const first = validEvent('content.added');
    const second = validEvent('content.modified');
    await docs.insertOne({ _id: 'a', _outbox: [first], _pending: true });
    await docs.updateOne({ _id: 'a' }, withEvents({ $set: { title: 't' } }, [second]));
    await relay.flush('a');
    await drained();
    expect(received.map((e) => e.id)).toEqual([first.id, second.id]);
    const doc = await docs.findOne({ _id: 'a' });
    expect(doc).toMatchObject({ _outbox: [], title: 't' });
    expect(doc?._pending).toBeUndefined();
  });

  it('keeps an event a write pushes while the last one is being published, pending for the next flush', async () => {
    const first = validEvent('content.added');
    const pushed = validEvent('content.modified');
    let pushedOnce = false;
    const pushing: EventBus = {
      ...bus,
      publish: async (event) => {
        await bus.publish(event);
        if (pushedOnce) return;
        pushedOnce = true;
        await docs.updateOne({ _id: 'p' }, withEvents({ $set: { title: 't' } }, [pushed]));
      },
    };
    await docs.insertOne({ _id: 'p', _outbox: [first], _pending: true });
    const relay = new OutboxRelay(docs, pushing, silent);
    await relay.flush('p');
    expect(await docs.findOne({ _id: 'p' })).toMatchObject({ _outbox: [pushed], _pending: true });
    await relay.flush('p');
    await drained();
    expect(received.map((e) => e.id)).toEqual([first.id, pushed.id]);
    const doc = await docs.findOne({ _id: 'p' });
    expect(doc).toMatchObject({ _outbox: [], title: 't' });
    expect(doc?._pending).toBeUndefined();
    expect(doc?._relay).toBeUndefined();
  });

  it('a sweep after a crash publishes what a write committed but nobody relayed', async () => {
    const orphan = validEvent('content.added');
    await docs.insertOne({ _id: 'b', _outbox: [orphan], _pending: true });
    await new OutboxRelay(docs, bus, silent).sweep();
    await drained();
    expect(received.map((e) => e.id)).toEqual([orphan.id]);
  });

  it('keeps events whose publish failed, and a later sweep delivers them', async () => {
    const failing: EventBus = { ...bus, publish: () => Promise.reject(new Error('broker down')) };
    const event = validEvent('content.added');
    await docs.insertOne({ _id: 'c', _outbox: [event], _pending: true });
    await expect(new OutboxRelay(docs, failing, silent).flush('c')).rejects.toThrow('broker down');
    expect(await docs.findOne({ _id: 'c', _pending: true })).not.toBeNull();
    await new OutboxRelay(docs, bus, silent).sweep();
    await drained();
    expect(received.map((e) => e.id)).toEqual([event.id]);
  });

  it('removes a tombstone once its event is out, after the hook', async () => {
    const removed: string[] = [];
    const relay = new OutboxRelay(docs, bus, silent, {
      beforeTombstoneRemoval: async (doc) => void removed.push(doc._id as string),
    });
    await docs.insertOne({ _id: 'd', title: 'x' });
    await docs.updateOne({ _id: 'd' }, withEvents({ $set: { _deleted: true } }, [validEvent('content.removed')]));
    await relay.flush('d');
    expect(removed).toEqual(['d']);
    expect(await docs.findOne({ _id: 'd' })).toBeNull();
  });

  describe('awaitPublished (read-your-writes across the broker)', () => {
    it('with nothing pending: published, at the cost of one look-up', async () => {
      await docs.insertOne({ _id: 'e', title: 'settled' });
      expect(await new OutboxRelay(docs, bus, silent).awaitPublished(1000)).toEqual({
        published: true,
        pending: 0,
        oldestAgeMs: 0,
        disconnected: false,
      });
    });

    it('publishes what is pending before it answers published', async () => {
      const event = validEvent('content.added');
      await docs.insertOne({ _id: 'f', _outbox: [event], _pending: true });
      const backlog = await new OutboxRelay(docs, bus, silent).awaitPublished(5000);
      expect(backlog).toMatchObject({ published: true, pending: 0 });
      await drained();
      expect(received.map((e) => e.id)).toEqual([event.id]);
    });

    it('with the broker link down: answers at once with what waits, and how old the oldest write is', async () => {
      const down = { ...bus, connected: false } as EventBus;
      const old = { ...validEvent('content.added'), occurredAt: new Date(Date.now() - 60_000).toISOString() };
      await docs.insertOne({ _id: 'g', _outbox: [old], _pending: true });
      await docs.insertOne({ _id: 'h', _outbox: [validEvent('content.added')], _pending: true });
      const backlog = await new OutboxRelay(docs, down, silent).awaitPublished(60_000);
      expect(backlog).toMatchObject({ published: false, pending: 2, disconnected: true });
      expect(backlog.oldestAgeMs).toBeGreaterThanOrEqual(60_000);
      expect(received).toEqual([]);
    });
  });

  describe('two replicas on one store', () => {
    /** A bus whose publishes wait for `open()`: a relay caught in the middle of a document. */
    const gatedBus = () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let publishing!: () => void;
      const started = new Promise<void>((resolve) => (publishing = resolve));
      const gated = {
        get connected() {
          return true;
        },
        publish: async (event: Parameters<EventBus['publish']>[0]) => {
          publishing();
          await gate;
          await bus.publish(event);
        },
      } as unknown as EventBus;
      return { gated, open, started };
    };
    const allDelivered = async (count: number) => {
      for (let i = 0; i < 50 && received.length < count; i++) await new Promise((r) => setImmediate(r));
    };

    it("a sweep passes over a document the other replica's relay holds; each event goes out once", async () => {
      const { gated, open, started } = gatedBus();
      const [a, b] = [new OutboxRelay(docs, gated, silent), new OutboxRelay(docs, bus, silent)];
      const events = [validEvent('content.added'), validEvent('content.modified')];
      await docs.insertOne({ _id: 'e', _outbox: events, _pending: true });
      const flushing = a.flush('e');
      await started;
      await b.sweep();
      expect(received).toEqual([]);
      open();
      await flushing;
      await b.sweep();
      await allDelivered(2);
      expect(received.map((e) => e.id)).toEqual(events.map((e) => e.id));
      const doc = await docs.findOne({ _id: 'e' });
      expect(doc?._pending).toBeUndefined();
      expect(doc?._relay).toBeUndefined();
    });

    it("a write's flush on the other replica waits for the holder, then publishes what the write added", async () => {
      const { gated, open, started } = gatedBus();
      const [a, b] = [new OutboxRelay(docs, gated, silent), new OutboxRelay(docs, bus, silent)];
      const first = validEvent('content.added');
      const second = validEvent('content.modified');
      await docs.insertOne({ _id: 'f', _outbox: [first], _pending: true });
      const holding = a.flush('f');
      await started;
      await docs.updateOne({ _id: 'f' }, withEvents({ $set: { title: 'later' } }, [second]));
      let waited = false;
      const waiting = b.flush('f').then(() => (waited = true));
      for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 5));
      expect(waited).toBe(false);
      open();
      await Promise.all([holding, waiting]);
      await allDelivered(2);
      expect(received.map((e) => e.id)).toEqual([first.id, second.id]);
      expect((await docs.findOne({ _id: 'f' }))?._pending).toBeUndefined();
    });

    it("releaseClaims frees a killed relay's claim at once, long before its lease runs out", async () => {
      const event = validEvent('content.added');
      await docs.insertOne({
        _id: 'k',
        _outbox: [event],
        _pending: true,
        _relay: { owner: 'killed', until: Date.now() + 3_600_000 },
      });
      const relay = new OutboxRelay(docs, bus, silent);
      await relay.sweep();
      expect(received).toEqual([]);
      expect(await relay.releaseClaims()).toBe(1);
      await relay.sweep();
      await allDelivered(1);
      expect(received.map((e) => e.id)).toEqual([event.id]);
    });

    it("releaseClaimsOf frees the claims of the relays named, and leaves a live relay's", async () => {
      const lost = validEvent('content.added');
      const held = validEvent('content.added');
      const until = Date.now() + 3_600_000;
      await docs.insertOne({ _id: 'l', _outbox: [lost], _pending: true, _relay: { owner: 'lost-replica', until } });
      await docs.insertOne({ _id: 'h', _outbox: [held], _pending: true, _relay: { owner: 'live-replica', until } });
      const relay = new OutboxRelay(docs, bus, silent, { owner: 'survivor' });
      expect(relay.owner).toBe('survivor');
      expect(await relay.releaseClaimsOf([])).toBe(0);
      expect(await relay.releaseClaimsOf(['lost-replica'])).toBe(1);
      await relay.sweep();
      await allDelivered(1);
      expect(received.map((e) => e.id)).toEqual([lost.id]);
      expect((await docs.findOne({ _id: 'h' }))?._relay?.owner).toBe('live-replica');
    });

    it('takes over a claim that has run out (its holder died), never one that holds', async () => {
      const event = validEvent('content.added');
      const until = Date.now() + 60_000;
      await docs.insertOne({ _id: 'g', _outbox: [event], _pending: true, _relay: { owner: 'gone', until } });
      await new OutboxRelay(docs, bus, silent).sweep();
      await allDelivered(1);
      expect(received).toEqual([]);
      await docs.updateOne({ _id: 'g' }, { $set: { _relay: { owner: 'gone', until: Date.now() - 1 } } });
      await new OutboxRelay(docs, bus, silent).sweep();
      await allDelivered(1);
      expect(received.map((e) => e.id)).toEqual([event.id]);
    });
  });
});
