/**
 * SIGKILL of one replica of each kind (content, search, identity, discussion, config, a gateway) in the middle of
 * streams of writes through both gateways, on two replicas of every service sharing one PostgreSQL database and
 * one RabbitMQ virtual host; then a restart of the killed replica. Every acknowledged write is in the shared store
 * and reads the same through either gateway, the one catalog converges on the store without a manual step, and a
 * reindex afterwards changes nothing @search answers.
 */
import { describeWithBroker } from '../support/broker-tests';
import { catalogView, catalogViewDiff } from '../support/catalog-view';
import { DistributedSuite, type ProcessName } from '../support/distributed-suite';
import {
  storeTree,
  summaryDiff,
  untilIndexMatchesStore,
  WriteLedger,
  WriteStream,
  type Summary,
} from '../support/write-ledger';

/** Each kind of process once, in one suite or the other (a killed gateway's writes are uncertain until it is back). */
const VICTIMS: [ProcessName, 'a' | 'b'][] = [
  ['content', 'a'],
  ['search', 'b'],
  ['identity', 'a'],
  ['discussion', 'b'],
  ['config', 'a'],
  ['gateway', 'b'],
];
/** Twelve processes on a small machine. */
const READY_TIMEOUT_MS = 180_000;
const CONVERGE_TIMEOUT_MS = 90_000;

let a: DistributedSuite;
let b: DistributedSuite;

const withBothLogs = <T>(body: () => Promise<T>) => a.withLogs(body, [b]);

/** Summaries with their `@id` as a path, so that what two gateways answer compares. */
const byPath = (items: Summary[]) => items.map((item) => ({ ...item, '@id': new URL(item['@id']).pathname }));

/** The ledger's folder through the other gateway holds what it holds through the ledger's own, and is indexed so. */
async function sameThrough(other: DistributedSuite, ledger: WriteLedger): Promise<void> {
  const own = byPath(await ledger.storeView());
  const folder = other.baseUrl + ledger.folderPath;
  const diff = summaryDiff(own, byPath(await storeTree(other, folder)), ['own gateway', 'other gateway']);
  expect(diff).toBe('');
  await untilIndexMatchesStore(other, folder, CONVERGE_TIMEOUT_MS, `${ledger.describe()}, through the other gateway`);
}

describeWithBroker('faults: SIGKILL of each kind of replica mid-stream, on one shared PostgreSQL store', () => {
  beforeAll(
    async () => {
      const options = { store: 'postgres' as const, logTailChars: 6000, readyTimeoutMs: READY_TIMEOUT_MS };
      a = await DistributedSuite.prepare({ name: 'faults-replicas-a', ...options });
      // Every client over both suites' replicas: while one is down, its callers go on with the other.
      b = await DistributedSuite.prepare({ name: 'faults-replicas-b', replicaOf: a, balanced: true, ...options });
      // One after the other: the first start makes the tables and seeds the site, the replicas find them.
      await a.startAll();
      await b.startAll();
    },
    2 * READY_TIMEOUT_MS + 60_000,
  );

  afterAll(async () => {
    // The replicas first: the primary drops the database and the virtual host they use.
    await b?.dispose();
    await a?.dispose();
  }, 60_000);

  // Each test on whole suites, whatever the one before left.
  beforeEach(async () => {
    await a.reviveAll();
    await b.reviveAll();
  }, 2 * READY_TIMEOUT_MS);

  test.each(VICTIMS)(
    '%s of suite %s killed mid-stream and restarted: acknowledged writes kept through both gateways, index converges',
    (victim, side) =>
      withBothLogs(async () => {
        const suite = side === 'a' ? a : b;
        const seed = 2 * VICTIMS.findIndex(([name]) => name === victim) + 1;
        const ledgers = [
          await WriteLedger.inNewFolder(a, `Kill ${victim} via A`),
          await WriteLedger.inNewFolder(b, `Kill ${victim} via B`),
        ];
        const streams = ledgers.map(
          (ledger, i) => new WriteStream(ledger, { seed: seed + i, label: `${victim}-${i === 0 ? 'a' : 'b'}` }),
        );
        const run = (count: number) => Promise.all(streams.map((stream) => stream.run(count)));

        // Killed while writes are in flight through both gateways: a fixed count of writes in, not a fixed time.
        const beforeKill = run(40);
        await Promise.all(streams.map((stream) => stream.untilAttempted(20)));
        const killed = await suite.kill(victim);
        expect(killed.signal).toBe('SIGKILL');
        await beforeKill;
        // While it is down, and while it starts again.
        await run(10);
        suite.start(victim);
        await Promise.all([run(10), suite.untilReady()]);
        await run(30);

        for (const ledger of ledgers) {
          await ledger.verify(CONVERGE_TIMEOUT_MS);
          expect(ledger.counts.acked).toBeGreaterThan(0);
        }
        await sameThrough(b, ledgers[0]);
        await sameThrough(a, ledgers[1]);

        // What the events built into the shared catalog is what a rebuild from the shared store gives.
        const views = async () => Promise.all(ledgers.map((ledger) => catalogView(a, ledger.word, ledger.folderPath)));
        const incremental = await views();
        await a.reindex();
        const rebuilt = await views();
        for (const [i, view] of incremental.entries()) expect(catalogViewDiff(view, rebuilt[i])).toBe('');
      }),
    600_000,
  );
});
