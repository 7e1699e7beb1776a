/**
 * At-least-once delivery taken at its word: content's own events published again, many times over and out of
 * order, alone and while writes go on. The index never moves off the store (it is idempotent by UID and version),
 * every acknowledged write is in the store, and the index converges on the store without a manual step.
 */
import type { DomainEvent } from '@cms/shared';
import { BrokerClient, type TappedMessage } from '../support/broker-client';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { seededRandom, summaryDiff, writeHistory, WriteLedger, WriteStream } from '../support/write-ledger';

let suite: DistributedSuite;
let broker: BrokerClient;
/** Every content event published since the suite started. */
let tapped: TappedMessage[];

/** The paths an event is about. */
function pathsOf(event: DomainEvent): string[] {
  const payload = event.payload as unknown as Record<string, any>;
  return [payload.snapshot?.path, payload.path, payload.old_path, payload.new_path].filter(
    (path): path is string => typeof path === 'string',
  );
}

/** The tapped events about anything below `folderPath` (itself included). */
function eventsBelow(folderPath: string): TappedMessage[] {
  return tapped.filter(
    (message) =>
      message.event && pathsOf(message.event).some((path) => path === folderPath || path.startsWith(`${folderPath}/`)),
  );
}

/** Waits until the tap has content's event of every object's current state (and of every acknowledged deletion). */
async function untilTapped(ledger: WriteLedger): Promise<TappedMessage[]> {
  await pollUntil(
    () => {
      const events = eventsBelow(ledger.folderPath).map((message) => message.event!);
      const missing = [...ledger.objects.values()].filter((object) => {
        const path = new URL(object.url).pathname;
        if (object.deleted === 'yes')
          return !events.some((event) => event.type === 'content.removed' && event.payload.path === path);
        return !events.some((event) => {
          const snapshot = (event.payload as { snapshot?: { path: string; title: string } }).snapshot;
          return snapshot?.path === path && snapshot.title === object.title;
        });
      });
      if (missing.length > 0) throw new Error(`no event yet for ${missing.map((object) => object.url).join(', ')}`);
      return true;
    },
    10_000,
    { description: 'the tap to hold the event of every write' },
  );
  return eventsBelow(ledger.folderPath);
}

/** The index below the folder is the store's, now (no waiting: a replay must never move it off). */
async function expectIndexIsStore(ledger: WriteLedger): Promise<void> {
  const [store, index] = await Promise.all([ledger.storeView(), ledger.indexView()]);
  expect(summaryDiff(store, index)).toBe('');
}

function shuffled<T>(items: T[], seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

describeWithBroker('faults: duplicated and reordered events', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-replays', logTailChars: 6000 });
    await suite.startAll();
    broker = await BrokerClient.connect(suite.amqpUrl);
    tapped = await broker.tap(['content.#']);
  }, 60_000);

  afterAll(async () => {
    await broker?.close();
    await suite?.dispose();
  }, 30_000);

  beforeEach(() => suite.reviveAll(), 60_000);

  test('every event of a history published again, newest first and shuffled, several times: the index holds', () =>
    suite.withLogs(async () => {
      const ledger = await writeHistory(suite, 'Replays');
      const events = await untilTapped(ledger);

      for (const message of [...events].reverse()) {
        await broker.republish(message);
        await broker.republish(message);
      }
      await expectIndexIsStore(ledger);

      for (const message of shuffled([...events, ...events, ...events], 41)) await broker.republish(message);
      await expectIndexIsStore(ledger);

      // Later real changes are still applied: no replay pushed a version ahead.
      for (const object of ledger.live())
        expect(await ledger.patchTitle(object, ledger.nextTitle('after'))).toBe('acked');
      await ledger.verify();
    }));

  test('old events replayed while a write stream goes on', () =>
    suite.withLogs(async () => {
      const ledger = await writeHistory(suite, 'Replays during writes');
      const events = await untilTapped(ledger);
      const stream = new WriteStream(ledger, { seed: 42, label: 'live' });

      await Promise.all([
        stream.run(40),
        (async () => {
          for (const message of shuffled([...events, ...events], 43)) await broker.republish(message);
        })(),
      ]);

      await ledger.verify();
    }));
});
