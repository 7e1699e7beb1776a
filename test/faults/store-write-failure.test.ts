/**
 * A write the embedded store fails to persist (content's collection file refuses appends) while everything else
 * runs: it must not be served or indexed as if it had happened, so that after content restarts (and loses what it
 * never wrote) the store still holds every acknowledged write and the index converges on the store without a
 * manual step; a reindex afterwards changes nothing.
 */
import { mkdirSync, readdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { WriteLedger } from '../support/write-ledger';

const CONVERGE_MS = 20_000;

let suite: DistributedSuite;

/** The file content's objects are kept in (`<DATA_DIR>/content/.../content.db`). */
function contentCollectionFile(): string {
  const search = (dir: string): string | undefined => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'content.db') return path;
      if (statSync(path).isDirectory()) {
        const found = search(path);
        if (found) return found;
      }
    }
    return undefined;
  };
  const found = search(join(suite.dataDir, 'content'));
  if (!found) throw new Error(`No content.db under ${join(suite.dataDir, 'content')}`);
  return found;
}

describeWithBroker('faults: a write the store fails to persist', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-store-failure', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  test('is neither served nor indexed, and is gone after a restart without the index keeping it', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Failed write');
      for (let i = 0; i < 4; i++) expect(await ledger.create(ledger.nextTitle('doc'))).toBe('acked');
      await ledger.verify();
      const [victim] = ledger.live();
      const file = contentCollectionFile();
      const failedTitle = ledger.nextTitle('never written');

      // The disk refuses content's writes: its collection file is, for now, a directory (appends fail with EISDIR).
      renameSync(file, `${file}.aside`);
      mkdirSync(file);
      let seen: string;
      try {
        const outcome = await ledger.patchTitle(victim, failedTitle);
        expect(outcome).not.toBe('acked');
        // Readers see the failed write, or not; if they do, wait until search has had the chance to index it too.
        seen = await pollUntil(
          async () => {
            const stored = await suite.expectHttp(200, 'GET', victim.url);
            if (stored.title !== failedTitle) return 'not served';
            const indexed = await ledger.indexView();
            return indexed.some((item) => item.title === failedTitle) ? 'served and indexed' : undefined;
          },
          CONVERGE_MS,
          { description: 'the failed write to be either not served, or served and indexed' },
        );
        // Content dies before the disk comes back: whatever it held only in memory is gone.
        await suite.kill('content');
      } finally {
        rmdirSync(file);
        renameSync(`${file}.aside`, file);
      }
      suite.start('content');
      await suite.untilReady();

      const context = (error: Error) => {
        error.message += `\n(before the restart, the failed write was ${seen})`;
        throw error;
      };
      await ledger.verify(CONVERGE_MS).catch(context);
      expect((await suite.expectHttp(200, 'GET', victim.url)).title).not.toBe(failedTitle);
      // The object's next acknowledged change is indexed, and a reindex agrees with the index.
      expect(await ledger.patchTitle(victim, ledger.nextTitle('after'))).toBe('acked');
      await ledger.verify(CONVERGE_MS).catch(context);
      await suite.reindex();
      await ledger.verify(CONVERGE_MS).catch(context);
    }));
});
