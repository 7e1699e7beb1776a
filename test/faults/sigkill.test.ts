/**
 * SIGKILL of each process of the suite in the middle of a stream of writes, then a restart: every acknowledged
 * write is in the store, the search index converges on the store without a manual step, and a reindex afterwards
 * changes nothing @search answers.
 */
import { describeWithBroker } from '../support/broker-tests';
import { catalogView, catalogViewDiff } from '../support/catalog-view';
import { DistributedSuite, type ProcessName } from '../support/distributed-suite';
import { WriteLedger, WriteStream } from '../support/write-ledger';

const VICTIMS: ProcessName[] = ['content', 'search', 'identity', 'config', 'discussion', 'gateway'];

let suite: DistributedSuite;

describeWithBroker('faults: SIGKILL of each process mid-stream', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-sigkill', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  // Each test on a whole suite, whatever the one before left.
  beforeEach(() => suite.reviveAll(), 60_000);

  test.each(VICTIMS)('%s killed mid-stream and restarted: acknowledged writes kept, index converges', (victim) =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, `Kill ${victim}`);
      const stream = new WriteStream(ledger, { seed: VICTIMS.indexOf(victim) + 1, label: victim });

      // Killed while writes are in flight: a fixed count of writes in, not a fixed time.
      const beforeKill = stream.run(40);
      await stream.untilAttempted(20);
      const killed = await suite.kill(victim);
      expect(killed.signal).toBe('SIGKILL');
      await beforeKill;
      // While it is down, and while it starts again.
      await stream.run(10);
      suite.start(victim);
      await Promise.all([stream.run(10), suite.untilReady()]);
      await stream.run(30);

      await ledger.verify();
      expect(ledger.counts.acked).toBeGreaterThan(0);
      // What the events built is what a rebuild from the store gives.
      const incremental = await catalogView(suite, ledger.word, ledger.folderPath);
      await suite.reindex();
      expect(catalogViewDiff(incremental, await catalogView(suite, ledger.word, ledger.folderPath))).toBe('');
    }),
  );
});
