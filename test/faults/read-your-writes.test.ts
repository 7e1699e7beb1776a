/**
 * Read-your-writes, honestly (issue 25, item 5): one service's broker link refused at a time (content's, search's,
 * discussion's), through the TcpProxy in front of each. A search after acknowledged writes either finds them or
 * says that it cannot (`X-Search-Lag`, and a warning with the lag in search's log); once the link is back the
 * searches find every acknowledged write and answer without the header.
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord, type Service } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { WriteLedger } from '../support/write-ledger';

const SETTINGS = 'cms.app.discussion.interfaces.IDiscussionSettings';
const LAG_HEADER = 'x-search-lag';
/** Generous for a loaded CI machine: the links come back with a backoff of up to 5 s. */
const CONVERGE_MS = 60_000;

let suite: DistributedSuite;

interface SearchAnswer {
  titles: string[];
  /** `X-Search-Lag`, or null when the answer says it is current. */
  lag: string | null;
}

async function search(query: string): Promise<SearchAnswer> {
  const result = await suite.http('GET', `${query}&b_size=1000`);
  if (result.status !== 200) throw new Error(`${query} answered ${result.status}: ${result.text}`);
  return {
    titles: (result.body.items as { title: string }[]).map((item) => item.title),
    lag: result.headers.get(LAG_HEADER),
  };
}

/** Refuses `service`'s broker connections, and waits until it has noticed (tried again and been refused). */
async function cutLink(service: Service): Promise<void> {
  const proxy = suite.proxy(service);
  const refusedBefore = proxy.refused;
  await proxy.refuse();
  await pollUntil(() => proxy.refused > refusedBefore, 30_000, {
    description: `${service} to try to reconnect to the broker, and be refused`,
  });
}

/** Searches until the answer is current (no header) and holds every title; returns that answer. */
function untilFound(query: string, titles: string[]): Promise<SearchAnswer> {
  return pollUntil(
    async () => {
      const answer = await search(query);
      return answer.lag === null && titles.every((title) => answer.titles.includes(title)) && answer;
    },
    CONVERGE_MS,
    { intervalMs: 250, description: `${query} to find ${titles.length} acknowledged writes, without a lag` },
  );
}

/** A search right after acknowledged writes, while one link is down: finds them all, or says that it cannot. */
function expectHonest(answer: SearchAnswer, titles: string[]): void {
  const found = titles.filter((title) => answer.titles.includes(title)).length;
  if (found < titles.length)
    expect({ found, lag: answer.lag }).toEqual({ found, lag: expect.stringMatching(/^[1-9]\d*$/) });
}

describeWithBroker('faults: read-your-writes with one broker link down', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({
      name: 'faults-read-your-writes',
      logTailChars: 6000,
      proxied: true,
      // Writes made while content's or discussion's link is down answer without waiting for their events.
      env: { EVENT_FLUSH_TIMEOUT_MS: '500' },
    });
    await suite.startAll();
    await suite.expectHttp(204, 'PATCH', '/@registry', { [`${SETTINGS}.globally_enabled`]: true });
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  beforeEach(async () => {
    await Promise.all(suite.allProxies().map((proxy) => proxy.up()));
    await suite.untilReady();
  }, 60_000);

  test.each(['content', 'search'] as const)(
    "%s's link alone down: searches after acknowledged writes say they are behind; all found once it is back",
    (service) =>
      suite.withLogs(async () => {
        const ledger = await WriteLedger.inNewFolder(suite, `Cut ${service}`);
        const query = `${ledger.folderPath}/@search?SearchableText=${ledger.word}`;
        await ledger.untilIndexConverged();
        await cutLink(service);

        const titles: string[] = [];
        for (let i = 0; i < 8; i++) {
          const title = ledger.nextTitle('written');
          expect(await ledger.create(title)).toBe('acked');
          titles.push(title);
          expectHonest(await search(query), titles);
        }
        // The events cannot reach the catalog while the link is down: the answer says so.
        const behind = await search(query);
        expect(behind.lag).toMatch(/^[1-9]\d*$/);
        expect(await suite.processLogs(200_000)).toContain('search answered behind the writes');

        await suite.proxy(service).up();
        await untilFound(query, titles);
        await ledger.verify(CONVERGE_MS);
      }),
  );

  test("an anonymous search behind the writes tells caches not to keep it; once content's link is back it finds them", () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const query = `/@search?SearchableText=${word}`;
      await cutLink('content');

      await suite.expectHttp(201, 'POST', '/', { '@type': 'Document', id: word, title: word });
      await suite.expectHttp(200, 'POST', `/${word}/@workflow/publish`, {});
      const behind = await suite.http('GET', query, undefined, null);
      expect(behind.headers.get(LAG_HEADER)).toMatch(/^[1-9]\d*$/);
      expect(behind.headers.get('cache-control')).toContain('no-store');

      await suite.proxy('content').up();
      await pollUntil(
        async () => {
          const answer = await suite.http('GET', query, undefined, null);
          return answer.headers.get(LAG_HEADER) === null && answer.body.items?.length === 1;
        },
        CONVERGE_MS,
        { intervalMs: 250, description: 'an anonymous search to find the published document, without a lag' },
      );
    }));

  test("discussion's link alone down: comment searches say they are behind; all found once it is back", () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      await suite.expectHttp(201, 'POST', '/', { '@type': 'Document', id: word, title: word, allow_discussion: true });
      await suite.expectHttp(200, 'POST', `/${word}/@workflow/publish`, {});
      const query = `/@search?portal_type=Discussion%20Item&SearchableText=${word}`;
      await cutLink('discussion');

      const texts: string[] = [];
      for (let i = 0; i < 5; i++) {
        const text = `Comment ${i} ${word}`;
        const posted = await suite.http('POST', `/${word}/@comments/`, { text });
        expect(posted.status).toBe(204);
        texts.push(text);
        const answer = await search(query);
        // A comment's title in the catalog is its text's beginning; the lag says whether any is missing.
        expect(answer.titles.length === texts.length || answer.lag !== null).toBe(true);
      }
      const behind = await search(query);
      expect(behind.lag).toMatch(/^[1-9]\d*$/);

      await suite.proxy('discussion').up();
      const found = await pollUntil(
        async () => {
          const answer = await search(query);
          return answer.lag === null && answer.titles.length === texts.length && answer;
        },
        CONVERGE_MS,
        { intervalMs: 250, description: `the ${texts.length} comments to be found without a lag` },
      );
      expect(found.titles).toHaveLength(texts.length);
    }));
});
