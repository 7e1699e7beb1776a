/**
 * The catalog fed by content events through the in-process bus, which decodes and validates like RabbitMQ. Each
 * event is confirmed with the content service (here a stand-in holding the objects as the content store would):
 * the catalog indexes what content holds, never what an event says.
 */
import { randomUUID } from 'node:crypto';
import {
  AppError,
  callerTokens,
  createLogger,
  encodeEvent,
  newEvent,
  QueryParams,
  type ContentSnapshot,
  type DocumentStore,
  type Subscription,
} from '@cms/shared';
import { createInProcessBus, type InProcessBus } from '@cms/shared/adapters';
import { pollUntil } from '../../../test/support/poll';
import type { ContentSource } from '../src/clients/content-source';
import { buildCatalogQuery } from '../src/domain/search-query';
import { SEARCH_CONSUMER_GROUPS, subscribeToContent } from '../src/events/consumer';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';

const uid = () => randomUUID().replace(/-/g, '');

function snapshotOf(objectUid: string, version: number, title: string, allowed = ['Anonymous']): ContentSnapshot {
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
    allowed_roles_and_users: allowed,
    subjects: [],
    exclude_from_nav: false,
    language: '',
  };
}

/** The content service as search sees it: what the store holds, and whether it answers. */
class FakeContent implements ContentSource {
  readonly objects = new Map<string, ContentSnapshot>();
  readonly asked: string[] = [];
  /** How many more calls fail as an unreachable service's do. */
  unreachableFor = 0;

  async current(objectUid: string): Promise<ContentSnapshot | null> {
    this.asked.push(objectUid);
    if (this.unreachableFor > 0) {
      this.unreachableFor -= 1;
      throw new AppError('ServiceUnavailable', 'A backing service is unavailable; try again');
    }
    return this.objects.get(objectUid) ?? null;
  }

  hold(snapshot: ContentSnapshot): ContentSnapshot {
    this.objects.set(snapshot.uid, snapshot);
    return snapshot;
  }
}

