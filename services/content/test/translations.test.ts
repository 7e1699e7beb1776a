import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, newEvent, RebuildCheckpoints, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import type { ContentDoc } from '../src/domain/content';
import { Translations, type ContentScan } from '../src/domain/translations';
import { ContentWriter } from '../src/domain/content';
import { StoreContentRepository } from '../src/store/content-repository';
import { StoreTranslationGroups } from '../src/store/translation-groups';

/**
 * The translation index as the consumer keeps it (`follow`, `forget`, once per event, any number of times) and
 * as a rebuild recomputes it from the objects: both give the same groups, clashes resolved the same way.
 */
describe('translation groups', () => {
  let dir: string;
  let store: DocumentStore;
  let repo: StoreContentRepository;
  let index: StoreTranslationGroups;
  let translations: Translations;
  const relay = { flush: async () => undefined };

  function doc(uid: string, path: string, language: string, group?: string, modified = '2026-01-01T00:00:00.000Z') {
    const d: ContentDoc = {
      _id: uid,
      path,
      id: path.split('/').pop() || 'site',
      portal_type: path === '/' ? 'Site Root' : 'Document',
      parent_uid: path === '/' ? null : 'root',
      ancestors: path === '/' ? [] : ['root'],
      position: 0,
      next_position: 0,
      title: uid,
      description: '',
      created: '2026-01-01T00:00:00.000Z',
      modified,
      creators: ['admin'],
      review_state: 'private',
      version: 1,
      fields: { language },
      local_roles: [],
      effective_local_roles: [],
      allowed: ['Manager'],
    };
    if (group) d.translation_group = group;
    return d;
  }

  async function insert(...docs: ContentDoc[]): Promise<void> {
    for (const d of docs) await repo.insertNew(d, [newEvent('content.added', { uid: d._id })]);
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-translations-'));
    store = await openEmbeddedStore(dir);
    repo = new StoreContentRepository(store);
    await repo.ensureIndexes();
    index = new StoreTranslationGroups(store);
    await index.ensureIndexes();
    translations = new Translations({
      repo,
      writer: new ContentWriter(repo, relay),
      index,
      languages: { available: async () => ['en', 'de', 'fr'] },
      drained: async () => true,
      log: createLogger('translations-test', 'silent'),
      admin: 'admin',
    });
    await insert(doc('root', '/', 'en'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows the objects as stored, idempotently, and a rebuild of a lost index gives the same groups', async () => {
    await insert(doc('a', '/a', 'en', 'g1'), doc('b', '/b', 'de', 'g1'), doc('c', '/c', 'fr', 'g1'));
    await insert(doc('d', '/d', 'en', 'g2'), doc('e', '/e', 'fr', 'g2'), doc('lonely', '/lonely', 'en'));
    for (const uid of ['a', 'b', 'c', 'd', 'e', 'lonely']) await translations.follow(uid, 'test');
    const incremental = await index.all();
    expect(incremental.map((m) => [m._id, m.group, m.language])).toEqual([
      ['a', 'g1', 'en'],
      ['b', 'g1', 'de'],
      ['c', 'g1', 'fr'],
      ['d', 'g2', 'en'],
      ['e', 'g2', 'fr'],
    ]);
    // A redelivery of every event changes nothing.
    for (const uid of ['a', 'b', 'c', 'd', 'e', 'lonely']) await translations.follow(uid, 'test');
    expect(await index.all()).toEqual(incremental);

    await index.replaceAll([]);
    expect(await translations.rebuild(repo, 'test')).toBe(5);
    expect(await index.all()).toEqual(incremental);
  });

  it('drops only the removed objects content confirms are gone', async () => {
    await insert(doc('a', '/a', 'en', 'g1'), doc('b', '/b', 'de', 'g1'));
    for (const uid of ['a', 'b']) await translations.follow(uid, 'test');
    await repo.docs.deleteOne({ _id: 'b' });
    await translations.forget(['a', 'b']);
    expect((await index.all()).map((m) => m._id)).toEqual(['a']);
  });

  it('resolves a clash by unlinking the object written last, the same way incrementally and in a rebuild', async () => {
    const clash = () => [
      doc('a', '/a', 'en', 'g1'),
      doc('b', '/b', 'de', 'g1', '2026-01-02T00:00:00.000Z'),
      doc('late', '/late', 'de', 'g1', '2026-01-03T00:00:00.000Z'),
    ];
    await insert(...clash());
    for (const uid of ['a', 'b', 'late']) await translations.follow(uid, 'test');
    expect((await repo.byUid('late'))?.translation_group).toBeUndefined();
    const incremental = (await index.all()).map((m) => [m._id, m.group]);
    expect(incremental).toEqual([
      ['a', 'g1'],
      ['b', 'g1'],
    ]);

    // The same objects, never followed: the rebuild unlinks the same one.
    await store.collection('content').deleteMany({});
    await index.replaceAll([]);
    await insert(doc('root', '/', 'en'), ...clash());
    await translations.rebuild(repo, 'test');
    expect((await repo.byUid('late'))?.translation_group).toBeUndefined();
    expect((await index.all()).map((m) => [m._id, m.group])).toEqual(incremental);
  });

  it('cut short, leaves the index as it was; a replacement cut short never empties it', async () => {
    await insert(doc('a', '/a', 'en', 'g1'), doc('b', '/b', 'de', 'g1'), doc('c', '/c', 'fr', 'g2'));
    for (const uid of ['a', 'b', 'c']) await translations.follow(uid, 'test');
    const followed = await index.all();
    // A rebuild stopped after the first object read (the tool killed: its call cancelled).
    const steps = translations.rebuildSteps(repo, await repo.countInTree(), 'test');
    expect((await steps.next()).value).toEqual({ done: 1, total: 4, what: '/a' });
    await steps.return(0);
    expect(await index.all()).toEqual(followed);

    // Content stopped while the index is being replaced: its store fails after the first entry written.
    let writes = 0;
    const stopping = {
      collection: (name: string) => {
        const collection = store.collection(name);
        const updateOne = collection.updateOne.bind(collection);
        // A view of the collection of its own: the store's is shared with the index the test reads.
        return Object.assign(Object.create(collection) as typeof collection, {
          updateOne: (async (...args: Parameters<typeof updateOne>) => {
            if (++writes > 1) throw new Error('store stopped');
            return updateOne(...args);
          }) as typeof updateOne,
        });
      },
    } as unknown as DocumentStore;
    const newer = followed.map((member) => ({ ...member, version: 2 }));
    await expect(new StoreTranslationGroups(stopping).replaceAll(newer)).rejects.toThrow('store stopped');
    expect((await index.all()).map((m) => [m._id, m.version])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 1],
    ]);

    // Run again, it starts over and completes.
    expect(await translations.rebuild(repo, 'test')).toBe(3);
    expect(await index.all()).toEqual(followed);
  });
  it('cut short after two objects, goes on from its checkpoint: reads only the rest, ends as a full rebuild', async () => {
    await insert(doc('a', '/a', 'en', 'g1'), doc('b', '/b', 'de', 'g1'), doc('c', '/c', 'fr', 'g2'));
    await insert(doc('e', '/e', 'de', 'g2'), doc('g', '/g', 'en', 'g1', '2026-02-01T00:00:00.000Z'));
    // An entry of an object the store no longer has.
    await index.put({ _id: 'gone', group: 'g2', language: 'en', version: 1 });
    const read: string[] = [];
    const counting: ContentScan = {
      async *scan(pageSize, afterUid) {
        for await (const d of repo.scan(pageSize, afterUid)) {
          read.push(d._id);
          yield d;
        }
      },
      linkedUpTo: (uid) => repo.linkedUpTo(uid),
    };
    const checkpoints = new RebuildCheckpoints(store, 'translations');
    const first = translations.rebuildSteps(counting, await repo.countInTree(), 'test', checkpoints);
    await first.next();
    await first.next();
    await first.return(0);
    expect(read).toEqual(['a', 'b']);
    expect(await checkpoints.load()).toMatchObject({ after_uid: 'b', done: 2, scan_complete: false });
    // Added while nothing runs: after the cut in UID order, so the resumed scan reads it.
    await insert(doc('f', '/f', 'fr', 'g1'));

    read.length = 0;
    const steps: string[] = [];
    const resumed = translations.rebuildSteps(counting, await repo.countInTree(), 'test', checkpoints);
    let linked: number | undefined;
    for (let step = await resumed.next(); ; step = await resumed.next()) {
      if (step.done) {
        linked = step.value;
        break;
      }
      steps.push(`${step.value.done}/${step.value.total} ${step.value.what.replace(/\d{4}-.*/, '<time>')}`);
    }
    expect(read).toEqual(['c', 'e', 'f', 'g', 'root']);
    expect(steps[0]).toBe('2/7 resuming the rebuild begun at <time>');
    expect(await checkpoints.load()).toBeNull();
    // g clashes with a, read before the cut: the one written last leaves, as in a rebuild in one go.
    expect(linked).toBe(5);
    expect((await repo.byUid('g'))?.translation_group).toBeUndefined();
    const groups = (await index.all()).map((m) => [m._id, m.group]);
    expect(groups).toEqual([
      ['a', 'g1'],
      ['b', 'g1'],
      ['c', 'g2'],
      ['e', 'g2'],
      ['f', 'g1'],
    ]);
    expect(await translations.rebuild(repo, 'test')).toBe(5);
    expect((await index.all()).map((m) => [m._id, m.group])).toEqual(groups);

    // Ended: the next rebuild starts over.
    read.length = 0;
    await translations.rebuildSteps(counting, 0, 'test', checkpoints).next();
    expect(read).toEqual(['a']);
  });
});
