import pino from 'pino';
import { newEvent } from '../../src/events/envelope';
import type { DomainEvent, EventType } from '../../src/events/event-types';
import { createInProcessBus } from '../../src/adapters/bus/in-process-bus';
import { metricsRegistry } from '../../src/metrics/metrics';
import type { Delivery, EventEnvelope } from '../../src/ports/bus';
import { matchesTopic, type ConsumerGroup } from '../../src/events/topology';
import { forgedMessages, validEvent } from './fixtures';

interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

function captureLogger() {
  const records: LogRecord[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => records.push(JSON.parse(line) as LogRecord) });
  return { logger, records };
}

function event(type: EventType = 'content.added', requestId?: string): EventEnvelope {
  return validEvent(type, requestId);
}

/** The i-th of a sequence, told apart by its payload. */
function numbered(i: number): EventEnvelope {
  return newEvent('identity.user.removed', { user_id: String(i) });
}

function numberOf(e: DomainEvent): number {
  if (e.type !== 'identity.user.removed') throw new Error(`not numbered: ${e.type}`);
  return Number(e.payload.user_id);
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Publishes without waiting: the in-process publish resolves only once the event has been handled. */
function send(b: { publish(e: EventEnvelope): Promise<void> }, e: EventEnvelope): Promise<void> {
  const confirmed = b.publish(e);
  confirmed.catch(() => undefined);
  return confirmed;
}

/** Retries after 1 ms unless a test asks for other waits, so that tests do not wait for the default ones. */
function bus(topology: ConsumerGroup[], deliveryLimit?: number, retryDelaysMs = [1]) {
  const { logger, records } = captureLogger();
  return { bus: createInProcessBus({ topology, logger, deliveryLimit, retryDelaysMs }), records };
}

describe('matchesTopic', () => {
  it.each([
    ['content.added', 'content.added', true],
    ['content.added', 'content.removed', false],
    ['content.*', 'content.added', true],
    ['content.*', 'content', false],
    ['content.*', 'content.added.now', false],
    ['*.added', 'content.added', true],
    ['content.#', 'content', true],
    ['content.#', 'content.added', true],
    ['content.#', 'content.added.now', true],
    ['content.#', 'comment.added', false],
    ['#', 'anything.at.all', true],
    ['#', '', true],
    ['#.added', 'added', true],
    ['#.added', 'content.item.added', true],
    ['#.added', 'content.item.removed', false],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['#.#', 'a.b', true],
    ['*.#.*', 'a', false],
    ['*.#.*', 'a.b', true],
    ['*', '', false],
    ['', '', true],
  ])('%s vs %s → %s', (pattern, key, expected) => {
    expect(matchesTopic(pattern, key)).toBe(expected);
  });
});

describe('in-process event bus', () => {
  it('delivers its own decoded copy to every matching group, including events published before subscribing', async () => {
    const { bus: b } = bus([
      { group: 'search', patterns: ['content.#'] },
      { group: 'audit', patterns: ['#'] },
      { group: 'content', patterns: ['identity.#'] },
    ]);
    expect(b.kind).toBe('in-process');
    const published = validEvent('content.added', 'req-1');
    send(b, published);
    published.payload.snapshot.title = 'changed by the publisher after publishing';

    const search: Delivery[] = [];
    const audit: Delivery[] = [];
    const content: Delivery[] = [];
    const s1 = await b.subscribe({ group: 'search', patterns: ['content.#'] }, async (d) => {
      search.push(d);
      if (d.event.type === 'content.added') d.event.payload.snapshot.title = 'changed by a consumer';
    });
    const s2 = await b.subscribe({ group: 'audit', patterns: ['#'] }, async (d) => {
      audit.push(d);
    });
    await b.subscribe({ group: 'content', patterns: ['identity.#'] }, async (d) => {
      content.push(d);
    });
    expect(await s1.waitUntilDrained(1000)).toBe(true);
    expect(await s2.waitUntilDrained(1000)).toBe(true);

    expect(search).toHaveLength(1);
    expect(search[0].attempt).toBe(1);
    expect(search[0].event).toMatchObject({ id: published.id, type: 'content.added', requestId: 'req-1' });
    expect(audit[0].event.type === 'content.added' && audit[0].event.payload.snapshot.title).toBe('Doc');
    expect(content).toHaveLength(0);
    await b.close();
  });

  it('rejects a publish that no group matches', async () => {
    const { bus: b } = bus([{ group: 'search', patterns: ['content.*'] }]);
    await expect(b.publish(event('identity.user.removed'))).rejects.toThrow(/unroutable/);
    await expect(b.publishRaw('content.item.added', Buffer.from('x'))).rejects.toThrow(/unroutable/);
    await b.close();
  });

  it('refuses to publish an event it cannot encode', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    await expect(b.publish({ ...event(), type: 'content.locked' })).rejects.toThrow(/unknown type/);
    await b.close();
  });

  it("observes each applied event's lag from its write in its group's histogram; a failed one is not applied", async () => {
    const { bus: b } = bus([{ group: 'lagging', patterns: ['#'] }]);
    let failedOnce = false;
    await b.subscribe({ group: 'lagging', patterns: ['#'] }, async (d) => {
      if (numberOf(d.event) === 2 && !failedOnce) {
        failedOnce = true;
        throw new Error('not yet');
      }
    });
    // Written 3 s and 0 s ago: one lands in a bucket above 2.5 s, both in the count once each.
    const old = { ...numbered(1), occurredAt: new Date(Date.now() - 3000).toISOString() };
    await Promise.all([b.publish(old), b.publish(numbered(2))]);
    const text = await metricsRegistry.getSingleMetricAsString('cms_event_apply_lag_seconds');
    expect(text).toContain('cms_event_apply_lag_seconds_count{group="lagging"} 2');
    expect(text).toContain('cms_event_apply_lag_seconds_bucket{le="2.5",group="lagging"} 1');
    await b.close();
  });

  it('confirms a publish only after every matching group has handled the event', async () => {
    const { bus: b } = bus([
      { group: 'a', patterns: ['#'] },
      { group: 'b', patterns: ['#'] },
    ]);
    const gate = deferred();
    await b.subscribe({ group: 'a', patterns: ['#'] }, async () => undefined);
    await b.subscribe({ group: 'b', patterns: ['#'] }, () => gate.promise);
    let confirmed = false;
    const publishing = b.publish(event()).then(() => (confirmed = true));
    for (let i = 0; i < 5; i++) await tick();
    expect(confirmed).toBe(false);
    gate.resolve();
    await publishing;
    expect(confirmed).toBe(true);
    await b.close();
  });

  it('rejects publishes still waiting when the bus closes, so the outbox keeps them', async () => {
    const { bus: b } = bus([{ group: 'nobody-listens', patterns: ['#'] }]);
    const waiting = b.publish(event());
    await b.close();
    await expect(waiting).rejects.toThrow(/closed before the event was handled/);
  });

  it('does not run handlers inside publish()', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    let handled = false;
    await b.subscribe({ group: 'g', patterns: ['#'] }, async () => {
      handled = true;
    });
    const publishing = b.publish(event());
    expect(handled).toBe(false);
    await publishing;
    await b.close();
  });

  it('retries a failed event after a wait, handing out the next events meanwhile, and dead-letters it after the delivery limit', async () => {
    const { bus: b, records } = bus([{ group: 'g', patterns: ['#'] }], 3);
    const poison = event('content.added');
    const healthy = event('content.modified');
    send(b, poison);
    send(b, healthy);
    const seen: string[] = [];
    const sub = await b.subscribe({ group: 'g', patterns: ['#'], prefetch: 1 }, async ({ event: e, attempt }) => {
      seen.push(`${e.type}#${attempt}`);
      if (e.type === 'content.added') throw new Error('boom');
    });
    expect(await sub.waitUntilDrained(1000)).toBe(true);

    expect(seen).toEqual(['content.added#1', 'content.modified#1', 'content.added#2', 'content.added#3']);
    const dead = b.deadLetters('g');
    expect(dead).toEqual([
      {
        routingKey: 'content.added',
        body: expect.any(Buffer),
        reason: 'delivery limit reached',
        lastError: 'Error: boom',
        event: expect.objectContaining({ id: poison.id, type: 'content.added' }),
      },
    ]);
    expect(b.deadLetters('other')).toEqual([]);
    const errors = records.filter((r) => r.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ group: 'g', eventId: poison.id, attempt: 3 });
    expect(records.filter((r) => r.level === 40)).toHaveLength(2);
    await b.close();
  });

  it('dead-letters forged and malformed messages on their first delivery; the handler sees only the valid event between them', async () => {
    const { bus: b, records } = bus([{ group: 'search', patterns: ['content.#'] }], 3);
    const [notProto, unknownType, invalid] = forgedMessages();
    const valid = event('content.added');
    const seen: string[] = [];
    const sub = await b.subscribe({ group: 'search', patterns: ['content.#'] }, async ({ event: e }) => {
      seen.push(e.id);
    });

    // Each publish is confirmed once its message is handled or dead-lettered.
    await b.publishRaw('content.added', notProto.body);
    await b.publishRaw('content.added', unknownType.body);
    await b.publish(valid);
    await b.publishRaw('content.added', invalid.body);
    expect(await sub.waitUntilDrained(1000)).toBe(true);

    expect(seen).toEqual([valid.id]);
    const dead = b.deadLetters('search');
    expect(dead.map((d) => d.reason)).toEqual([
      expect.stringMatching(notProto.reason),
      expect.stringMatching(unknownType.reason),
      expect.stringMatching(invalid.reason),
    ]);
    expect(dead.map((d) => d.body)).toEqual([notProto.body, unknownType.body, invalid.body]);
    expect(dead.every((d) => d.event === undefined)).toBe(true);
    const refusals = records.filter((r) => r.msg === 'Event refused and dead-lettered');
    expect(refusals.map((r) => [r.level, r.attempt])).toEqual([
      [50, 1],
      [50, 1],
      [50, 1],
    ]);
    expect(records.some((r) => r.msg === 'Event handler failed; retrying later')).toBe(false);
    await b.close();
  });

  it('treats a synchronous throw like a rejection', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }], 1);
    const sub = await b.subscribe({ group: 'g', patterns: ['#'] }, () => {
      throw new Error('sync');
    });
    send(b, event());
    expect(await sub.waitUntilDrained(1000)).toBe(true);
    expect(b.deadLetters('g')).toHaveLength(1);
    await b.close();
  });

  it('runs at most `prefetch` handlers at once and hands events out in order', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    const gate = deferred();
    const started: number[] = [];
    let running = 0;
    let maxRunning = 0;
    const sub = await b.subscribe({ group: 'g', patterns: ['#'], prefetch: 3 }, async ({ event: e }) => {
      started.push(numberOf(e));
      running++;
      maxRunning = Math.max(maxRunning, running);
      await gate.promise;
      running--;
    });
    for (let i = 0; i < 10; i++) send(b, numbered(i));
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gate.resolve();
    expect(await sub.waitUntilDrained(1000)).toBe(true);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(maxRunning).toBe(3);
    await b.close();
  });

  it('defaults prefetch to 16', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    const gate = deferred();
    let running = 0;
    const sub = await b.subscribe({ group: 'g', patterns: ['#'] }, async () => {
      running++;
      await gate.promise;
    });
    for (let i = 0; i < 20; i++) send(b, numbered(i));
    await tick();
    expect(running).toBe(16);
    gate.resolve();
    expect(await sub.waitUntilDrained(1000)).toBe(true);
    await b.close();
  });

  it('waitUntilDrained is false while a handler is blocked and wakes up as soon as it finishes', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    const gate = deferred();
    const sub = await b.subscribe({ group: 'g', patterns: ['#'] }, () => gate.promise);
    expect(await sub.waitUntilDrained(10)).toBe(true);
    send(b, event());
    expect(await sub.waitUntilDrained(30)).toBe(false);

    // A wait far longer than the test's own timeout: it answers true only by waking up when the handler ends.
    const waiting = sub.waitUntilDrained(10 * 60_000);
    setTimeout(() => gate.resolve(), 20);
    expect(await waiting).toBe(true);
    await b.close();
  });

  it('stop() waits for in-flight handlers and leaves the rest queued for the next subscriber', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    const gate = deferred();
    const first: number[] = [];
    const sub = await b.subscribe({ group: 'g', patterns: ['#'], prefetch: 1 }, async ({ event: e }) => {
      first.push(numberOf(e));
      await gate.promise;
    });
    for (let i = 0; i < 3; i++) send(b, numbered(i));
    await tick();

    let stopped = false;
    const stopping = sub.stop().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(first).toEqual([0]);
    expect(await sub.waitUntilDrained(20)).toBe(false);

    const second: number[] = [];
    const next = await b.subscribe({ group: 'g', patterns: ['#'] }, async ({ event: e }) => {
      second.push(numberOf(e));
    });
    expect(await next.waitUntilDrained(1000)).toBe(true);
    expect(second).toEqual([1, 2]);
    await b.close();
  });

  it('shares a group between competing subscribers', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    const byConsumer: Record<string, number> = { a: 0, b: 0 };
    const a = await b.subscribe({ group: 'g', patterns: ['#'], prefetch: 1 }, async () => {
      byConsumer.a++;
      await tick();
    });
    await b.subscribe({ group: 'g', patterns: ['#'], prefetch: 1 }, async () => {
      byConsumer.b++;
      await tick();
    });
    for (let i = 0; i < 10; i++) send(b, numbered(i));
    expect(await a.waitUntilDrained(1000)).toBe(true);
    expect(byConsumer.a + byConsumer.b).toBe(10);
    expect(byConsumer.a).toBeGreaterThan(0);
    expect(byConsumer.b).toBeGreaterThan(0);
    await b.close();
  });

  it('adds a group that is missing from the topology on subscribe, with a warning', async () => {
    const { bus: b, records } = bus([{ group: 'g', patterns: ['content.#'] }]);
    const seen: string[] = [];
    const sub = await b.subscribe({ group: 'late', patterns: ['identity.user.*'] }, async ({ event: e }) => {
      seen.push(e.type);
    });
    expect(records.some((r) => r.level === 40 && r.group === 'late')).toBe(true);
    send(b, event('identity.user.removed'));
    expect(await sub.waitUntilDrained(1000)).toBe(true);
    expect(seen).toEqual(['identity.user.removed']);
    await b.close();
  });

  it('close() stops subscriptions and refuses further use', async () => {
    const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
    const gate = deferred();
    let finished = false;
    await b.subscribe({ group: 'g', patterns: ['#'] }, async () => {
      await gate.promise;
      finished = true;
    });
    send(b, event());
    await tick();
    await b.ping();
    const closing = b.close();
    gate.resolve();
    await closing;
    expect(finished).toBe(true);
    await expect(b.ping()).rejects.toThrow(/closed/);
    await expect(b.publish(event())).rejects.toThrow(/closed/);
    await expect(b.publishRaw('content.added', Buffer.from('x'))).rejects.toThrow(/closed/);
    await expect(b.subscribe({ group: 'g', patterns: ['#'] }, async () => {})).rejects.toThrow(/closed/);
  });

  describe('retries with backoff (issue 9, finding 13)', () => {
    const fakeClock = () =>
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'] });
    afterEach(() => jest.useRealTimers());

    it('waits the given delay before each retry, the last one repeating', async () => {
      fakeClock();
      const { bus: b, records } = bus([{ group: 'g', patterns: ['#'] }], 4, [100, 1000]);
      const attempts: number[] = [];
      await b.subscribe({ group: 'g', patterns: ['#'] }, async ({ attempt }) => {
        attempts.push(attempt);
        throw new Error('store down');
      });
      send(b, event());
      await jest.advanceTimersByTimeAsync(0);
      expect(attempts).toEqual([1]);
      await jest.advanceTimersByTimeAsync(99);
      expect(attempts).toEqual([1]);
      await jest.advanceTimersByTimeAsync(1);
      expect(attempts).toEqual([1, 2]);
      await jest.advanceTimersByTimeAsync(999);
      expect(attempts).toEqual([1, 2]);
      await jest.advanceTimersByTimeAsync(1);
      expect(attempts).toEqual([1, 2, 3]);
      await jest.advanceTimersByTimeAsync(1000);
      expect(attempts).toEqual([1, 2, 3, 4]);
      expect(b.deadLetters('g')).toHaveLength(1);
      expect(records.filter((r) => r.msg === 'Event handler failed; retrying later').map((r) => r.retryInMs)).toEqual([
        100, 1000, 1000,
      ]);
      await b.close();
    });

    it('a store hiccup shorter than the retry schedule costs no event', async () => {
      fakeClock();
      const { bus: b } = bus([{ group: 'g', patterns: ['#'] }], 5, [100, 400, 1600]);
      // The store answers again 1 s after the first attempt; without waits, all five attempts fail at once.
      const storeBackAt = Date.now() + 1000;
      const applied: number[] = [];
      const sub = await b.subscribe({ group: 'g', patterns: ['#'] }, async ({ attempt }) => {
        if (Date.now() < storeBackAt) throw new Error('store down');
        applied.push(attempt);
      });
      send(b, event());
      await jest.advanceTimersByTimeAsync(5000);
      expect(applied).toEqual([4]);
      expect(b.deadLetters('g')).toEqual([]);
      expect(await sub.waitUntilDrained(0)).toBe(true);
      await b.close();
    });

    it('an event waiting for its retry is not drained yet, and close() hands it back to its publisher', async () => {
      fakeClock();
      const { bus: b } = bus([{ group: 'g', patterns: ['#'] }], 3, [1000]);
      const sub = await b.subscribe({ group: 'g', patterns: ['#'] }, async () => {
        throw new Error('store down');
      });
      const confirmed = send(b, event());
      await jest.advanceTimersByTimeAsync(10);
      const drained = sub.waitUntilDrained(500);
      await jest.advanceTimersByTimeAsync(500);
      expect(await drained).toBe(false);
      await b.close();
      await expect(confirmed).rejects.toThrow(/closed before the event was handled/);
    });
  });

  describe('dead letters (issue 9, finding 13)', () => {
    it('replays what a group dead-lettered with its failure count reset, at most what was there when it began', async () => {
      const { bus: b, records } = bus([{ group: 'g', patterns: ['#'] }], 2);
      let failing = true;
      const attempts: string[] = [];
      const sub = await b.subscribe({ group: 'g', patterns: ['#'] }, async ({ event: e, attempt }) => {
        attempts.push(`${e.id}#${attempt}`);
        if (failing || e.type === 'content.removed') throw new Error('still broken');
      });
      const fixed = event('content.added');
      const poison = event('content.removed');
      await b.publish(fixed);
      await b.publish(poison);
      expect(await b.deadLetterCounts()).toEqual({ g: 2 });
      expect(records.filter((r) => r.level === 50)).toEqual([
        expect.objectContaining({ group: 'g', eventId: fixed.id, failures: 2, deadLetters: 1 }),
        expect.objectContaining({ group: 'g', eventId: poison.id, failures: 2, deadLetters: 2 }),
      ]);

      failing = false;
      attempts.length = 0;
      expect(b.replayDeadLetters('g')).toBe(2);
      expect(await sub.waitUntilDrained(1000)).toBe(true);
      // Each from attempt 1 again; the poison event failed twice more and is back, once: no loop.
      expect(attempts.filter((a) => a.startsWith(fixed.id))).toEqual([`${fixed.id}#1`]);
      expect(attempts.filter((a) => a.startsWith(poison.id))).toEqual([`${poison.id}#1`, `${poison.id}#2`]);
      expect(b.deadLetters('g').map((d) => d.event?.id)).toEqual([poison.id]);
      expect(await b.deadLetterCounts()).toEqual({ g: 1 });
      await b.close();
    });

    it('is always connected and ready until closed', async () => {
      const { bus: b } = bus([{ group: 'g', patterns: ['#'] }]);
      expect(b.connected).toBe(true);
      await b.ready();
      await b.close();
      expect(b.connected).toBe(false);
      await expect(b.ready()).rejects.toThrow(/closed/);
    });
  });

  it('rejects an invalid delivery limit, retry delays or prefetch', async () => {
    const { logger } = captureLogger();
    expect(() => createInProcessBus({ topology: [], logger, deliveryLimit: 0 })).toThrow(RangeError);
    expect(() => createInProcessBus({ topology: [], logger, retryDelaysMs: [] })).toThrow(RangeError);
    expect(() => createInProcessBus({ topology: [], logger, retryDelaysMs: [10, 0] })).toThrow(RangeError);
    const b = createInProcessBus({ topology: [], logger });
    await expect(b.subscribe({ group: 'g', patterns: ['#'], prefetch: 0 }, async () => {})).rejects.toThrow(RangeError);
  });
});
