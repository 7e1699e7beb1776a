/**
 * A reindex makes the catalog equal to the content store: entries ahead of the store (a write the store did not
 * keep, an event it never confirmed) are lowered, tombstones of live objects revived, what the store no longer has
 * marked removed, expired tombstones purged; what an event wrote while the reindex ran is kept when newer.
 */
import * as grpc from '@grpc/grpc-js';
import {
  callerTokens,
  createLogger,
  QueryParams,
  type ContentServiceClient,
  type ContentSnapshot,
  type DiscussionServiceClient,
  type DocumentStore,
  RebuildCheckpoints,
  type ProgressMessage,
} from '@cms/shared';
import { searchRpcs } from '../src/api/grpc';
import { entryFrom } from '../src/domain/catalog-entry';
import { commentEntry, hostOf, type CommentRecord } from '../src/domain/comment-entry';
import { buildCatalogQuery } from '../src/domain/search-query';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';
import { rebuildCatalog, rebuildSteps, type RebuildSources } from '../src/store/rebuild';

const DAY = 24 * 60 * 60_000;
const uidOf = (letter: string) => letter.repeat(32);

function snapshotOf(letter: string, version: number, title: string): ContentSnapshot {
  return {
    uid: uidOf(letter),
    path: `/${letter}`,
    id: letter,
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
    searchable_text: `${letter} ${title}`,
    allowed_roles_and_users: ['Anonymous'],
    subjects: [],
    exclude_from_nav: false,
    language: '',
  };
}

function commentOn(letter: string, commentId: string, text: string): CommentRecord {
  return {
    content_uid: uidOf(letter),
    comment_id: commentId,
    version: 1,
    in_reply_to: '',
    text,
    mime_type: 'text/plain',
    author_username: 'bob',
    author_name: 'Bob',
    review_state: 'published',
    created: '2030-01-02T00:00:00.000Z',
    modified: '2030-01-02T00:00:00.000Z',
  };
}

/** A site without comments: the discussion store's scan yields nothing. */
const noComments = () => [][Symbol.iterator]();

