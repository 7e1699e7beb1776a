/**
 * `reindex` (services/search/dist/reindex.js, the manual step an operator runs) against the running suite: on a
 * catalog kept by events it changes nothing a client can see (reindex equals incremental), and after content's
 * data is restored from an older copy it brings the catalog back to the store, versions ahead included.
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { catalogView, catalogViewDiff } from '../support/catalog-view';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { untilIndexMatchesStore, writeHistory, WriteLedger, WriteStream } from '../support/write-ledger';

let suite: DistributedSuite;

describeWithBroker('faults: reindex equals incremental', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-reindex', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  beforeEach(() => suite.reviveAll(), 60_000);

  test('on a healthy suite, reindex changes nothing @search answers', () =>
    suite.withLogs(async () => {
      const ledger = await writeHistory(suite, 'Reindex');
      await new WriteStream(ledger, { seed: 51, label: 'stream' }).run(40);
      await ledger.verify();
      const incremental = await catalogView(suite, ledger.word, ledger.folderPath);

      const summary = await suite.reindex();
      const reindexed = await catalogView(suite, ledger.word, ledger.folderPath);

      expect(catalogViewDiff(incremental, reindexed, ['incremental', 'reindexed'])).toBe('');
      expect(summary).toMatch(/removed 0 stale entries/);
      await ledger.verify();
    }));

  test('after content is restored from an older copy of its data, reindex brings the catalog back to the store', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Restored');
      await new WriteStream(ledger, { seed: 52, label: 'before' }).run(12);
      await ledger.verify();
      const contentData = join(suite.dataDir, 'content');
      const backup = join(suite.dataDir, 'content-backup');

      // A copy of content's data, taken while it is stopped.
      await suite.process('content').stop(10_000);
      cpSync(contentData, backup, { recursive: true });
      suite.start('content');
      await suite.untilReady();
      // Changes after the copy, which the catalog follows: titles (versions ahead), deletions, creates, a publication.
      const live = ledger.live();
      for (const object of live.slice(0, 3))
        expect(await ledger.patchTitle(object, ledger.nextTitle('after'))).toBe('acked');
      expect(await ledger.remove(live[3])).toBe('acked');
      await ledger.transitionAcked(live[4], 'publish');
      for (let i = 0; i < 2; i++) expect(await ledger.create(ledger.nextTitle('new'))).toBe('acked');
      await ledger.verify();

      // Content's data restored from the copy.
      await suite.process('content').stop(10_000);
      rmSync(contentData, { recursive: true, force: true });
      cpSync(backup, contentData, { recursive: true });
      suite.start('content');
      await suite.untilReady();

      await suite.reindex();
      // The whole catalog is the store's again: the store is what was copied, the catalog had gone past it.
      await untilIndexMatchesStore(suite, suite.baseUrl, 20_000, 'after the restore and a reindex');
    }));
});
