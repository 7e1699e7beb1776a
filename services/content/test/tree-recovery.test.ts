import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEvent, type DocumentStore, type EventEnvelope } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { FolderOrdering } from '../src/domain/tree';
import type { ContentDoc } from '../src/domain/content';
import { STALE_GRACE_MS, SubtreeFollower } from '../src/domain/tree';
import { builtinTypeRegistry } from '../src/domain/types';
import { WorkflowCommands } from '../src/domain/workflow';
import { ContentWriter } from '../src/domain/content';
import { StoreContentRepository } from '../src/store/content-repository';

/**
 * A move or a re-ordering is several single-document writes. These tests cut
 * one short (as a crash would: the first write done, the rest not) and check
 * that the sweep finishes it, each rewritten object with its event.
 */
describe('finishing interrupted tree operations', () => {
  let dir: string;
  let store: DocumentStore;
  let repo: StoreContentRepository;
  const relay = { flush: async () => undefined };
  let writer: ContentWriter;

  function doc(uid: string, path: string, parent: ContentDoc | null, position = 0): ContentDoc {
    return {
      _id: uid,
      path,
      id: path === '/' ? 'site' : path.split('/').pop()!,
      portal_type: parent ? (path.split('/').length > 3 ? 'Document' : 'Folder') : 'Site Root',
      parent_uid: parent?._id ?? null,
      ancestors: parent ? [...parent.ancestors, parent._id] : [],
      position,
      next_position: 10,
      title: uid,
      description: '',
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
      creators: ['admin'],
      review_state: parent ? 'private' : null,
      version: 1,
      local_roles: [],
      effective_local_roles: [],
      allowed: ['Manager'],
    };
  }

  async function insert(d: ContentDoc): Promise<void> {
    await repo.insertNew(d, [newEvent('content.added', { uid: d._id })]);
  }

  function outboxOf(uid: string): Promise<EventEnvelope[]> {
    return repo.docs.findOne({ _id: uid }).then((d) => (d?._outbox as EventEnvelope[] | undefined) ?? []);
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-tree-'));
    store = await openEmbeddedStore(dir);
    repo = new StoreContentRepository(store);
    await repo.ensureIndexes();
    writer = new ContentWriter(repo, relay);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a moved folder whose children did not follow yet is finished by the sweep, once the grace has passed', async () => {
    const root = doc('root', '/', null);
    const a = doc('a', '/a', root);
    const b = doc('b', '/b', root, 1);
    const box = doc('box', '/a/box', a);
    const letter = doc('letter', '/a/box/letter', box);
    for (const d of [root, a, b, box, letter]) await insert(d);

    // The first write of a move: the folder itself, marked stale. Then the "crash".
    const movedAt = '2026-01-01T00:00:00.000Z';
    await repo.applyChange(
      'box',
      1,
      { set: { path: '/b/box', parent_uid: 'b', ancestors: ['root', 'b'], subtree_stale: movedAt, version: 2 } },
      [newEvent('content.moved', { uid: 'box' })],
    );
    const follower = new SubtreeFollower(repo, writer);

    // Too fresh: the request that set it may still be walking.
    expect(await follower.sweep(new Date(Date.parse(movedAt) + STALE_GRACE_MS / 2), 'sweep')).toBe(0);
    expect((await repo.byUid('letter'))?.path).toBe('/a/box/letter');

    expect(await follower.sweep(new Date(Date.parse(movedAt) + STALE_GRACE_MS + 1), 'sweep')).toBe(1);
    const followed = await repo.byUid('letter');
    expect(followed?.path).toBe('/b/box/letter');
    expect(followed?.ancestors).toEqual(['root', 'b', 'box']);
    expect(followed?.version).toBe(2);
    const events = await outboxOf('letter');
    expect(events.map((e) => e.type)).toEqual(['content.added', 'content.moved']);
    expect(events[1].payload).toMatchObject({ old_path: '/a/box/letter', new_path: '/b/box/letter', version: 2 });
    expect((await repo.byUid('box'))?.subtree_stale).toBeUndefined();

    // Running it again finds nothing to do and writes nothing.
    expect(await follower.sweep(new Date(Date.parse(movedAt) + STALE_GRACE_MS * 10), 'sweep')).toBe(0);
    expect((await repo.byUid('letter'))?.version).toBe(2);
  });

  it('a re-ordering recorded on the folder but only partly written is finished by the sweep', async () => {
    const root = doc('root', '/', null);
    const folder = doc('f', '/f', root);
    const children = ['x', 'y', 'z'].map((id, i) => doc(id, `/f/${id}`, folder, i));
    for (const d of [root, folder, ...children]) await insert(d);
    // The folder's own write of a re-ordering, then the "crash" before any child was written.
    await repo.applyChange('f', 1, { set: { order_pending: ['z', 'x', 'y'], version: 2 } }, []);

    const ordering = new FolderOrdering(repo, writer);
    expect(await ordering.sweep('sweep')).toBe(1);
    expect((await repo.allChildren('f')).map((c) => c.id)).toEqual(['z', 'x', 'y']);
    expect((await repo.byUid('f'))?.order_pending).toBeUndefined();
    const events = await outboxOf('z');
    expect(events.map((e) => e.type)).toEqual(['content.added', 'content.ordered']);
    expect(events[1].payload).toMatchObject({ position: 0, parent_uid: 'f' });
    expect(await ordering.sweep('sweep')).toBe(0);
  });

  it('a transition taken with include_children that stopped after the folder is finished by the sweep, as its caller', async () => {
    const root = doc('root', '/', null);
    const folder = doc('f', '/f', root);
    const open = doc('open', '/f/open', folder);
    const below = doc('below', '/f/open/below', open);
    const hidden = { ...doc('hidden', '/f/hidden', folder, 1), review_state: 'pending' };
    for (const d of [root, folder, open, below, hidden]) await insert(d);
    // The folder's own write of the transition, with its mark; then the "crash" before any child took it.
    const at = '2026-01-01T00:00:00.000Z';
    const editor = { id: 'ed', roles: ['Editor', 'Authenticated'], groups: [] } as never;
    await repo.applyChange(
      'f',
      1,
      {
        set: {
          review_state: 'pending',
          transition_pending: { at, transition: 'submit', comment: 'All of it', principal: editor, requestId: 'r1' },
          version: 2,
        },
      },
      [],
    );

    const workflow = new WorkflowCommands(repo, writer, new SubtreeFollower(repo, writer), builtinTypeRegistry());
    expect(await workflow.sweep(new Date(Date.parse(at) + STALE_GRACE_MS / 2))).toBe(0);
    expect(await workflow.sweep(new Date(Date.parse(at) + STALE_GRACE_MS * 2))).toBe(1);
    for (const uid of ['open', 'below']) {
      const taken = await repo.byUid(uid);
      expect(taken?.review_state).toBe('pending');
      expect(taken?.workflow_history?.at(-1)).toMatchObject({ action: 'submit', actor: 'ed', comments: 'All of it' });
    }
    // Where the transition is not available, nothing changes (what the caller may not view: escalation.test.ts).
    expect((await repo.byUid('hidden'))?.version).toBe(1);
    expect((await repo.byUid('f'))?.transition_pending).toBeUndefined();
    expect(await workflow.sweep(new Date(Date.parse(at) + STALE_GRACE_MS * 2))).toBe(0);
  });
});
