/** Identity events leave through the outbox; a missing consumer delays nothing beyond the flush bound. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import {
  CONSUMER_GROUPS,
  createInProcessBus,
  newEvent,
  openEmbeddedStore,
  type DocumentStore,
  type EventBus,
  type EventEnvelope,
} from '@cms/shared';
import { IdentityEventRelay } from '../src/events/relay';
import { GroupsRepository } from '../src/store/groups';
import { UsersRepository } from '../src/store/users';

const silent = pino({ level: 'silent' });

describe('IdentityEventRelay', () => {
  let dataDir: string;
  let store: DocumentStore;
  let bus: EventBus;
  let users: UsersRepository;
  let relay: IdentityEventRelay;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-relay-'));
    store = await openEmbeddedStore(dataDir);
    bus = createInProcessBus({ topology: CONSUMER_GROUPS, logger: silent });
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

  it('routes identity removals to the content group', () => {
    expect(CONSUMER_GROUPS).toContainEqual({
      group: 'content',
      patterns: ['identity.user.removed', 'identity.group.removed'],
    });
  });

  it('answers after its bound while no consumer takes the event, which stays in the outbox', async () => {
    const started = Date.now();
    await relay.flushUser('ann');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await users.users.findOne({ _id: 'ann' })).toMatchObject({ _deleted: true, _pending: true });
    const stopping = Date.now();
    await relay.stop();
    expect(Date.now() - stopping).toBeLessThan(1000);
  });

  it('publishes the event to content and then drops the tombstone', async () => {
    const received: EventEnvelope[] = [];
    await bus.subscribe({ group: 'content', patterns: ['identity.user.removed'] }, async ({ event }) => {
      received.push(event);
    });
    await relay.flushUser('ann');
    expect(received.map((e) => [e.type, e.payload])).toEqual([['identity.user.removed', { user_id: 'ann' }]]);
    expect(await users.users.findOne({ _id: 'ann' })).toBeNull();
  });
});