describe.each(STORE_ENGINES)('search consumer on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let bus: InProcessBus;
  let catalog: Catalog;
  let content: FakeContent;
  let subscription: Subscription;
  const log = createLogger('search', 'silent');
  let warn: jest.SpyInstance;

  beforeEach(async () => {
    opened = await engine.open();
    store = opened.store;
    // A failed event is tried again at once, not after the default backoff.
    bus = createInProcessBus({ topology: SEARCH_CONSUMER_GROUPS, logger: log, retryDelaysMs: [1] });
    catalog = new Catalog(store);
    content = new FakeContent();
    warn = jest.spyOn(log, 'warn');
    subscription = await subscribeToContent(bus, catalog, content, log);
  });

  afterEach(async () => {
    warn.mockRestore();
    await bus.close();
    await opened.dispose();
  });

  /** What an anonymous `@search?SearchableText=<text>` at the site root finds. */
  const anonymousFinds = async (text: string) =>
    (
      await catalog.search(
        buildCatalogQuery(new QueryParams([{ key: 'SearchableText', value: text }]), '/', callerTokens(null)),
      )
    ).total;

  it('indexes an added object, keeps the newest version, and marks removals', async () => {
    const id = uid();
    await bus.publish(
      newEvent('content.added', { uid: id, version: 1, snapshot: content.hold(snapshotOf(id, 1, 'First')) }),
    );
    const third = content.hold(snapshotOf(id, 3, 'Third'));
    await bus.publish(newEvent('content.modified', { uid: id, version: 3, changed: ['title'], snapshot: third }));
    // Late and older: skipped, without asking content.
    const asked = content.asked.length;
    await bus.publish(
      newEvent('content.modified', { uid: id, version: 2, changed: ['title'], snapshot: snapshotOf(id, 2, 'Second') }),
    );
    expect(content.asked).toHaveLength(asked);
    expect(await catalog.entries.findOne({ _id: id })).toMatchObject({
      version: 3,
      title: 'Third',
      review_state: null,
    });

    content.objects.delete(id);
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

  it('drops, with a warning, a forged well-formed content.added for a UID content does not have', async () => {
    const id = uid();
    const forged = newEvent('content.added', { uid: id, version: 1, snapshot: snapshotOf(id, 1, 'Phishing page') });
    await bus.publishRaw('content.added', encodeEvent(forged));
    expect(await subscription.waitUntilDrained(1000)).toBe(true);

    expect(content.asked).toEqual([id]);
    expect(await catalog.entries.countDocuments({})).toBe(0);
    expect(await anonymousFinds('phishing')).toBe(0);
    expect(bus.deadLetters('search')).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ eventId: forged.id, uid: id, contentVersion: null }),
      'event names no content object; dropped',
    );
  });

  it('drops an event for a version content does not have, and indexes what content holds, not what events say', async () => {
    const id = uid();
    // Content holds version 2, private; events claim a later version, or other text and view rights.
    content.hold(snapshotOf(id, 2, 'Quarterly figures', ['Manager']));
    await bus.publish(
      newEvent('content.modified', {
        uid: id,
        version: 7,
        changed: ['title'],
        snapshot: snapshotOf(id, 7, 'Phishing'),
      }),
    );
    expect(await catalog.entries.countDocuments({})).toBe(0);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ uid: id, version: 7, contentVersion: 2 }),
      'event names a version content does not have; dropped',
    );

    await bus.publish(newEvent('content.added', { uid: id, version: 1, snapshot: snapshotOf(id, 1, 'Phishing') }));
    expect(await catalog.entries.findOne({ _id: id })).toMatchObject({ version: 2, title: 'Quarterly figures' });
    expect(await anonymousFinds('phishing')).toBe(0);
    expect(await anonymousFinds('quarterly')).toBe(0);
  });

  it('fails while content does not answer, so the bus delivers the event again, and indexes it once content answers', async () => {
    const id = uid();
    content.hold(snapshotOf(id, 1, 'Patience'));
    content.unreachableFor = 2;
    await bus.publish(newEvent('content.added', { uid: id, version: 1, snapshot: snapshotOf(id, 1, 'Patience') }));
    await pollUntil(async () => (await catalog.versionOf(id)) === 1, 10_000, { description: 'the event redelivered' });
    expect(content.asked).toEqual([id, id, id]);
    expect(bus.deadLetters('search')).toEqual([]);
  });

  it('marks removed only what content confirms gone, or still has inside the removed folder', async () => {
    const live = content.hold({ ...snapshotOf(uid(), 1, 'Still here'), path: '/elsewhere/page' });
    const inside = content.hold({ ...snapshotOf(uid(), 1, 'Inside'), path: '/folder/inside' });
    const gone = snapshotOf(uid(), 1, 'Gone');
    for (const snapshot of [live, inside, gone]) {
      content.hold(snapshot);
      await bus.publish(newEvent('content.added', { uid: snapshot.uid, version: 1, snapshot }));
    }
    content.objects.delete(gone.uid);
    const folder = uid();
    // A removal of /folder: what was inside is deleted after the event may have gone out (after a crash).
    const removal = newEvent('content.removed', {
      uid: folder,
      version: 3,
      path: '/folder',
      removed_uids: [folder, inside.uid, gone.uid, live.uid],
    });
    await bus.publishRaw('content.removed', encodeEvent(removal));
    expect(await subscription.waitUntilDrained(1000)).toBe(true);

    expect(await catalog.entries.findOne({ _id: inside.uid })).toMatchObject({ deleted: true });
    expect(await catalog.entries.findOne({ _id: gone.uid })).toMatchObject({ deleted: true });
    expect(await catalog.entries.findOne({ _id: live.uid })).toMatchObject({ title: 'Still here' });
    expect(await catalog.entries.findOne({ _id: live.uid })).not.toMatchObject({ deleted: true });
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ eventId: removal.id, kept: 1, example: live.uid }),
      'removal names objects content still has; they stay indexed',
    );

    // A forged removal of an object content still has, by its own UID: nothing is removed.
    const forged = newEvent('content.removed', {
      uid: live.uid,
      version: 9,
      path: '/elsewhere/page',
      removed_uids: [live.uid],
    });
    await bus.publishRaw('content.removed', encodeEvent(forged));
    expect(await subscription.waitUntilDrained(1000)).toBe(true);
    expect(await anonymousFinds('still')).toBe(1);
  });
});
