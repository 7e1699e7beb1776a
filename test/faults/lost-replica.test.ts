/**
 * A content replica killed in the middle of a folder's rename while another replica on the same PostgreSQL store
 * lives on (issue 25, item 5). The survivor sees the killed one's record expire unremoved and finishes its walk at
 * once; the search index then shows the new tree. The periodic sweep's grace is set far beyond this test's
 * waits (TREE_SWEEP_GRACE_MS), so only that takeover can finish the walk in time: before it, the old tree stayed
 * in @search for 30–60 s (the sweep's interval and grace).
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, inParallel, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

/** Enough documents that the rename's walk of them takes many writes, so that the kill can land in it. */
const DOCUMENTS = 150;
const READY_TIMEOUT_MS = 180_000;
/** Far longer than any wait below: the periodic sweep never takes over a mark in this test. */
const GRACE = { TREE_SWEEP_GRACE_MS: String(60 * 60_000) };

let a: DistributedSuite;
let b: DistributedSuite;

/** Every path @search finds with `word` through `suite`'s gateway, and its `X-Search-Lag` (null: current). */
async function searchPaths(suite: DistributedSuite, word: string): Promise<{ paths: string[]; lag: string | null }> {
  const result = await suite.http('GET', `/@search?SearchableText=${word}&b_size=1000`);
  if (result.status !== 200) throw new Error(`@search answered ${result.status}: ${result.text}`);
  const paths = (result.body.items as { '@id': string }[]).map((item) => new URL(item['@id']).pathname).sort();
  return { paths, lag: result.headers.get('x-search-lag') };
}

describeWithBroker('faults: a content replica lost mid-rename, its walk finished by the one that lives on', () => {
  beforeAll(
    async () => {
      const options = { store: 'postgres' as const, logTailChars: 6000, readyTimeoutMs: READY_TIMEOUT_MS, env: GRACE };
      a = await DistributedSuite.prepare({ name: 'faults-lost-replica-a', ...options });
      // Not balanced: gateway a calls content a only, so the rename's walk is content a's.
      b = await DistributedSuite.prepare({ name: 'faults-lost-replica-b', replicaOf: a, ...options });
      await a.startAll();
      await b.startAll();
    },
    2 * READY_TIMEOUT_MS + 60_000,
  );

  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
  }, 60_000);

  test("content a SIGKILLed during a folder's rename: content b finishes it, and @search shows the new tree", () =>
    a.withLogs(async () => {
      const word = uniqueWord();
      const folder = `before-${word}`;
      await a.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: folder, title: `${folder} ${word}` });
      const ids = Array.from({ length: DOCUMENTS }, (_, i) => `doc-${i}`);
      await inParallel(ids, 8, (doc) =>
        a.expectHttp(201, 'POST', `/${folder}`, { '@type': 'Document', id: doc, title: `${doc} ${word}` }),
      );
      const before = [`/${folder}`, ...ids.map((doc) => `/${folder}/${doc}`)].sort();
      await pollUntil(async () => (await searchPaths(b, word)).paths.length === before.length, 60_000, {
        description: `the ${before.length} objects of /${folder} to be indexed`,
      });

      const renamed = `after-${word}`;
      const rename = a.http('PATCH', `/${folder}`, { id: renamed }).catch(() => null);
      await pollUntil(
        async () => {
          const listing = await b.http('GET', `/${renamed}?b_size=1000`).catch(() => null);
          const moved = ((listing?.body.items ?? []) as { '@id': string }[]).filter((item) =>
            new URL(item['@id']).pathname.startsWith(`/${renamed}/`),
          ).length;
          return listing?.status === 200 && moved > 0 && moved < DOCUMENTS;
        },
        30_000,
        { intervalMs: 5, description: 'the rename to have rewritten some of the documents and not all' },
      );
      expect((await a.kill('content')).signal).toBe('SIGKILL');
      expect((await rename)?.status ?? 'no answer').not.toBe(204);
      // Search a confirms events with content a alone (these suites are not balanced; a deployment reaches every
      // content replica through one Service): it goes too, so that search b applies the events.
      await a.process('search').stop(10_000);

      const expected = before.map((path) => path.replace(`/${folder}`, `/${renamed}`));
      // Content a stays down: only content b can finish the walk, and only by taking it over (the grace is an hour).
      const converged = await pollUntil(
        async () => {
          const answer = await searchPaths(b, word);
          return answer.lag === null && answer.paths.join() === expected.join() && answer;
        },
        90_000,
        { description: 'a search through gateway b showing the whole renamed tree, without a lag' },
      );
      expect(converged.paths).toEqual(expected);
      expect(b.process('content').output).toContain('content replica lost');
    }, [b]));
});
