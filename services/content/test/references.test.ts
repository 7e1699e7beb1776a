import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type DocumentStore, type Subscription } from '@cms/shared';
import { createInProcessBus, openEmbeddedStore, type InProcessBus } from '@cms/shared/adapters';
import { addedEvent, modifiedEvent, removedEvent } from '../src/domain/content';
import type { ContentDoc } from '../src/domain/content';
import { References } from '../src/domain/relations';
import { bindSnapshotTypes } from '../src/domain/content';
import { builtinTypeRegistry } from '../src/domain/types';
import { REFERENCES_GROUP } from '@cms/shared';
import { subscribeReferences } from '../src/events/references-consumer';
import { StoreContentRepository } from '../src/store/content-repository';
import { ReferenceIndex } from '../src/store/reference-index';

/**
 * The reference index: fed by content events (each applied from the object as the store has it, idempotently,
 * whatever order they come in), and rebuilt from the content store to exactly what the events made of it.
 */
/** The site root's UID (events name parents by UID). */
const ROOT = '0'.repeat(32);
/** UIDs of the objects the bus test publishes events about (events carry real UIDs). */
const E = 'e'.repeat(32);
const F = 'f'.repeat(32);

describe('reference index', () => {
  const types = builtinTypeRegistry();
  const log = createLogger('references-test', 'silent');
  let dir: string;
  let store: DocumentStore;
  let repo: StoreContentRepository;
  let index: ReferenceIndex;
  let references: References;

  function doc(uid: string, path: string, fields: Record<string, unknown> = {}): ContentDoc {
    const root = path === '/';
    return {
      _id: uid,
      path,
      id: root ? 'site' : path.split('/').pop()!,
      portal_type: root ? 'Site Root' : 'Document',
      parent_uid: root ? null : ROOT,
      ancestors: root ? [] : [ROOT],
      position: 0,
      next_position: 0,
      title: uid,
      description: '',
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
      creators: ['admin'],
      review_state: root ? null : 'private',
      version: 1,
      fields,
      local_roles: [],
      effective_local_roles: [],
      allowed: ['Manager'],
    };
  }

  /** Writes a new version of an object, as the write path would (without its events). */
  async function change(uid: string, fields: Record<string, unknown>): Promise<ContentDoc> {
    const current = (await repo.byUid(uid))!;
    await repo.applyChange(uid, current.version, { set: { fields, version: current.version + 1 } }, []);
    return (await repo.byUid(uid))!;
  }

  async function snapshotOfIndex() {
    return (await index.all())
      .map(({ _id, version, refs }) => ({ _id, version, refs }))
      .sort((a, b) => a._id.localeCompare(b._id));
  }

  beforeAll(() => bindSnapshotTypes(types));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-references-'));
    store = await openEmbeddedStore(dir);
    repo = new StoreContentRepository(store);
    await repo.ensureIndexes();
    index = new ReferenceIndex(store);
    await index.ensureIndexes();
    references = new References(repo, index, types);
    await repo.insertNew(doc(ROOT, '/'), []);
    await repo.insertNew(doc('a', '/a', { text: { data: '<a href="resolveuid/b">b</a> <a href="/c">c</a>' } }), []);
    await repo.insertNew(doc('b', '/b', { relatedItems: ['c', 'd'] }), []);
    await repo.insertNew(
      doc('c', '/c', {
        blocks: JSON.stringify({ x: { '@type': 'teaser', href: [{ '@id': 'resolveuid/a' }] } }),
        remoteUrl: '${portal_url}/resolveuid/b',
      }),
      [],
    );
    await repo.insertNew(doc('d', '/d', { text: { data: '<a href="resolveuid/d">myself</a>' } }), []);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('extracts every kind of reference, leaving out links of an object to itself', async () => {
    for (const uid of [ROOT, 'a', 'b', 'c', 'd']) await references.refresh(uid);
    expect(await snapshotOfIndex()).toEqual([
      { _id: ROOT, version: 1, refs: [] },
      {
        _id: 'a',
        version: 1,
        refs: [
          { relation: 'isReferencing', target: 'b' },
          { relation: 'isReferencing', target: 'path:/c' },
        ],
      },
      {
        _id: 'b',
        version: 1,
        refs: [
          { relation: 'relatedItems', target: 'c' },
          { relation: 'relatedItems', target: 'd' },
        ],
      },
      // Blocks only: a Document has no remoteUrl field.
      { _id: 'c', version: 1, refs: [{ relation: 'isReferencing', target: 'a' }] },
      { _id: 'd', version: 1, refs: [] },
    ]);
  });

  it('rebuilds to what the incremental updates made, whatever the index held before', async () => {
    // Events in any order, each more than once; then changes and a removal.
    for (const uid of ['d', 'a', ROOT, 'c', 'b', 'a', 'b']) await references.refresh(uid);
    await change('b', { relatedItems: ['d'] });
    await references.refresh('b');
    await references.refresh('b');
    await repo.applyChange('a', 1, { set: { _deleted: true }, unset: ['path', 'parent_uid'] }, []);
    await references.removed(['a']);
    const incremental = await snapshotOfIndex();
    expect(incremental.map((r) => r._id)).toEqual([ROOT, 'b', 'c', 'd']);
    expect(incremental.find((r) => r._id === 'b')).toEqual({
      _id: 'b',
      version: 2,
      refs: [{ relation: 'relatedItems', target: 'd' }],
    });

    // A stale record, a forged one, a missing one: the rebuild puts everything right.
    await index.put('b', 99, [{ relation: 'relatedItems', target: 'zzz' }]);
    await index.put('ghost', 1, [{ relation: 'relatedItems', target: 'c' }]);
    await index.remove(['c']);
    await references.rebuild();
    const rebuilt = await snapshotOfIndex();
    expect(rebuilt.map(({ _id, refs }) => ({ _id, refs }))).toEqual(
      incremental.map(({ _id, refs }) => ({ _id, refs })),
    );
  });

  it('never goes back to an older version, and keeps the sources of a removal content still has', async () => {
    await references.refresh('b');
    expect(await index.put('b', 1, [])).toBe(false);
    expect((await index.get('b'))?.refs).toHaveLength(2);
    expect(await references.removed(['b'])).toBe(0);
    expect(await index.get('b')).not.toBeNull();
  });

  describe('fed through the bus', () => {
    let bus: InProcessBus;
    let subscription: Subscription;

    beforeEach(async () => {
      bus = createInProcessBus({ topology: [REFERENCES_GROUP], logger: log, retryDelaysMs: [1] });
      subscription = await subscribeReferences(bus, references, log);
    });
    afterEach(async () => {
      await subscription.stop();
      await bus.close();
    });

    it('applies added, modified and removed events from the store', async () => {
      await repo.insertNew(doc(E, '/e', { relatedItems: [F] }), []);
      await repo.insertNew(doc(F, '/f'), []);
      await bus.publish(addedEvent((await repo.byUid(E))!));
      await bus.publish(addedEvent((await repo.byUid(F))!));
      expect(await subscription.waitUntilDrained(5000)).toBe(true);
      expect((await index.referringTo([F])).map((r) => r._id)).toEqual([E]);

      const changed = await change(E, {});
      await bus.publish(modifiedEvent(changed, ['relatedItems']));
      const removing = (await repo.byUid(F))!;
      await repo.applyChange(F, 1, { set: { _deleted: true }, unset: ['path', 'parent_uid'] }, []);
      await bus.publish(removedEvent(removing, 2, [F]));
      expect(await subscription.waitUntilDrained(5000)).toBe(true);
      expect((await index.get(E))?.refs).toEqual([]);
      expect(await index.get(F)).toBeNull();
    });
  });
});