describe.each(STORE_ENGINES)('rebuildCatalog on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let catalog: Catalog;
  /** A clock that moves one second each time it is read. */
  let time: number;
  const now = () => new Date((time += 1000));
  const at = (ms: number) => new Date(ms).toISOString();

  beforeEach(async () => {
    opened = await engine.open();
    store = opened.store;
    catalog = new Catalog(store);
    await catalog.ensureIndexes();
    time = Date.parse('2030-06-01T00:00:00.000Z');
  });

  afterEach(async () => {
    await opened.dispose();
  });

  const anonymousFinds = async (text: string) =>
    (
      await catalog.search(
        buildCatalogQuery(new QueryParams([{ key: 'SearchableText', value: text }]), '/', callerTokens(null)),
      )
    ).total;
  const entry = (letter: string) => catalog.entries.findOne({ _id: uidOf(letter) });

  it('makes the catalog what the content store holds, lowering what is ahead of it', async () => {
    const before = at(time - DAY);
    // a: the catalog has a version the store does not (a write that failed); b: a tombstone of a live object;
    // c: behind the store; d: gone from the store; e: an event lands while the reindex runs.
    await catalog.put(entryFrom(snapshotOf('a', 5, 'Unsaved headline'), before));
    await catalog.markRemoved([uidOf('b')], before);
    await catalog.put(entryFrom(snapshotOf('c', 1, 'Draft'), before));
    await catalog.put(entryFrom(snapshotOf('d', 1, 'Deleted meanwhile'), before));
    await catalog.put(entryFrom(snapshotOf('e', 1, 'First'), before));

    async function* scan(): AsyncGenerator<ContentSnapshot> {
      yield snapshotOf('a', 4, 'Saved headline');
      yield snapshotOf('b', 2, 'Still here');
      yield snapshotOf('c', 3, 'Final');
      // Read by the scan at version 2; its version 3 event is applied before the reindex writes it.
      await catalog.put(entryFrom(snapshotOf('e', 3, 'Third'), now().toISOString()));
      yield snapshotOf('e', 2, 'Second');
    }
    const result = await rebuildCatalog(
      catalog,
      { snapshots: scan, comments: noComments },
      { now, tombstoneRetentionMs: 7 * DAY },
    );

    expect(result).toEqual({ indexed: 4, removed: 1, purged: 0 });
    expect(await entry('a')).toMatchObject({ version: 4, title: 'Saved headline' });
    expect(await entry('b')).toMatchObject({ version: 2, title: 'Still here' });
    expect(await entry('b')).not.toHaveProperty('deleted');
    expect(await entry('c')).toMatchObject({ version: 3, title: 'Final' });
    expect(await entry('d')).toMatchObject({ deleted: true });
    expect(await entry('e')).toMatchObject({ version: 3, title: 'Third' });
    expect(await anonymousFinds('unsaved')).toBe(0);
    expect(await anonymousFinds('saved')).toBe(1);
    expect(await anonymousFinds('still')).toBe(1);
  });

  it('purges the tombstones older than the retention, and keeps the newer ones', async () => {
    await catalog.markRemoved([uidOf('o')], at(time - 8 * DAY));
    await catalog.markRemoved([uidOf('n')], at(time - 6 * DAY));
    async function* scan(): AsyncGenerator<ContentSnapshot> {
      yield snapshotOf('l', 1, 'Live');
    }
    const result = await rebuildCatalog(
      catalog,
      { snapshots: scan, comments: noComments },
      { now, tombstoneRetentionMs: 7 * DAY },
    );
    expect(result).toEqual({ indexed: 1, removed: 0, purged: 1 });
    expect(await entry('o')).toBeNull();
    expect(await entry('n')).toMatchObject({ deleted: true });
    expect(await entry('l')).toMatchObject({ version: 1 });
  });

  it('cut short, leaves the catalog no worse: what it wrote is the store’s, nothing is removed; then starts over', async () => {
    const before = at(time - DAY);
    await catalog.put(entryFrom(snapshotOf('a', 5, 'Unsaved headline'), before));
    await catalog.put(entryFrom(snapshotOf('b', 1, 'Draft'), before));
    await catalog.put(entryFrom(snapshotOf('d', 1, 'Deleted meanwhile'), before));
    let scanClosed = false;
    async function* scan(): AsyncGenerator<ContentSnapshot> {
      try {
        yield snapshotOf('a', 4, 'Saved headline');
        yield snapshotOf('b', 2, 'Final');
        yield snapshotOf('c', 1, 'New');
      } finally {
        scanClosed = true;
      }
    }
    const options = { now, tombstoneRetentionMs: 7 * DAY };
    const steps = rebuildSteps(catalog, { snapshots: scan, comments: noComments }, 3, options);
    expect((await steps.next()).value).toEqual({ done: 1, total: 3, what: '/a' });
    // The caller goes away (the tool killed, the call cancelled) after the first object.
    await steps.return({ indexed: 0, removed: 0, purged: 0 });
    expect(scanClosed).toBe(true);
    expect(await entry('a')).toMatchObject({ version: 4, title: 'Saved headline' });
    expect(await entry('b')).toMatchObject({ version: 1, title: 'Draft' });
    expect(await entry('d')).not.toHaveProperty('deleted');
    expect(await entry('c')).toBeNull();

    // Run again, it starts over and completes.
    const progress: string[] = [];
    const again = rebuildSteps(catalog, { snapshots: scan, comments: noComments }, 3, options);
    for (let step = await again.next(); ; step = await again.next()) {
      if (step.done) {
        expect(step.value).toEqual({ indexed: 3, removed: 1, purged: 0 });
        break;
      }
      progress.push(`${step.value.done}/${step.value.total} ${step.value.what}`);
    }
    expect(progress).toEqual(['1/3 /a', '2/3 /b', '3/3 /c', '3/3 comments', '3/3 stale entries']);
    expect(await entry('b')).toMatchObject({ version: 2, title: 'Final' });
    expect(await entry('d')).toMatchObject({ deleted: true });
  });

  it('cut short after two objects, goes on from its checkpoint: scans only the rest, ends as a full rebuild', async () => {
    const objects = ['a', 'b', 'c', 'e'].map((letter) => snapshotOf(letter, 2, `Title ${letter}`));
    // A comment on an object scanned before the cut (a) and one on an object scanned after it (e).
    const comments = [commentOn('a', '1001', 'Marmalade'), commentOn('e', '1002', 'Quince')];
    const seed = async (into: Catalog) => {
      const before = at(time - DAY);
      await into.put(entryFrom(snapshotOf('a', 5, 'Unsaved headline'), before));
      await into.put(entryFrom(snapshotOf('d', 1, 'Deleted meanwhile'), before));
      await into.put(commentEntry(commentOn('d', '1000', 'Gone'), hostOf(snapshotOf('d', 1, 'Deleted')), before));
    };
    const scanned: string[] = [];
    const sources: RebuildSources = {
      async *snapshots(afterUid) {
        for (const object of objects.filter((o) => o.uid > afterUid)) {
          scanned.push(object.id);
          yield object;
        }
      },
      comments: () => comments,
    };
    const options = { now, tombstoneRetentionMs: 7 * DAY };
    const checkpoints = new RebuildCheckpoints(store, 'reindex');
    await seed(catalog);

    const first = rebuildSteps(catalog, sources, 4, options, checkpoints);
    await first.next();
    await first.next();
    await first.return({ indexed: 0, removed: 0, purged: 0 });
    expect(scanned).toEqual(['a', 'b']);
    expect(await checkpoints.load()).toMatchObject({ after_uid: uidOf('b'), done: 2, scan_complete: false });
    expect(await entry('d')).not.toHaveProperty('deleted');

    scanned.length = 0;
    const progress: string[] = [];
    const resumed = rebuildSteps(catalog, sources, 4, options, checkpoints);
    for (let step = await resumed.next(); ; step = await resumed.next()) {
      if (step.done) {
        expect(step.value).toEqual({ indexed: 6, removed: 2, purged: 0 });
        break;
      }
      progress.push(`${step.value.done}/${step.value.total} ${step.value.what.replace(/\d{4}-.*/, '<time>')}`);
    }
    expect(scanned).toEqual(['c', 'e']);
    expect(progress).toEqual([
      '2/4 resuming the rebuild begun at <time>',
      '3/4 /c',
      '4/4 /e',
      '4/4 comments',
      '4/4 stale entries',
    ]);
    expect(await checkpoints.load()).toBeNull();

    // The same rebuild in one go, on a catalog seeded alike: the same entries.
    const other = await engine.open();
    try {
      const full = new Catalog(other.store);
      await full.ensureIndexes();
      await seed(full);
      await rebuildCatalog(full, sources, options);
      const withoutTimes = async (of: Catalog) =>
        (await of.entries.find({}, { sort: { _id: 1 } })).map(({ indexed_at: _indexedAt, ...rest }) => rest);
      expect(await withoutTimes(catalog)).toEqual(await withoutTimes(full));
    } finally {
      await other.dispose();
    }
    expect(await entry('d')).toMatchObject({ deleted: true });
    expect(await catalog.entries.findOne({ _id: 'comment-1001' })).toMatchObject({
      path: '/a/++conversation++default/1001',
    });
    expect(await catalog.entries.findOne({ _id: 'comment-1000' })).toMatchObject({ deleted: true });
    expect(await entry('a')).toMatchObject({ version: 2, total_comments: 1 });

    // Ended: its checkpoint is gone, so the next rebuild starts over.
    scanned.length = 0;
    await rebuildCatalog(catalog, sources, options);
    await rebuildSteps(catalog, sources, 4, options, checkpoints).next();
    expect(scanned).toEqual(['a', 'b', 'c', 'e', 'a']);
  });

  it('stops the Reindex call’s rebuild when its caller cancels: the scan is cancelled, nothing removed', async () => {
    await catalog.put(entryFrom(snapshotOf('d', 1, 'Deleted meanwhile'), at(time - DAY)));
    // The clock progress messages are paced by (one at most every 250 ms): moved by the scan below.
    let clock = 0;
    const dateNow = jest.spyOn(Date, 'now').mockImplementation(() => clock);
    let scanCancelled = false;
    async function* scan(): AsyncGenerator<ContentSnapshot> {
      yield snapshotOf('a', 1, 'First');
      yield snapshotOf('b', 1, 'Second');
      // Later than the pace: the next step is sent, and the server sees the cancellation there.
      clock += 1000;
      yield snapshotOf('c', 1, 'Third');
      yield snapshotOf('e', 1, 'Never reached');
    }
    const content = {
      waitForReady: (_deadline: Date, done: (error?: Error) => void) => done(),
      CountObjects: (_r: object, _m: grpc.Metadata, _o: object, done: (e: null, r: { count: number }) => void) =>
        done(null, { count: 4 }),
      Scan: () => Object.assign(scan(), { cancel: () => (scanCancelled = true) }),
    } as unknown as ContentServiceClient;
    const discussion = {
      waitForReady: (_deadline: Date, done: (error?: Error) => void) => done(),
      ScanComments: () => noComments(),
    } as unknown as DiscussionServiceClient;
    const rpcs = searchRpcs(
      catalog,
      () => content,
      () => discussion,
      createLogger('search', 'silent'),
      { now, tombstoneRetentionMs: 7 * DAY, connectWaitMs: 1000 },
    );
    // The call as grpc-js hands it to the server: the client cancels once it has its first message.
    const written: unknown[] = [];
    let poll: NodeJS.Timeout | undefined;
    const ended = new Promise<void>((resolve) => {
      const call = {
        metadata: new grpc.Metadata(),
        request: {},
        cancelled: false,
        getPath: () => '/cms.search.v1.SearchService/Reindex',
        write(message: unknown) {
          written.push(message);
          call.cancelled = true;
          return true;
        },
        end: () => resolve(),
        destroy: () => resolve(),
      };
      rpcs.Reindex(call as unknown as Parameters<typeof rpcs.Reindex>[0]);
      // Stopped without end or destroy: resolved once the scan is cancelled.
      poll = setInterval(() => scanCancelled && resolve(), 5);
    });
    await ended.finally(() => clearInterval(poll));
    dateNow.mockRestore();

    expect(written).toEqual([{ done: 1, total: 4, what: '/a' }]);
    expect(scanCancelled).toBe(true);
    expect(await entry('a')).toMatchObject({ title: 'First' });
    expect(await entry('c')).toMatchObject({ title: 'Third' });
    expect(await entry('e')).toBeNull();
    expect(await entry('d')).not.toHaveProperty('deleted');
  });
  it('the next Reindex call goes on from where a cancelled one stopped; from_scratch starts over', async () => {
    await catalog.put(entryFrom(snapshotOf('d', 1, 'Deleted meanwhile'), at(time - DAY)));
    // Progress messages are paced by the clock (one at most every 250 ms): each object moves it past the pace.
    let clock = 0;
    const dateNow = jest.spyOn(Date, 'now').mockImplementation(() => clock);
    const objects = ['a', 'b', 'c', 'e'].map((letter) => snapshotOf(letter, 1, `Title ${letter}`));
    /** The `after_uid` of each Scan call, and whether the last one was cancelled. */
    const scansAfter: string[] = [];
    let scanCancelled = false;
    const content = {
      waitForReady: (_deadline: Date, done: (error?: Error) => void) => done(),
      CountObjects: (_r: object, _m: grpc.Metadata, _o: object, done: (e: null, r: { count: number }) => void) =>
        done(null, { count: objects.length }),
      Scan: (request: { after_uid: string }) => {
        scansAfter.push(request.after_uid);
        async function* scan() {
          for (const object of objects.filter((o) => o.uid > request.after_uid)) {
            clock += 1000;
            yield object;
          }
        }
        return Object.assign(scan(), { cancel: () => (scanCancelled = true) });
      },
    } as unknown as ContentServiceClient;
    const discussion = {
      waitForReady: (_deadline: Date, done: (error?: Error) => void) => done(),
      ScanComments: () => noComments(),
    } as unknown as DiscussionServiceClient;
    const checkpoints = new RebuildCheckpoints(store, 'reindex');
    const rpcs = searchRpcs(
      catalog,
      () => content,
      () => discussion,
      createLogger('search', 'silent'),
      { now, tombstoneRetentionMs: 7 * DAY, connectWaitMs: 1000, checkpoints },
    );
    /** One call as grpc-js hands it to the server; `cancelling`: its client goes away on the first message. */
    const reindex = (request: { from_scratch: boolean }, cancelling: boolean) => {
      const written: ProgressMessage<unknown>[] = [];
      scanCancelled = false;
      let poll: NodeJS.Timeout | undefined;
      return new Promise<ProgressMessage<unknown>[]>((resolve) => {
        const call = {
          metadata: new grpc.Metadata(),
          request,
          cancelled: false,
          getPath: () => '/cms.search.v1.SearchService/Reindex',
          write(message: ProgressMessage<unknown>) {
            written.push(message);
            call.cancelled = cancelling;
            return true;
          },
          end: () => resolve(written),
          destroy: () => resolve(written),
        };
        rpcs.Reindex(call as unknown as Parameters<typeof rpcs.Reindex>[0]);
        // Cancelled, the server stops without end or destroy: resolved once the scan is cancelled (after the
        // rebuild's own `finally`, which saves the checkpoint).
        if (cancelling) poll = setInterval(() => scanCancelled && resolve(written), 5);
      }).finally(() => clearInterval(poll));
    };

    try {
      await reindex({ from_scratch: false }, true);
      const stopped = await checkpoints.load();
      expect(stopped).toMatchObject({ scan_complete: false });
      expect(stopped!.after_uid > '').toBe(true);
      expect(stopped!.after_uid < uidOf('e')).toBe(true);

      const resumed = await reindex({ from_scratch: false }, false);
      expect(scansAfter).toEqual(['', stopped!.after_uid]);
      expect(resumed[0].what).toBe(`resuming the rebuild begun at ${stopped!.started_at}`);
      expect(resumed.at(-1)).toMatchObject({ done: 4, total: 4, result: { indexed: 4, removed: 1 } });
      expect(await checkpoints.load()).toBeNull();
      for (const letter of ['a', 'b', 'c', 'e'])
        expect(await entry(letter)).toMatchObject({ title: `Title ${letter}` });
      expect(await entry('d')).toMatchObject({ deleted: true });

      // Cut short again, then asked from scratch: the checkpoint is dropped and the scan starts at the beginning.
      await reindex({ from_scratch: false }, true);
      expect(await checkpoints.load()).not.toBeNull();
      const again = await reindex({ from_scratch: true }, false);
      expect(scansAfter.slice(2)).toEqual(['', '']);
      expect(again[0].what).toBe('/a');
      expect(again.at(-1)).toMatchObject({ done: 4, result: { indexed: 4, removed: 0 } });
    } finally {
      dateNow.mockRestore();
    }
  });
});
