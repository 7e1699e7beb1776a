import type { ContentDoc, VersionRecord } from '../src/domain/content';
import { builtinTypeRegistry } from '../src/domain/types';
import { VersionKeeper, versionOf, type VersionArchive } from '../src/domain/history';

/** An archive in memory whose `keep` can be made to fail, as a store that is down would. */
function memoryArchive(docs: Map<string, ContentDoc>) {
  const kept = new Map<string, VersionRecord>();
  let failing = false;
  const archive: VersionArchive = {
    keep: async (record) => {
      if (failing) throw new Error('store down');
      kept.set(record._id, record);
    },
    settled: async (uid, version) => {
      const doc = docs.get(uid);
      if (doc?.version_pending?.version === version) delete doc.version_pending;
    },
    versionsOf: async (uid) => [...kept.values()].filter((r) => r.uid === uid).sort((a, b) => a.version - b.version),
    versionOf: async (uid, version) => kept.get(`${uid}:${version}`) ?? null,
    unsettled: async () => [...docs.values()].filter((d) => d.version_pending),
    forget: async (uids) => {
      const gone = [...kept.values()].filter((r) => uids.includes(r.uid));
      for (const r of gone) kept.delete(r._id);
      return gone;
    },
  };
  return { archive, kept, fail: (on: boolean) => (failing = on) };
}

function documentAt(version: number | undefined, title: string): ContentDoc {
  return {
    _id: 'u1',
    path: '/doc',
    id: 'doc',
    portal_type: 'Document',
    parent_uid: 'root',
    ancestors: ['root'],
    position: 0,
    next_position: 0,
    title,
    description: '',
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    creators: ['ed'],
    review_state: 'private',
    version: 1,
    last_version: version,
  };
}

describe('versions', () => {
  const types = builtinTypeRegistry();
  const at = new Date('2026-02-01T10:00:00.000Z');

  it('a new versioned object makes version 0, an edit of what a version keeps the next, anything else none', () => {
    const created = versionOf(types, {
      kind: 'create',
      current: null,
      next: documentAt(undefined, 'A'),
      actor: 'ed',
      at,
    });
    expect(created).toMatchObject({ _id: 'u1:0', version: 0, comments: 'Initial version', actor: 'ed' });
    const edited = versionOf(types, {
      kind: 'update',
      current: documentAt(0, 'A'),
      next: documentAt(0, 'B'),
      actor: 'ed',
      note: 'why',
      at,
    });
    expect(edited).toMatchObject({ version: 1, comments: 'why', content: { title: 'B' } });
    const same = { kind: 'update' as const, current: documentAt(0, 'A'), next: documentAt(0, 'A'), actor: 'ed', at };
    expect(versionOf(types, same)).toBeNull();
    expect(versionOf(types, { ...same, kind: 'transition', next: documentAt(0, 'B') })).toBeNull();
    const folder = { ...documentAt(undefined, 'F'), portal_type: 'Folder' };
    expect(versionOf(types, { kind: 'create', current: null, next: folder, actor: 'ed', at })).toBeNull();
    const off = { ...documentAt(undefined, 'A'), fields: { versioning_enabled: false } };
    expect(versionOf(types, { kind: 'create', current: null, next: off, actor: 'ed', at })).toBeNull();
  });

  it("an imported object's earlier versions are kept, and its own comes after them with the export's metadata", async () => {
    const docs = new Map<string, ContentDoc>();
    const { archive } = memoryArchive(docs);
    const keeper = new VersionKeeper(archive, types, () => at);
    const next = documentAt(undefined, 'Now');
    const earlier: VersionRecord = {
      _id: 'u1:0',
      uid: 'u1',
      version: 0,
      time: '2024-03-02T10:00:00.000Z',
      actor: '',
      comments: 'First draft',
      content: { title: 'Then', description: '', effective: null, expires: null, fields: {} },
    };
    await keeper.keepEarlier([earlier]);
    const latest = { version: 1, time: '2024-03-04T16:30:00.000Z', actor: 'jane', comments: 'Added Joe' };
    const made = keeper.plan({
      kind: 'create',
      current: null,
      next,
      author: { principal: null, requestId: 'r', publicUrl: '' },
      imported: latest,
    });
    expect(made).toMatchObject({ _id: 'u1:1', ...latest, content: { title: 'Now' } });
    const doc = { ...next, last_version: made!.version, version_pending: made! };
    docs.set(doc._id, doc);
    await keeper.settle(doc);
    expect((await keeper.versionsOf(doc)).map((r) => [r.version, r.comments, r.actor])).toEqual([
      [0, 'First draft', ''],
      [1, 'Added Joe', 'jane'],
    ]);
    // A type that keeps no versions makes none, imported or not.
    const folder = { ...next, portal_type: 'Folder' };
    expect(
      versionOf(types, { kind: 'create', current: null, next: folder, actor: 'ed', at, imported: latest }),
    ).toBeNull();
  });

  it('a version left pending by a failure is listed, and the sweep moves it once the store is back', async () => {
    const docs = new Map<string, ContentDoc>();
    const { archive, kept, fail } = memoryArchive(docs);
    const keeper = new VersionKeeper(archive, types, () => at);
    const record = versionOf(types, {
      kind: 'create',
      current: null,
      next: documentAt(undefined, 'A'),
      actor: 'ed',
      at,
    })!;
    const doc = { ...documentAt(0, 'A'), version_pending: record };
    docs.set(doc._id, doc);

    fail(true);
    await expect(keeper.settle(doc)).rejects.toThrow('store down');
    expect(doc.version_pending).toBe(record);
    expect((await keeper.versionsOf(doc)).map((r) => r.version)).toEqual([0]);
    expect(await keeper.versionOf(doc, 0)).toBe(record);

    fail(false);
    expect(await keeper.sweep()).toBe(1);
    expect(kept.get('u1:0')).toEqual(record);
    expect(doc.version_pending).toBeUndefined();
    expect(await keeper.sweep()).toBe(0);
  });

  it('moving a version twice keeps one record (after a crash between the move and the clear)', async () => {
    const docs = new Map<string, ContentDoc>();
    const { archive, kept } = memoryArchive(docs);
    const keeper = new VersionKeeper(archive, types, () => at);
    const record = versionOf(types, {
      kind: 'create',
      current: null,
      next: documentAt(undefined, 'A'),
      actor: 'ed',
      at,
    })!;
    await archive.keep(record);
    const doc = { ...documentAt(0, 'A'), version_pending: record };
    docs.set(doc._id, doc);
    await keeper.settle(doc);
    expect([...kept.keys()]).toEqual(['u1:0']);
    expect((await keeper.versionsOf(docs.get('u1')!)).map((r) => r.version)).toEqual([0]);
  });
});
