import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type DocumentStore, type Principal__Output } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { png, upload } from '../../../test/support/images';
import type { Caller } from '../src/domain/content';
import { ContentCommands } from '../src/domain/content';
import { fileValuesOf } from '../src/domain/content';
import type { FileStorage, FileValue } from '../src/domain/files';
import { FolderOrdering } from '../src/domain/tree';
import { LockCheck } from '../src/domain/locks';
import type { ContentDoc } from '../src/domain/content';
import type { ContentWriteStore } from '../src/domain/content';
import type { PrincipalDirectory } from '../src/domain/sharing';
import { STALE_GRACE_MS, SubtreeFollower } from '../src/domain/tree';
import { builtinTypeRegistry } from '../src/domain/types';
import { VersionKeeper, versionFiles } from '../src/domain/history';
import { WorkingCopies } from '../src/domain/working-copies';
import { ContentWriter } from '../src/domain/content';
import { BlobFileStorage } from '../src/store/blob-file-storage';
import { openEmbeddedBlobStore } from '../src/store/blobs/embedded';
import type { BlobStore } from '../src/store/blobs/port';
import { StoreContentRepository } from '../src/store/content-repository';
import { StoreVersionArchive } from '../src/store/version-archive';

/**
 * A check-out, check-in or cancel writes several documents (and blobs). These tests kill the process at every
 * step of one in turn (every write of a document and every blob operation after the kill fails, as nothing runs
 * in a dead process), restart on the same data folder, and check that the sweep leaves the working copy either
 * fully done or not done at all, with no mark left, no blob in use deleted, and — once the original's write has
 * committed — no blob leaked.
 */

const types = builtinTypeRegistry();
const relay = { flush: async () => undefined };
const directory: PrincipalDirectory = {
  describe: async (ids) => ids.map((id) => ({ id, title: id, type: 'user', roles: [] })),
  search: async () => [],
};
const callerFor = (id: string, roles: string[]): Caller => ({
  principal: { id, roles, groups: [], fullname: id } as unknown as Principal__Output,
  requestId: `request-of-${id}`,
  publicUrl: 'http://cms.test',
});
const admin = callerFor('admin', ['Manager']);
const ed = callerFor('ed', ['Editor']);

const OLD_IMAGE = png(4, 4, 1);
const NEW_IMAGE = png(5, 3, 2);

class Killed extends Error {}

/** Lets `steps` document writes and blob operations happen, then fails every later one. */
class Kill {
  dead = false;

  constructor(private steps: number) {}

  private step(): void {
    if (this.dead || this.steps-- <= 0) {
      this.dead = true;
      throw new Killed('killed');
    }
  }

  store(repo: StoreContentRepository): ContentWriteStore {
    return {
      byUid: (uid) => repo.byUid(uid),
      insertNew: async (doc, events) => (this.step(), repo.insertNew(doc, events)),
      applyChange: async (uid, version, change, events) => (
        this.step(),
        repo.applyChange(uid, version, change, events)
      ),
    };
  }

  files(files: FileStorage): Pick<FileStorage, 'duplicate' | 'release'> {
    return {
      duplicate: async (value) => (this.step(), files.duplicate(value)),
      release: async (values) => (this.step(), files.release(values)),
    };
  }
}

/** The content service's domain over an embedded store and blob folder under `dir`; `kill` fails it at a step. */
async function boot(dir: string, kill?: Kill) {
  const store: DocumentStore = await openEmbeddedStore(join(dir, 'docs'));
  const blobs: BlobStore = await openEmbeddedBlobStore(join(dir, 'blobs'));
  const repo = new StoreContentRepository(store);
  await repo.ensureIndexes();
  const archive = new StoreVersionArchive(store);
  await archive.ensureIndexes();
  const versions = new VersionKeeper(archive, types);
  const files = new BlobFileStorage(blobs, 1_000_000, createLogger('test', 'silent'));
  const writer = new ContentWriter(kill ? kill.store(repo) : repo, relay, { locks: new LockCheck(), versions });
  const follower = new SubtreeFollower(repo, writer);
  const commands = new ContentCommands(repo, writer, files, types, follower, new FolderOrdering(repo, writer));
  const workingCopies = new WorkingCopies(repo, writer, follower, kill ? kill.files(files) : files, types, directory);
  follower.register(workingCopies);
  return {
    repo,
    versions,
    blobs,
    commands,
    workingCopies,
    follower,
    async close() {
      await store.close();
      await blobs.close();
    },
  };
}
type Booted = Awaited<ReturnType<typeof boot>>;

/** The blob ids on disk. */
function blobsOnDisk(dir: string): Set<string> {
  const root = join(dir, 'blobs');
  if (!existsSync(root)) return new Set();
  return new Set(
    readdirSync(root)
      .filter((shard) => shard !== 'tmp')
      .flatMap((shard) => readdirSync(join(root, shard))),
  );
}

