/**
 * The gateway's response cache with two content replicas on one shared PostgreSQL store (issue 24, item 3): two
 * suites (every service twice, two gateways) on one database and one RabbitMQ virtual host, each gateway with its
 * cache on and every client balanced over both replicas of the service it calls. Each gateway learns both replicas from the
 * one it reaches (services/content/src/events/replica-membership.ts) and streams changes from each
 * (gateway/src/replica-subscriptions.ts), so a write through either replica reaches both caches before it answers.
 *
 * Shows: every read started after a write's answer returns that write, whichever gateway it goes to and whichever
 * replica took the write, while readers hammer both gateways and both caches serve hits.
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

const CACHE = { GATEWAY_CACHE_BYTES: String(16 * 1024 * 1024) };
const WRITES = 24;

let a: DistributedSuite;
let b: DistributedSuite;

/** An anonymous GET of `path` through `suite`'s gateway: status, title and whether the gateway's cache answered. */
async function read(suite: DistributedSuite, path: string): Promise<{ status: number; title?: string; hit: boolean }> {
  const response = await fetch(`${suite.baseUrl}${path}`, {
    headers: { Accept: 'application/json' },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let title: string | undefined;
  try {
    title = (JSON.parse(text) as { title?: string }).title;
  } catch {
    // Not JSON: counted as a stale read below.
  }
  return { status: response.status, title, hit: response.headers.get('x-cache') === 'HIT' };
}

describeWithBroker('the gateway cache with two content replicas on one PostgreSQL store', () => {
  beforeAll(async () => {
    const options = { store: 'postgres' as const, env: { ...CACHE, METRICS_PORT: 'off' }, readyTimeoutMs: 180_000 };
    a = await DistributedSuite.prepare({ name: 'replica-cache-a', ...options });
    // Balanced: each gateway's calls (its first change stream included) go to either content replica.
    b = await DistributedSuite.prepare({ name: 'replica-cache-b', ...options, replicaOf: a, balanced: true });
    await a.startAll();
    await b.startAll();
  }, 400_000);

  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
  }, 60_000);

  it('answers every read started after a write with that write, through either gateway, while both caches serve', async () => {
    await a.withLogs(async () => {
      await a.expectHttp(201, 'POST', '/', { '@type': 'Document', id: 'race', title: 'v0' });
      await a.expectHttp(200, 'POST', '/race/@workflow/publish', {});
      // Both gateways serve the page from their caches before the race starts (each has a stream to both replicas).
      for (const suite of [a, b]) {
        await pollUntil(async () => (await read(suite, '/race')).hit || undefined, 60_000, {
          description: `a cache hit through gateway ${suite === a ? 'A' : 'B'}`,
          intervalMs: 100,
        });
      }
      let acknowledged = 0;
      let writing = true;
      let reads = 0;
      const hits = { a: 0, b: 0 };
      const stale: string[] = [];
      const check = async (suite: DistributedSuite) => {
        const expected = acknowledged;
        const { status, title, hit } = await read(suite, '/race');
        reads += 1;
        if (hit) hits[suite === a ? 'a' : 'b'] += 1;
        const seen = status === 200 ? Number(title?.slice(1)) : NaN;
        if (!(seen >= expected)) stale.push(`a read after write ${expected} saw ${status} ${title}`);
      };
      const reader = (suite: DistributedSuite) => async () => {
        while (writing) await check(suite);
      };
      const readers = [a, a, b, b].map((suite) => reader(suite)());
      for (let i = 1; i <= WRITES; i++) {
        // Alternate the replica that takes the write: A's content, then B's.
        await (i % 2 ? a : b).expectHttp(204, 'PATCH', '/race', { title: `v${i}` });
        acknowledged = i;
        await Promise.all([check(a), check(b), check(a), check(b)]);
      }
      writing = false;
      await Promise.all(readers);
      expect(stale).toEqual([]);
      expect(reads).toBeGreaterThan(WRITES * 4);
      // Both caches were in use, else this would prove nothing about them.
      expect(hits.a).toBeGreaterThan(0);
      expect(hits.b).toBeGreaterThan(0);
    });
  }, 300_000);
});
