/** The catalog fed by content events through the in-process bus, which decodes and validates like RabbitMQ. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogger,
  encodeEvent,
  newEvent,
  type ContentSnapshot,
  type DocumentStore,
  type Subscription,
} from '@cms/shared';
import { createInProcessBus, openEmbeddedStore, type InProcessBus } from '@cms/shared/adapters';
import { SEARCH_CONSUMER_GROUPS, subscribeToContent } from '../src/events/consumer';
import { Catalog } from '../src/store/catalog';

const silent = createLogger('search', 'silent');
const uid = () => randomUUID().replace(/-/g, '');

function snapshotOf(objectUid: string, version: number, title: string): ContentSnapshot {
  return {
    uid: objectUid,
    path: '/doc',
    id: 'doc',
    portal_type: 'Document',
    type_title: 'Page',
    title,
    description: '',
    version,
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-01T00:00:00.000Z',
    creators: ['admin'],
    parent_uid: 'f'.repeat(32),
    is_folderish: false,
    position: 0,
    searchable_text: `doc ${title}`,
    allowed_roles_and_users: ['Anonymous'],
    subjects: [],
    exclude_from_nav: false,
    language: '',
  };
}

describe('search consumer', () => {
  let dir: string;
  let store: DocumentStore;
  let bus: InProcessBus;
  let catalog: Catalog;
  let subscription: Subscription;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'search-consumer-'));
    store = await openEmbeddedStore(dir);
    bus = createInProcessBus({ topology: SEARCH_CONSUMER_GROUPS, logger: silent });
    catalog = new Catalog(store);
    subscription = await subscribeToContent(bus, catalog, silent);
  });

  afterEach(async () => {
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes an added object, keeps the newest version, and marks removals', async () => {
    const id = uid();
    await bus.publish(newEvent('content.added', { uid: id, version: 1, snapshot: snapshotOf(id, 1, 'First') }));
    await bus.publish(
      newEvent('content.modified', { uid: id, version: 3, changed: ['title'], snapshot: snapshotOf(id, 3, 'Third') }),
    );
    // Late and older: skipped.
    await bus.publish(
      newEvent('content.modified', { uid: id, version: 2, changed: ['title'], snapshot: snapshotOf(id, 2, 'Second') }),
    );
    expect(await catalog.entries.findOne({ _id: id })).toMatchObject({
      version: 3,
      title: 'Third',
      review_state: null,
    });

    await bus.publish(newEvent('content.removed', { uid: id, version: 4, path: '/doc', removed_uids: [id] }));
    expect(await catalog.entries.findOne({ _id: id })).toMatchObject({ deleted: true });
  });

  it('never sees an event that fails validation: it is dead-lettered and the catalog is untouched', async () => {
    const id = uid();
    const forged = newEvent('content.added', { uid: id, version: 1, snapshot: snapshotOf(uid(), 1, 'Forged') });
    await bus.publishRaw('content.added', encodeEvent(forged));
    expect(await subscription.waitUntilDrained(1000)).toBe(true);
    expect(bus.deadLetters('search').map((d) => d.reason)).toEqual([
      'invalid content.added: snapshot.uid differs from uid',
    ]);
    expect(await catalog.entries.countDocuments({})).toBe(0);
  });
});
