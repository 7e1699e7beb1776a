/**
 * Messages on `cms.events` that no producer of the suite sent: poison (undecodable, inconsistent, invalid) is
 * dead-lettered at once and the consumers carry on; forged but well-formed content events do not make the index
 * differ from the store for good. Every acknowledged write is in the store, and the index converges on the store
 * without a manual step.
 */
import { encodeEvent, type ContentSnapshot, type DomainEvent, type EventEnvelope } from '@cms/shared';
import { randomBytes, randomUUID } from 'node:crypto';
import { BrokerClient, type TappedMessage } from '../support/broker-client';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { WriteLedger, WriteStream, type LedgerObject } from '../support/write-ledger';

/** How long a scenario waits for the index to converge (it takes well under a second when it does). */
const CONVERGE_MS = 20_000;

let suite: DistributedSuite;
let broker: BrokerClient;
/** Every content event published since the suite started. */
let tapped: TappedMessage[];

/** The newest event content published for an object (by its path), once the tap has it. */
function latestSnapshotOf(object: LedgerObject): Promise<ContentSnapshot> {
  const path = new URL(object.url).pathname;
  return pollUntil(
    () => {
      const events = tapped
        .map((message) => message.event)
        .filter((event): event is Extract<DomainEvent, { payload: { snapshot: ContentSnapshot } }> =>
          Boolean(event && 'snapshot' in event.payload && event.payload.snapshot.path === path),
        );
      const newest = events.sort((a, b) => b.payload.version - a.payload.version)[0];
      return newest?.payload.snapshot.title === object.title ? newest.payload.snapshot : undefined;
    },
    10_000,
    { description: `content's event for ${path} at "${object.title}"` },
  );
}

function forged<T extends DomainEvent['type']>(type: T, payload: unknown): EventEnvelope {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), payload };
}

const randomUid = () => randomBytes(16).toString('hex');

describeWithBroker('faults: poison and forged messages', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-forged', logTailChars: 6000 });
    await suite.startAll();
    broker = await BrokerClient.connect(suite.amqpUrl);
    tapped = await broker.tap(['content.#']);
  }, 60_000);

  afterAll(async () => {
    await broker?.close();
    await suite?.dispose();
  }, 30_000);

  beforeEach(() => suite.reviveAll(), 60_000);

  test('poison messages are dead-lettered on their first delivery and the consumers carry on', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Poison');
      const stream = new WriteStream(ledger, { seed: 31, label: 'poison' });
      await stream.run(10);
      const sample = await latestSnapshotOf(ledger.live()[0]);
      const added = encodeEvent(
        forged('content.added', { uid: sample.uid, version: sample.version, snapshot: sample }),
      );
      const deadBefore = {
        search: await broker.queueDepth('cms.search.dead'),
        content: await broker.queueDepth('cms.content.dead'),
      };

      const toSearch: [string, Buffer][] = [
        ['not an envelope', Buffer.from('this is not a protobuf envelope \u0000\u00ff')],
        ['an empty body', Buffer.alloc(0)],
        // A well-formed content.added routed as another type: a forged routing key must not smuggle it in.
        ['a type routed under another key', added],
        // An unknown type (same length as content.added, so the envelope stays well-formed).
        ['an unknown type', Buffer.from(added.toString('latin1').replace('content.added', 'content.adder'), 'latin1')],
        [
          'an invalid payload',
          encodeEvent(
            forged('content.added', { uid: 'not-a-uid', version: 0, snapshot: { ...sample, uid: 'not-a-uid' } }),
          ),
        ],
      ];
      const routingKeys = ['content.added', 'content.modified', 'content.modified', 'content.adder', 'content.added'];
      for (const [i, [, body]] of toSearch.entries()) await broker.publishRaw(routingKeys[i], body);
      const toContent: Buffer[] = [
        Buffer.from('garbage for content'),
        encodeEvent(forged('identity.group.removed', { group_id: '' })),
      ];
      await broker.publishRaw('identity.user.removed', toContent[0]);
      await broker.publishRaw('identity.group.removed', toContent[1]);

      const dead = await pollUntil(
        async () => {
          const now = {
            search: (await broker.queueDepth('cms.search.dead')) - deadBefore.search,
            content: (await broker.queueDepth('cms.content.dead')) - deadBefore.content,
          };
          return now.search >= toSearch.length && now.content >= toContent.length ? now : undefined;
        },
        20_000,
        { description: 'every poison message in its group’s dead-letter queue' },
      );
      expect(dead).toEqual({ search: toSearch.length, content: toContent.length });
      expect(suite.process('search').running && suite.process('content').running).toBe(true);

      await stream.run(10);
      await ledger.verify(CONVERGE_MS);
      // Dead-lettered once each: none came back to be refused again.
      expect(await broker.queueDepth('cms.search.dead')).toBe(deadBefore.search + toSearch.length);
    }));

  test('a forged content.added for a UID content does not have is not kept in the index', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Forged added');
      await new WriteStream(ledger, { seed: 32, label: 'real' }).run(6);
      const sample = await latestSnapshotOf(ledger.live()[0]);
      const uid = randomUid();
      const title = `Forged ${ledger.word}`;
      const snapshot: ContentSnapshot = {
        ...sample,
        uid,
        version: 1,
        id: `forged-${ledger.word}`,
        path: `${ledger.folderPath}/forged-${ledger.word}`,
        title,
        searchable_text: `forged ${title}`,
      };
      await broker.publishEvent(forged('content.added', { uid, version: 1, snapshot }));

      await ledger.verify(CONVERGE_MS);
      const found = await suite.http('GET', `/@search?SearchableText=forged&UID=${uid}`);
      expect(found.body.items_total).toBe(0);
    }));

  test('a forged content.modified far ahead of an object’s version does not stick in the index', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Forged modified');
      await new WriteStream(ledger, { seed: 33, label: 'real' }).run(6);
      const victim = ledger.live()[0];
      const snapshot = await latestSnapshotOf(victim);
      const version = snapshot.version + 1000;
      const title = `Forged ${ledger.word}`;
      await broker.publishEvent(
        forged('content.modified', {
          uid: snapshot.uid,
          version,
          changed: ['title'],
          snapshot: { ...snapshot, version, title, searchable_text: title },
        }),
      );

      await ledger.verify(CONVERGE_MS);
      // And the object's next real change is indexed.
      expect(await ledger.patchTitle(victim, ledger.nextTitle('after forgery'))).toBe('acked');
      await ledger.verify(CONVERGE_MS);
    }));

  test('a forged content.removed for an object content still has does not take it out of the index', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Forged removed');
      await new WriteStream(ledger, { seed: 34, label: 'real' }).run(6);
      const victim = ledger.live()[0];
      const snapshot = await latestSnapshotOf(victim);
      await broker.publishEvent(
        forged('content.removed', {
          uid: snapshot.uid,
          version: snapshot.version + 1,
          path: snapshot.path,
          removed_uids: [snapshot.uid],
        }),
      );

      await ledger.verify(CONVERGE_MS);
      expect(await ledger.patchTitle(victim, ledger.nextTitle('after forgery'))).toBe('acked');
      await ledger.verify(CONVERGE_MS);
    }));
});
