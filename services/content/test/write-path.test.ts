import { newEvent, type EventEnvelope, type Principal__Output } from '@cms/shared';
import type { Caller } from '../src/domain/content';
import type { ContentDoc, VersionRecord } from '../src/domain/content';
import type { ContentWriteStore, StoredChange } from '../src/domain/content';
import {
  ContentWriter,
  NO_VERSIONS,
  SYSTEM_WRITE,
  type JournaledWrite,
  type ObjectWrite,
  type VersionedWrite,
  type VersionRecorder,
} from '../src/domain/content';

const editor: Principal__Output = { id: 'ed', roles: ['Editor'], groups: [], fullname: '' };
const member: Principal__Output = { id: 'mo', roles: ['Member'], groups: [], fullname: '' };
const caller = (principal: Principal__Output | null, lockToken?: string): Caller => ({
  principal,
  requestId: 'r1',
  publicUrl: 'http://cms.test',
  lockToken,
});

function doc(extra: Partial<ContentDoc> = {}): ContentDoc {
  return {
    _id: 'u1',
    path: '/doc',
    id: 'doc',
    portal_type: 'Document',
    parent_uid: 'root',
    ancestors: ['root'],
    position: 0,
    next_position: 0,
    title: 'Doc',
    description: '',
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-01T00:00:00.000Z',
    creators: ['admin'],
    review_state: 'private',
    version: 1,
    effective_local_roles: [],
    ...extra,
  };
}

/**
 * One stored object; `interfere(n)` makes the n-th conditional write find it changed by someone else (its
 * version bumped), as a concurrent writer would.
 */
function fakeStore(initial: ContentDoc | null) {
  let stored = initial;
  const lost = new Set<number>();
  let writes = 0;
  const events: EventEnvelope[] = [];
  const store: ContentWriteStore = {
    byUid: async () => stored,
    insertNew: async () => true,
    applyChange: async (_uid: string, version: number, change: StoredChange, written: EventEnvelope[]) => {
      writes++;
      if (!stored) return false;
      if (lost.has(writes)) stored = { ...stored, version: stored.version + 1, title: `changed by others ${writes}` };
      if (stored.version !== version) return false;
      stored = { ...stored, ...change.set };
      events.push(...written);
      return true;
    },
  };
  return {
    store,
    events,
    get stored() {
      return stored;
    },
    set stored(value: ContentDoc | null) {
      stored = value;
    },
    interfere: (...attempts: number[]) => attempts.forEach((n) => lost.add(n)),
    writes: () => writes,
  };
}

/** Sets the title, with one event; records each version it was planned from. */
function retitle(title: string, plannedFrom: number[] = []): ObjectWrite {
  return {
    kind: 'update',
    permission: 'Modify portal content',
    plan: (current) => {
      plannedFrom.push(current.version);
      return {
        set: { title },
        events: (next) => [newEvent('content.modified', { uid: next._id, version: next.version })],
      };
    },
  };
}

