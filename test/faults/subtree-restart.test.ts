/**
 * Subtree operations cut short (issue 25, item 5): content SIGKILLed in the middle of a folder's rename, and content
 * stopped with a folder's delete held by a relay that died (the claim a SIGKILL mid-publish leaves). Alone on its
 * store, the restarted content finishes both before it answers: the very first search after it is ready shows the
 * new tree (or says it is behind), never the old one for the length of a grace or a lease.
 */
import { openServiceStore } from '@cms/shared/adapters';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, inParallel, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

/** Enough documents that the rename's walk of them takes many writes, so that the kill can land in it. */
const DOCUMENTS = 150;

let suite: DistributedSuite;

/** Every path @search finds with `word`, and its `X-Search-Lag` (null: current). */
async function searchPaths(word: string): Promise<{ paths: string[]; lag: string | null }> {
  const result = await suite.http('GET', `/@search?SearchableText=${word}&b_size=1000`);
  if (result.status !== 200) throw new Error(`@search answered ${result.status}: ${result.text}`);
  const paths = (result.body.items as { '@id': string }[]).map((item) => new URL(item['@id']).pathname).sort();
  return { paths, lag: result.headers.get('x-search-lag') };
}

/** A folder `/<id>` holding DOCUMENTS documents, every one with `word`, all of them in the index. */
async function filledFolder(id: string, word: string): Promise<string[]> {
  await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', id, title: `${id} ${word}` });
  const ids = Array.from({ length: DOCUMENTS }, (_, i) => `doc-${i}`);
  await inParallel(ids, 8, (doc) =>
    suite.expectHttp(201, 'POST', `/${id}`, { '@type': 'Document', id: doc, title: `${doc} ${word}` }),
  );
  const paths = [`/${id}`, ...ids.map((doc) => `/${id}/${doc}`)].sort();
  await pollUntil(async () => (await searchPaths(word)).paths.length === paths.length, 60_000, {
    description: `the ${paths.length} objects of /${id} to be indexed`,
  });
  return paths;
}

describeWithBroker('faults: subtree operations cut short, finished before content answers again', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-subtree-restart', logTailChars: 6000, proxied: true });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  beforeEach(async () => {
    await Promise.all(suite.allProxies().map((proxy) => proxy.up()));
    await suite.reviveAll();
  }, 60_000);

  test("content SIGKILLed during a folder's rename: the first search after its restart shows the new tree", () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const before = await filledFolder(`before-${word}`, word);
      const renamed = `after-${word}`;

      const rename = suite.http('PATCH', `/before-${word}`, { id: renamed }).catch(() => null);
      // Killed once the walk has rewritten some of the documents and not all: content's listing shows its progress.
      await pollUntil(
        async () => {
          const listing = await suite.http('GET', `/${renamed}?b_size=1000`).catch(() => null);
          const moved = ((listing?.body.items ?? []) as { '@id': string }[]).filter((item) =>
            new URL(item['@id']).pathname.startsWith(`/${renamed}/`),
          ).length;
          return listing?.status === 200 && moved > 0;
        },
        30_000,
        { intervalMs: 5, description: 'the rename to have rewritten its first documents' },
      );
      expect((await suite.kill('content')).signal).toBe('SIGKILL');
      // Not answered by content (the gateway says 503, or nothing): the kill came before the walk, which the answer
      // waits for, was done.
      expect((await rename)?.status ?? 'no answer').not.toBe(204);
      suite.start('content');
      await suite.untilReady();

      const after = await searchPaths(word);
      const expected = before.map((path) => path.replace(`/before-${word}`, `/${renamed}`));
      // The honest answers: the whole new tree, or one that says it is behind. Never part of the old tree, silently.
      if (after.lag === null) expect(after.paths).toEqual(expected);
      const converged = await pollUntil(
        async () => {
          const answer = await searchPaths(word);
          return answer.lag === null && answer;
        },
        60_000,
        { description: 'a search without a lag' },
      );
      expect(converged.paths).toEqual(expected);
    }));

  test("a folder's delete whose relay died holding it: the first search after the restart shows it gone", () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const folder = `doomed-${word}`;
      await filledFolder(folder, word);

      // Deleted while content's broker link is down: committed (a tombstone), its event still in the outbox.
      const proxy = suite.proxy('content');
      const refusedBefore = proxy.refused;
      await proxy.refuse();
      await pollUntil(() => proxy.refused > refusedBefore, 30_000, { description: 'content to lose its broker link' });
      await suite.expectHttp(204, 'DELETE', `/${folder}`);
      await suite.process('content').stop(10_000);
      // What a relay SIGKILLed in the middle of publishing the delete leaves: its claim, for a long lease yet.
      const env = suite.envs.content;
      const store = await openServiceStore('content', { DATA_DIR: env.DATA_DIR as string, MONGO_URL: env.MONGO_URL });
      try {
        const claimed = await store
          .collection('content')
          .updateOne(
            { _pending: true, _deleted: true },
            { $set: { _relay: { owner: 'killed-relay', until: Date.now() + 3_600_000 } } },
          );
        expect(claimed.matchedCount).toBe(1);
      } finally {
        await store.close();
      }
      await proxy.up();
      suite.start('content');
      await suite.untilReady();

      const after = await searchPaths(word);
      if (after.lag === null) expect(after.paths).toEqual([]);
      const converged = await pollUntil(
        async () => {
          const answer = await searchPaths(word);
          return answer.lag === null && answer;
        },
        // Far less than the claim's lease: the restarted content frees it.
        60_000,
        { description: 'a search without a lag' },
      );
      expect(converged.paths).toEqual([]);
    }));
});
