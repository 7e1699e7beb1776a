/** Identity events leave through the outbox; a missing consumer delays nothing beyond the flush bound. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { newEvent, type DocumentStore, type EventBus, type EventEnvelope } from '@cms/shared';
import { createInProcessBus, openEmbeddedStore } from '@cms/shared/adapters';
import { IdentityEventRelay } from '../src/events/relay';
import { GroupsRepository } from '../src/store/groups';
import { UsersRepository } from '../src/store/users';

const silent = pino({ level: 'silent' });
/** Content's queue for identity removals (declared by content: CONTENT_CONSUMER_GROUPS, tested there). */
const TOPOLOGY = [{ group: 'content', patterns: ['identity.user.removed', 'identity.group.removed'] }];

describe('IdentityEventRelay', () => {
  let dataDir: string;
  let store: DocumentStore;
  let bus: EventBus;
  let users: UsersRepository;
  let relay: IdentityEventRelay;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-relay-'));
    store = await openEmbeddedStore(dataDir);
    bus = createInProcessBus({ topology: TOPOLOGY, logger: silent });
    users = new UsersRepository(store);
    relay = new IdentityEventRelay(users.users, new GroupsRepository(store).groups, bus, silent, 100);
    await relay.ensureIndexes();
    await users.insert({ _id: 'ann', login: 'ann', fullname: '', email: '', roles: ['Member'], password_hash: 'x' });
    await users.tombstone('ann', newEvent('identity.user.removed', { user_id: 'ann' }));
  });

  afterEach(async () => {
    await relay.stop();
    await bus.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers after its bound while no consumer takes the event, which stays in the outbox', async () => {
    // The bound (100 ms) on a fake clock; the store and the bus keep running on real I/O.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'] });
    try {
      let answered = false;
      const flushing = relay.flushUser('ann').then(() => (answered = true));
      await jest.advanceTimersByTimeAsync(99);
      expect(answered).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await flushing;
      expect(await users.users.findOne({ _id: 'ann' })).toMatchObject({ _deleted: true, _pending: true });
      // Stopping is bounded the same way: it resolves once the bound has passed, at the latest.
      const stopping = relay.stop();
      await jest.advanceTimersByTimeAsync(100);
      await stopping;
    } finally {
      jest.useRealTimers();
    }
  });

  it('publishes the event to content and then drops the tombstone', async () => {
    const received: EventEnvelope[] = [];
    await bus.subscribe({ group: 'content', patterns: ['identity.user.removed'] }, async ({ event }) => {
      received.push(event);
    });
    // A bound far beyond the consumer's time, so that only the consumer's confirm ends the flush on a busy machine.
    const patient = new IdentityEventRelay(users.users, new GroupsRepository(store).groups, bus, silent, 60_000);
    try {
      await patient.flushUser('ann');
    } finally {
      await patient.stop();
    }
    expect(received.map((e) => [e.type, e.payload])).toEqual([['identity.user.removed', { user_id: 'ann' }]]);
    expect(await users.users.findOne({ _id: 'ann' })).toBeNull();
  });
});