/** Every blob a live object or one of its versions refers to. */
async function blobsInUse(app: Booted): Promise<Set<string>> {
  const used = new Set<string>();
  const docs = [(await app.repo.byPath('/'))!, ...(await app.repo.descendants((await app.repo.byPath('/'))!._id))];
  for (const doc of docs) {
    for (const file of fileValuesOf(doc, types)) used.add(file.blob_id);
    for (const record of await app.versions.versionsOf(doc))
      for (const file of versionFiles(record)) used.add(file.blob_id);
  }
  return used;
}

async function bytesOf(app: Booted, doc: ContentDoc): Promise<Buffer | null> {
  return app.blobs.get((doc.fields?.image as FileValue).blob_id);
}

/** A published News Item with an image at /news, checked out by ed, its copy edited (title and image). */
async function seed(app: Booted, { checkedOut = true, edited = true } = {}): Promise<void> {
  await app.commands.ensureSiteRoot('Site', 'site', 'admin');
  const root = (await app.repo.byPath('/'))!;
  const { doc } = await app.commands.create(
    root,
    types.get('News Item'),
    { id: 'news', title: 'Old news', image: upload(OLD_IMAGE, 'old.png', 'image/png') },
    admin,
  );
  if (!checkedOut) return;
  const copy = await app.workingCopies.checkOut(doc, ed);
  if (!edited) return;
  await app.commands.update(
    copy,
    { values: { title: 'Fresh news', image: upload(NEW_IMAGE, 'new.png', 'image/png') } },
    ed,
  );
}

interface Outcome {
  /** Whether the operation had not finished by itself: the sweep had something to do after the restart. */
  halfWay: boolean;
  done: boolean;
}

/**
 * Runs `operation` killed after each number of steps in turn (until it runs through), restarts, sweeps and
 * checks `consistent`; returns what each run left.
 */