describe('the write path', () => {
  const flushed: string[] = [];
  const relay = { flush: async (uid: string) => void flushed.push(uid) };
  beforeEach(() => (flushed.length = 0));

  it('lets the event loop turn between the checks and making the change (issue 25: a large page held the process)', async () => {
    const fake = fakeStore(doc());
    const writer = new ContentWriter(fake.store, relay);
    const order: string[] = [];
    const plannedFrom: number[] = [];
    // What came while the write was checked: a request's I/O callback, here an immediate queued before it.
    setImmediate(() => order.push('other'));
    const write = retitle('Mine', plannedFrom);
    const planned = writer.write(
      doc(),
      { ...write, plan: (current) => (order.push('plan'), write.plan(current)) },
      caller(editor),
    );

    expect((await planned).changed).toBe(true);
    expect(order).toEqual(['other', 'plan']);
  });

  it('commits a change holding a long text after one more turn (the store serializes the whole object)', async () => {
    for (const [length, expected] of [
      [256 * 1024, ['other', 'commit']],
      [1024, ['commit', 'other']],
    ] as const) {
      const fake = fakeStore(doc());
      const order: string[] = [];
      const applyChange = fake.store.applyChange;
      fake.store.applyChange = (...args) => (order.push('commit'), applyChange(...args));
      const writer = new ContentWriter(fake.store, relay);
      const write: ObjectWrite = {
        kind: 'update',
        permission: 'Modify portal content',
        plan: () => ({
          set: { fields: { blocks: 'x'.repeat(length) } },
          // Made with the change: what comes meanwhile is queued behind it.
          events: () => (setImmediate(() => order.push('other')), []),
        }),
      };
      await writer.write(doc(), write, caller(editor));
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual(expected);
    }
  });

  it('re-plans on the current version after a conflict, waiting a jittered, doubling backoff between attempts', async () => {
    const fake = fakeStore(doc());
    fake.interfere(1, 2, 3);
    const waits: number[] = [];
    const writer = new ContentWriter(fake.store, relay, {
      retry: {
        attempts: 5,
        firstDelayMs: 4,
        maxDelayMs: 20,
        sleep: async (ms) => void waits.push(ms),
        random: () => 0.5,
      },
    });
    const plannedFrom: number[] = [];

    const written = await writer.write(doc(), retitle('Mine', plannedFrom), caller(editor));

    // Conflicts at versions 1, 2, 3 (each write found a newer version), then it went through on 4.
    expect(plannedFrom).toEqual([1, 2, 3, 4]);
    expect(waits).toEqual([3, 6, 12]);
    expect(written).toMatchObject({ changed: true, before: { version: 4 }, after: { title: 'Mine', version: 5 } });
    expect(fake.stored).toMatchObject({ title: 'Mine', version: 5 });
    expect(fake.events).toHaveLength(1);
    expect(flushed).toEqual(['u1']);
  });

  it("answers a write only once the gateways' caches have confirmed its paths (onCommit), even when its events fail", async () => {
    const fake = fakeStore(doc());
    let confirm = () => {};
    const committed: string[][] = [];
    const failing = { flush: async () => Promise.reject(new Error('broker down')) };
    const writer = new ContentWriter(fake.store, failing, {
      onCommit: (paths) => {
        committed.push(paths);
        return new Promise<void>((resolve) => (confirm = resolve));
      },
    });
    let settled = false;
    const written = writer.write(doc(), retitle('Mine'), caller(editor)).finally(() => (settled = true));
    written.catch(() => undefined);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(committed).toEqual([['/doc']]);
    expect(settled).toBe(false);
    confirm();
    await expect(written).rejects.toThrow('broker down');
  });

  it('waits between half of the delay and all of it, capped, and gives up with 409 after its attempts', async () => {
    const fake = fakeStore(doc());
    fake.interfere(1, 2, 3, 4, 5, 6);
    const waits: number[] = [];
    let draw = 0;
    const writer = new ContentWriter(fake.store, relay, {
      retry: {
        attempts: 6,
        firstDelayMs: 2,
        maxDelayMs: 20,
        sleep: async (ms) => void waits.push(ms),
        random: () => [0, 0.999, 0.5, 0, 0.999][draw++],
      },
    });

    await expect(writer.write(doc(), retitle('Mine'), caller(editor))).rejects.toMatchObject({
      type: 'Conflict',
      message: expect.stringContaining('being changed by others'),
    });
    expect(fake.writes()).toBe(6);
    expect(waits.map((ms) => Math.round(ms * 100) / 100)).toEqual([1, 4, 6, 8, 19.99]);
    expect(fake.events).toEqual([]);
    expect(flushed).toEqual([]);
  });

  it("checks the caller's permission on the current version at every attempt", async () => {
    const fake = fakeStore(doc({ local_roles: [], effective_local_roles: [{ principal: 'mo', roles: ['Editor'] }] }));
    const writer = new ContentWriter(fake.store, relay, { retry: { sleep: async () => undefined } });
    // Meanwhile the member loses the local role that let them edit.
    const initial = fake.stored!;
    fake.stored = { ...initial, version: 2, effective_local_roles: [] };

    await expect(writer.write(initial, retitle('Mine'), caller(member))).rejects.toMatchObject({ type: 'Forbidden' });
    expect(fake.stored).toMatchObject({ title: 'Doc', version: 2 });
    await expect(writer.write(fake.stored!, retitle('Mine'), caller(null))).rejects.toMatchObject({
      type: 'Unauthorized',
    });
  });

  it('lets system writes through unchecked, and tells a write to an object gone meanwhile', async () => {
    const fake = fakeStore(doc());
    const locks = { check: jest.fn() };
    const writer = new ContentWriter(fake.store, relay, { locks, retry: { sleep: async () => undefined } });
    expect(await writer.write(doc(), retitle('System'), SYSTEM_WRITE)).toMatchObject({ after: { title: 'System' } });
    expect(locks.check).not.toHaveBeenCalled();

    const stale = fake.stored!;
    fake.stored = { ...stale, version: stale.version + 1 };
    fake.stored = null;
    expect(await writer.write(stale, retitle('Late'), SYSTEM_WRITE)).toBeNull();
    await expect(writer.write(stale, retitle('Late'), caller(editor))).rejects.toMatchObject({ type: 'NotFound' });
  });

  it('asks the lock guard with the current object and the caller; a version commits with the write, then settles', async () => {
    const fake = fakeStore(doc());
    const locks = { check: jest.fn() };
    const planned: VersionedWrite[] = [];
    const settled: (VersionRecord | undefined)[] = [];
    const versions: VersionRecorder = {
      ...NO_VERSIONS,
      plan: (write) => {
        planned.push(write);
        const version = (write.current?.last_version ?? -1) + 1;
        return {
          _id: `u1:${version}`,
          uid: 'u1',
          version,
          time: '',
          actor: '',
          comments: write.note ?? '',
          content: {} as VersionRecord['content'],
        };
      },
      settle: async (d) => void settled.push(d.version_pending),
    };
    const writer = new ContentWriter(fake.store, relay, { locks, versions });
    const who = caller(editor, 'token-1');

    await writer.write(doc(), { ...retitle('Mine'), note: 'my note' }, who);
    expect(locks.check).toHaveBeenCalledWith(expect.objectContaining({ version: 1 }), who);
    expect(planned).toEqual([
      {
        kind: 'update',
        current: expect.objectContaining({ title: 'Doc', version: 1 }),
        next: expect.objectContaining({ title: 'Mine', version: 2 }),
        author: who,
        note: 'my note',
      },
    ]);
    // The record is in the same write as the change, and settled after the commit.
    expect(fake.stored).toMatchObject({
      title: 'Mine',
      last_version: 0,
      version_pending: { version: 0, comments: 'my note' },
    });
    expect(settled).toEqual([undefined, expect.objectContaining({ version: 0 })]);

    // A locked object: nothing is written, no version made.
    locks.check.mockImplementation(() => {
      throw Object.assign(new Error('locked'), { type: 'Locked' });
    });
    await expect(writer.write(fake.stored!, retitle('Other'), who)).rejects.toMatchObject({ type: 'Locked' });
    expect(fake.stored).toMatchObject({ title: 'Mine' });
    expect(planned).toHaveLength(1);
  });

  it('writes nothing when the plan finds nothing to change, and flushes a batch only when asked', async () => {
    const fake = fakeStore(doc());
    const writer = new ContentWriter(fake.store, relay);
    const unchanged = await writer.write(
      doc(),
      { kind: 'update', permission: 'View', plan: () => null },
      caller(editor),
    );
    expect(unchanged).toMatchObject({ changed: false, after: { version: 1 } });
    expect(fake.writes()).toBe(0);

    const batch = writer.deferFlushes();
    await writer.write(doc(), retitle('Batched'), SYSTEM_WRITE, batch);
    expect(flushed).toEqual([]);
    await batch.flush();
    expect(flushed).toEqual(['u1']);
  });

  it("tells the transaction log each committed write of a caller, not the system's, a lock's nor an unchanged one", async () => {
    const fake = fakeStore(doc());
    const journaled: JournaledWrite[] = [];
    const writer = new ContentWriter(fake.store, relay, { journal: { record: async (w) => void journaled.push(w) } });

    await writer.write(doc(), retitle('Mine'), caller(editor));
    await writer.write(fake.stored!, retitle('By the system'), SYSTEM_WRITE);
    await writer.write(fake.stored!, { ...retitle('Locked'), kind: 'lock' }, caller(editor));
    await writer.write(fake.stored!, { kind: 'update', permission: 'View', plan: () => null }, caller(editor));
    await writer.insert({ kind: 'create', doc: doc({ _id: 'u2' }), events: [], container: null }, caller(editor));
    fake.interfere(fake.writes() + 1);
    await writer.write(fake.stored!, retitle('After a conflict'), caller(editor));

    expect(journaled.map((w) => [w.kind, w.before?.title ?? null, w.after.title])).toEqual([
      ['update', 'Doc', 'Mine'],
      ['create', null, 'Doc'],
      // Planned again on what the other writer left: that is what undoing it restores.
      ['update', `changed by others ${fake.writes() - 1}`, 'After a conflict'],
    ]);
    expect(journaled.every((w) => w.author.principal?.id === 'ed')).toBe(true);
  });
});