async function atEveryStep(
  prepare: (app: Booted) => Promise<void>,
  operation: (app: Booted) => Promise<unknown>,
  consistent: (app: Booted) => Promise<boolean>,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let steps = 0; steps < 50; steps++) {
    const dir = mkdtempSync(join(tmpdir(), 'cms-workingcopy-'));
    try {
      const first = await boot(dir);
      await prepare(first);
      expect(blobsOnDisk(dir)).toEqual(await blobsInUse(first));
      await first.close();

      const kill = new Kill(steps);
      const dying = await boot(dir, kill);
      const finished = await operation(dying).then(
        () => true,
        (error) => {
          if (!(error instanceof Killed) && !kill.dead) throw error;
          return false;
        },
      );
      await dying.close();

      // The restart: a new process on the same data, whose sweep finds the marks old enough.
      const restarted = await boot(dir);
      const original = (await restarted.repo.byPath('/news'))!;
      const halfWay = original.iteration_pending !== undefined;
      const later = new Date(Date.now() + STALE_GRACE_MS * 2);
      expect(await restarted.follower.sweep(new Date(), 'sweep-now')).toBe(0);
      await restarted.follower.sweep(later, 'sweep');
      const swept = (await restarted.repo.byPath('/news'))!;
      expect(swept.iteration_pending).toBeUndefined();
      expect(swept.subtree_stale).toBeUndefined();
      expect(await restarted.follower.sweep(later, 'sweep')).toBe(0);
      const done = await consistent(restarted);

      // No blob in use is gone; none is left over, unless the process died before the original's write (the
      // blobs duplicated for it, as an upload whose write never came).
      const onDisk = blobsOnDisk(dir);
      const inUse = await blobsInUse(restarted);
      expect([...inUse].filter((id) => !onDisk.has(id))).toEqual([]);
      const leaked = [...onDisk].filter((id) => !inUse.has(id));
      if (halfWay || done) expect(leaked).toEqual([]);
      outcomes.push({ halfWay, done });
      await restarted.close();
      if (finished) return outcomes;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error('the operation never ran through');
}

describe('a process killed between the documents of a working-copy operation', () => {
  it('a check-in is finished by the sweep, or was not made at all', async () => {
    const outcomes = await atEveryStep(
      (app) => seed(app),
      async (app) => app.workingCopies.checkIn((await app.repo.byPath('/copy_of_news'))!, 'From the copy', ed),
      async (app) => {
        const original = (await app.repo.byPath('/news'))!;
        const copy = await app.repo.byPath('/copy_of_news');
        if (original.title === 'Old news') {
          // Not checked in: still checked out, the copy as edited.
          expect(original.working_copy?.uid).toBe(copy?._id);
          expect(original.lock?.name).toBe('iterate.lock');
          expect(copy?.working_copy_of).toBe(original._id);
          expect((await bytesOf(app, original))?.equals(OLD_IMAGE)).toBe(true);
          expect((await bytesOf(app, copy!))?.equals(NEW_IMAGE)).toBe(true);
          return false;
        }
        // Checked in: the original took the copy's title and image, kept its id and state; the copy is gone.
        expect(original).toMatchObject({ id: 'news', title: 'Fresh news' });
        expect(original.working_copy).toBeUndefined();
        expect(original.lock).toBeUndefined();
        expect(copy).toBeNull();
        expect((await bytesOf(app, original))?.equals(NEW_IMAGE)).toBe(true);
        const versions = await app.versions.versionsOf(original);
        expect(versions.at(-1)).toMatchObject({ actor: 'ed', comments: 'From the copy' });
        return true;
      },
    );
    // Some runs died after the original's write and before the copy was deleted: the sweep finished those.
    expect(outcomes.some((o) => o.halfWay && o.done)).toBe(true);
    expect(outcomes.at(-1)).toEqual({ halfWay: false, done: true });
    expect(outcomes[0]).toEqual({ halfWay: false, done: false });
  });

  it('a cancel is finished by the sweep, or was not made at all', async () => {
    const outcomes = await atEveryStep(
      (app) => seed(app),
      async (app) => app.workingCopies.cancel((await app.repo.byPath('/news'))!, ed),
      async (app) => {
        const original = (await app.repo.byPath('/news'))!;
        const copy = await app.repo.byPath('/copy_of_news');
        expect(original.title).toBe('Old news');
        expect((await bytesOf(app, original))?.equals(OLD_IMAGE)).toBe(true);
        if (copy) {
          expect(original.working_copy?.uid).toBe(copy._id);
          expect(original.lock?.name).toBe('iterate.lock');
          return false;
        }
        expect(original.working_copy).toBeUndefined();
        expect(original.lock).toBeUndefined();
        return true;
      },
    );
    expect(outcomes.some((o) => o.halfWay && o.done)).toBe(true);
    expect(outcomes.at(-1)).toEqual({ halfWay: false, done: true });
  });

  it('a check-out whose copy was never made is undone by the sweep', async () => {
    const outcomes = await atEveryStep(
      (app) => seed(app, { checkedOut: false }),
      async (app) => app.workingCopies.checkOut((await app.repo.byPath('/news'))!, ed),
      async (app) => {
        const original = (await app.repo.byPath('/news'))!;
        const copy = await app.repo.byPath('/copy_of_news');
        if (!copy) {
          expect(original.working_copy).toBeUndefined();
          expect(original.lock).toBeUndefined();
          return false;
        }
        expect(original.working_copy).toEqual({ uid: copy._id, creator: 'ed' });
        expect(original.lock).toMatchObject({ name: 'iterate.lock', creator: 'ed', stealable: false });
        expect(copy).toMatchObject({ working_copy_of: original._id, review_state: 'private' });
        expect((await bytesOf(app, copy))?.equals(OLD_IMAGE)).toBe(true);
        expect(copy.fields?.image).not.toEqual(original.fields?.image);
        return true;
      },
    );
    // A run died after the original's write and before the copy was made: the sweep undid it.
    expect(outcomes.some((o) => o.halfWay && !o.done)).toBe(true);
    expect(outcomes.at(-1)).toEqual({ halfWay: false, done: true });
  });

  it('leaves a mark younger than the grace to the request that set it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-workingcopy-'));
    try {
      const first = await boot(dir);
      await seed(first);
      await first.close();
      const kill = new Kill(2); // the copy's image duplicated, the original written; then the process dies
      const dying = await boot(dir, kill);
      await expect(
        dying.workingCopies.checkIn((await dying.repo.byPath('/copy_of_news'))!, undefined, ed),
      ).rejects.toBeInstanceOf(Killed);
      await dying.close();
      const restarted = await boot(dir);
      const original = (await restarted.repo.byPath('/news'))!;
      expect(original.iteration_pending?.op).toBe('checkin');
      // A subtree walk of the original (a rename's) leaves the mark the check-in still needs.
      await restarted.follower.follow(original, 'walk');
      expect((await restarted.repo.byPath('/news'))?.subtree_stale).toBe(original.subtree_stale);
      expect(await restarted.follower.sweep(new Date(Date.now() + STALE_GRACE_MS / 2), 'sweep')).toBe(0);
      expect(await restarted.repo.byPath('/copy_of_news')).not.toBeNull();
      expect(await restarted.follower.sweep(new Date(Date.now() + STALE_GRACE_MS * 2), 'sweep')).toBe(1);
      expect(await restarted.repo.byPath('/copy_of_news')).toBeNull();
      await restarted.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
