/**
 * Two replicas of every service and two gateways, as separate `node` processes on one PostgreSQL database and one
 * RabbitMQ virtual host (issue 24, item 3): suite A (identity, content, search, discussion, config, gateway A) and
 * suite B, its replicas (the same tables, the same queues, so each group's queue has two competing consumers).
 * Each gateway talks to its own suite's services; those share the store with the other suite's. Runs the built
 * `dist/` entry points.
 *
 * What it shows:
 * - what is written through gateway A is read through gateway B at once (content, users and their credentials,
 *   comments, registry records), and the other way round; what services behind B cache of config's records and
 *   types follows a write through config A a moment after its answer (config A's broadcast);
 * - an identity change made through gateway A reaches gateway B's credential cache (identity A broadcasts it over
 *   the bus to identity B, which pushes it to the gateways watching it);
 * - the replicas of search compete on the group's queue: each event is handled by exactly one of them, both take
 *   some, and together they build one catalog that finds every document through either gateway; the outbox relays
 *   of the two content replicas publish each event once;
 * - search A's read-your-writes wait accounts for events held, unacknowledged, by search B, and a search through
 *   gateway B right after a write through gateway A finds it;
 * - a lock taken through A refuses a change through B without its token; a working copy checked out through A is
 *   refused a second check-out and checked in through B;
 * - the rule runners of both config replicas take each triggered action once (a page added is copied once);
 *   a rename through one gateway moves the whole subtree once, as both gateways and the catalog show.
 */
import { execFileSync } from 'node:child_process';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { freePorts } from '../support/processes';

/** Long enough that only an invalidation, never the cache's own expiry, makes gateway B ask identity again. */
const AUTH_CACHE_TTL_MS = String(30 * 60_000);
/**
 * Search's read-your-writes bound: short enough that the test sees a search that did not get its answer, long
 * enough that a healthy search on a loaded machine gets it.
 */
const READ_YOUR_WRITES_TIMEOUT_MS = '8000';
const BEHIND = 'search answered behind the writes';
const CONVERGE_TIMEOUT_MS = 60_000;
/**
 * Bound for a change made through one config replica to reach a cache watching the other (a broadcast, delivered a
 * moment after the write is answered): well under the streams' own reconnection (a maximum connection age).
 */
const CACHE_TIMEOUT_MS = 10_000;
const SEARCH_QUEUE = 'cms.search.v2';
const DISCUSSION_SETTINGS = 'cms.app.discussion.interfaces.IDiscussionSettings';

let a: DistributedSuite;
let b: DistributedSuite;
/** METRICS_PORT of content and search in each suite (the others' are off: one port per process on this host). */
const metricsPorts = { a: { content: 0, search: 0 }, b: { content: 0, search: 0 } };

function optionsFor(ports: { content: number; search: number }) {
  return {
    store: 'postgres' as const,
    // CALL_TIMEOUT_MS: a rename answers once its whole subtree is rewritten, on a database under the load of
    // twelve processes (and other tests) on a small machine.
    env: { METRICS_PORT: 'off', AUTH_CACHE_TTL_MS, READ_YOUR_WRITES_TIMEOUT_MS, CALL_TIMEOUT_MS: '30000' },
    // Twelve processes starting on a small machine.
    readyTimeoutMs: 180_000,
    logTailChars: 8000,
    envOf: {
      content: { METRICS_PORT: String(ports.content), METRICS_HOST: '127.0.0.1' },
      search: { METRICS_PORT: String(ports.search), METRICS_HOST: '127.0.0.1' },
    },
  };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const pathOf = (url: string) => new URL(url).pathname;

async function metricsText(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) });
  return response.text();
}

/** The sum of a metric's samples whose labels include `labels` (e.g. `group="search"`). */
function sumOf(text: string, name: string, labels: RegExp = /.*/): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match && match[1] === name && labels.test(match[2] ?? '')) total += Number(match[3]);
  }
  return total;
}

/** `content.added` events published by both content replicas, and content events consumed by both search replicas. */
async function eventCounts(): Promise<{ added: number; published: number; consumedA: number; consumedB: number }> {
  const [contentA, contentB, searchA, searchB] = await Promise.all([
    metricsText(metricsPorts.a.content),
    metricsText(metricsPorts.b.content),
    metricsText(metricsPorts.a.search),
    metricsText(metricsPorts.b.search),
  ]);
  const published = (pattern: RegExp) =>
    sumOf(contentA, 'cms_events_published_total', pattern) + sumOf(contentB, 'cms_events_published_total', pattern);
  return {
    added: published(/type="content\.added"/),
    published: published(/type="content\./),
    consumedA: sumOf(searchA, 'cms_events_consumed_total', /group="search"/),
    consumedB: sumOf(searchB, 'cms_events_consumed_total', /group="search"/),
  };
}

/** Gateway's calls to identity's Authenticate so far, from its own /metrics. */
async function authenticateCalls(suite: DistributedSuite): Promise<number> {
  const { text } = await suite.http('GET', '/metrics', undefined, null);
  return sumOf(
    text,
    'cms_grpc_client_handling_seconds_count',
    /grpc_service="cms\.identity\.v1\.IdentityService",grpc_method="Authenticate"/,
  );
}

/** Ready and unacknowledged messages of a queue, as the broker counts them. */
function queueDepth(amqpUrl: string, queue: string): { ready: number; unacked: number } {
  const vhost = decodeURIComponent(new URL(amqpUrl).pathname.slice(1)) || '/';
  const out = execFileSync(
    'rabbitmqctl',
    ['list_queues', '-q', '--no-table-headers', '-p', vhost, 'name', 'messages_ready', 'messages_unacknowledged'],
    { encoding: 'utf8' },
  );
  for (const line of out.split('\n')) {
    const [name, ready, unacked] = line.trim().split(/\s+/);
    if (name === queue) return { ready: Number(ready), unacked: Number(unacked) };
  }
  throw new Error(`No queue ${queue} in ${vhost}:\n${out}`);
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

/** The paths @search finds for `query` through a gateway (as the administrator). */
async function searchPaths(suite: DistributedSuite, query: string): Promise<string[]> {
  const body = await suite.expectHttp(200, 'GET', `/@search?${query}&b_size=1000`);
  if (body.items_total !== body.items.length) throw new Error(`@search found ${body.items_total}, not one batch`);
  return (body.items as { '@id': string }[]).map((item) => pathOf(item['@id'])).sort();
}

/** The ids a folder lists through a gateway, sorted. */
async function listedIds(suite: DistributedSuite, path: string): Promise<string[]> {
  const body = await suite.expectHttp(200, 'GET', `${path}?b_size=1000`);
  return (body.items as { '@id': string }[]).map((item) => item['@id'].split('/').pop() as string).sort();
}

/** Both suites' process output on failure. */
const withBothLogs = <T>(body: () => Promise<T>) => a.withLogs(body, [b]);

describeWithBroker('two replicas of every service and two gateways on one PostgreSQL store', () => {
  beforeAll(async () => {
    const [contentA, searchA, contentB, searchB] = await freePorts(4);
    metricsPorts.a = { content: contentA, search: searchA };
    metricsPorts.b = { content: contentB, search: searchB };
    a = await DistributedSuite.prepare({ name: 'replicas-a', ...optionsFor(metricsPorts.a) });
    b = await DistributedSuite.prepare({ name: 'replicas-b', replicaOf: a, ...optionsFor(metricsPorts.b) });
    // One suite after the other: the first start makes the tables and seeds the site, the replicas find them.
    await a.startAll();
    await b.startAll();
  }, 420_000);

  afterAll(async () => {
    // A stopped process would hold up its own shutdown.
    b?.running.search?.signal('SIGCONT');
    // The replicas first: the primary drops the database and the virtual host they use.
    await b?.dispose();
    await a?.dispose();
  }, 60_000);

  test(
    'content, users, comments and records written through A are read through B at once; its caches of records and types follow',
    () =>
      withBothLogs(async () => {
        const word = uniqueWord();

        // Content: created and changed through A, read through B with no wait; and the other way round.
        const doc = pathOf(
          (await a.expectHttp(201, 'POST', '/', { '@type': 'Document', title: `One ${word}` }))['@id'],
        );
        expect((await b.expectHttp(200, 'GET', doc)).title).toBe(`One ${word}`);
        await a.expectHttp(204, 'PATCH', doc, { title: `Two ${word}` });
        expect((await b.expectHttp(200, 'GET', doc)).title).toBe(`Two ${word}`);
        await b.expectHttp(204, 'PATCH', doc, { title: `Three ${word}` });
        expect((await a.expectHttp(200, 'GET', doc)).title).toBe(`Three ${word}`);

        // A user added through A: listed through B, and its credentials accepted by gateway B.
        const username = `u${word.slice(1, 13)}`;
        const password = `secret-${word}`;
        await a.expectHttp(201, 'POST', '/@users', { username, password, fullname: `Replica ${word}` });
        expect((await b.expectHttp(200, 'GET', `/@users/${username}`)).fullname).toBe(`Replica ${word}`);
        const asUser = basic(username, password);
        expect((await b.http('GET', '/@users/' + username, undefined, asUser)).status).toBe(200);

        // A registry record set through A, read through B (config B reads the shared store). Discussion B has the
        // setting in its cache first (a page that allows comments, where they are still off).
        const settingPath = `/@registry/${DISCUSSION_SETTINGS}.globally_enabled`;
        await a.expectHttp(200, 'POST', `${doc}/@workflow/publish`);
        await a.expectHttp(204, 'PATCH', doc, { allow_discussion: true });
        expect(await b.expectHttp(200, 'GET', settingPath)).toBe(false);
        expect((await b.http('GET', `${doc}/@comments`)).status).toBe(404);
        await a.expectHttp(204, 'PATCH', '/@registry', { [`${DISCUSSION_SETTINGS}.globally_enabled`]: true });
        expect(await b.expectHttp(200, 'GET', settingPath)).toBe(true);
        // Discussion B's cache watches config B, which config A's broadcast reaches a moment after A's answer.
        await pollUntil(async () => (await b.http('GET', `${doc}/@comments`)).status === 200, CACHE_TIMEOUT_MS, {
          description: "config A's record change to reach discussion B's settings cache",
        });

        // A comment posted through B (discussion B), listed through A (discussion A).
        const posted = await b.http('POST', `${doc}/@comments`, { text: `Said through B ${word}` }, asUser);
        expect([posted.status, posted.text]).toEqual([204, '']);
        const comments = await a.expectHttp(200, 'GET', `${doc}/@comments`);
        expect(comments.items.map((c: any) => [c.text.data, c.author_username])).toEqual([
          [`Said through B ${word}`, username],
        ]);

        // A field added to a type through A (config A) is taken by content B (whose type cache watches config B).
        const title = `Extra ${word}`;
        const field = title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
        expect((await b.expectHttp(200, 'GET', '/@types/Document')).properties).not.toHaveProperty(field);
        await a.expectHttp(201, 'POST', '/@types/Document', { factory: 'label_textline_field', title });
        await pollUntil(
          async () => field in (await b.expectHttp(200, 'GET', '/@types/Document')).properties,
          CACHE_TIMEOUT_MS,
          { description: "config A's type change to reach content B's type cache" },
        );
        const typed = await b.expectHttp(201, 'POST', '/', { '@type': 'Document', title, [field]: 'through B' });
        expect((await a.expectHttp(200, 'GET', pathOf(typed['@id'])))[field]).toBe('through B');
      }),
    180_000,
  );

  test(
    'an identity change through gateway A drops the credential gateway B cached from identity B',
    () =>
      withBothLogs(async () => {
        // Gateway B caches the administrator's Basic credentials once its invalidation stream is open.
        await pollUntil(
          async () => {
            expect((await b.http('GET', '/')).status).toBe(200);
            const before = await authenticateCalls(b);
            expect((await b.http('GET', '/')).status).toBe(200);
            return (await authenticateCalls(b)) === before;
          },
          CONVERGE_TIMEOUT_MS,
          { description: 'gateway B to answer from its credential cache' },
        );
        const cached = await authenticateCalls(b);
        expect((await b.http('GET', '/')).status).toBe(200);
        expect(await authenticateCalls(b)).toBe(cached);

        // A role change of the administrator, through gateway A (identity A).
        await a.expectHttp(204, 'PATCH', '/@users/admin', { roles: { Editor: true } });

        // Gateway B asks identity B again: its cached entry was dropped, long before the cache's own expiry.
        await pollUntil(
          async () => {
            expect((await b.http('GET', '/')).status).toBe(200);
            return (await authenticateCalls(b)) > cached;
          },
          CONVERGE_TIMEOUT_MS,
          { description: "identity A's invalidation to reach gateway B" },
        );
      }),
    180_000,
  );

  test(
    'search replicas split the events, each handled once, into one catalog both gateways find every document in',
    () =>
      withBothLogs(async () => {
        // Quiet first: nothing of an earlier test still on its way (the group also consumes comment events, which
        // content does not count, so it is the queue that says so).
        const drained = () => {
          const depth = queueDepth(a.amqpUrl, SEARCH_QUEUE);
          return depth.ready === 0 && depth.unacked === 0;
        };
        await pollUntil(drained, CONVERGE_TIMEOUT_MS, { description: "the search group's queue to be drained" });
        const before = await eventCounts();
        const word = uniqueWord();
        const paths: string[] = [];
        for (let i = 0; i < 12; i++) {
          const through = i % 2 === 0 ? a : b;
          const created = await through.expectHttp(201, 'POST', '/', { '@type': 'Document', title: `${i} ${word}` });
          paths.push(pathOf(created['@id']));
        }
        const after = await pollUntil(
          async () => {
            const counts = await eventCounts();
            const published = counts.published - before.published;
            const consumed = counts.consumedA + counts.consumedB - before.consumedA - before.consumedB;
            return counts.added - before.added >= 12 && consumed === published && drained() && counts;
          },
          CONVERGE_TIMEOUT_MS,
          { description: 'the search replicas to have handled every content event between them' },
        );
        // One event per create, from whichever content replica made it: no relay published one twice.
        expect(after.added - before.added).toBe(12);
        // Both replicas took a share.
        expect(after.consumedA).toBeGreaterThan(before.consumedA);
        expect(after.consumedB).toBeGreaterThan(before.consumedB);
        // One catalog: each gateway's search finds all twelve, once each.
        expect(await searchPaths(a, `SearchableText=${word}`)).toEqual([...paths].sort());
        expect(await searchPaths(b, `SearchableText=${word}`)).toEqual([...paths].sort());
      }),
    180_000,
  );

  test(
    'a search through gateway B right after a write through gateway A finds it',
    () =>
      withBothLogs(async () => {
        for (let i = 0; i < 5; i++) {
          const word = uniqueWord();
          const created = await a.expectHttp(201, 'POST', '/', { '@type': 'Document', title: `Fresh ${word}` });
          expect(await searchPaths(b, `SearchableText=${word}`)).toEqual([pathOf(created['@id'])]);
          const changed = uniqueWord();
          await a.expectHttp(204, 'PATCH', pathOf(created['@id']), { title: `Changed ${changed}` });
          expect(await searchPaths(b, `SearchableText=${changed}`)).toEqual([pathOf(created['@id'])]);
        }
      }),
    180_000,
  );

  test(
    "search A's read-your-writes waits for the events search B holds",
    () =>
      withBothLogs(async () => {
        const searchA = a.process('search');
        const searchB = b.process('search');
        // Search B stops where it is: the broker keeps pushing it its share of events, which it cannot handle.
        searchB.signal('SIGSTOP');
        try {
          const word = uniqueWord();
          for (let i = 0; i < 6; i++) {
            await a.expectHttp(201, 'POST', '/', { '@type': 'Document', id: `held-${word}-${i}`, title: word });
          }
          // Nothing ready in the queue, some events held by a consumer: what a ready count alone takes for drained.
          await pollUntil(
            () => {
              const depth = queueDepth(a.amqpUrl, SEARCH_QUEUE);
              return depth.ready === 0 && depth.unacked > 0 && depth;
            },
            CONVERGE_TIMEOUT_MS,
            { description: 'search B to hold events unacknowledged, none left ready' },
          );
          const warned = occurrences(searchA.output, BEHIND);
          const behind = await a.http('GET', `/@search?SearchableText=${word}`);
          expect([behind.status, behind.headers.get('x-search-lag')]).toEqual([200, expect.stringMatching(/^\d+$/)]);
          await pollUntil(() => occurrences(searchA.output, BEHIND) > warned, 5000, {
            description: 'search A to report its catalog behind the events search B holds',
          });
        } finally {
          searchB.signal('SIGCONT');
        }

        // Once search B has handled what it held, search A's wait ends without the warning.
        await pollUntil(
          async () => {
            const depth = queueDepth(a.amqpUrl, SEARCH_QUEUE);
            if (depth.ready !== 0 || depth.unacked !== 0) return false;
            const warned = occurrences(searchA.output, BEHIND);
            await a.expectHttp(200, 'GET', '/@search?SearchableText=anything');
            return occurrences(searchA.output, BEHIND) === warned;
          },
          CONVERGE_TIMEOUT_MS,
          { description: 'search A to find the group drained once search B is back' },
        );
      }),
    180_000,
  );

  test(
    'a lock taken through A refuses a change through B without its token; a working copy holds across replicas',
    () =>
      withBothLogs(async () => {
        const word = uniqueWord();
        const editor = `e${word.slice(1, 13)}`;
        const asEditor = basic(editor, `secret-${word}`);
        await a.expectHttp(201, 'POST', '/@users', { username: editor, password: `secret-${word}`, roles: ['Editor'] });

        const doc = pathOf(
          (await a.expectHttp(201, 'POST', '/', { '@type': 'Document', title: `Locked ${word}` }))['@id'],
        );
        const lock = await a.expectHttp(200, 'POST', `${doc}/@lock`);
        expect(lock).toMatchObject({ locked: true, creator: 'admin' });
        expect((await b.http('GET', `${doc}/@lock`, undefined, asEditor)).body).toMatchObject({ locked: true });
        const refused = await b.http('PATCH', doc, { title: `Not without the token ${word}` }, asEditor);
        expect(refused.status).toBe(403);
        expect((await b.expectHttp(200, 'GET', doc)).title).toBe(`Locked ${word}`);
        const withToken = await b.http('PATCH', doc, { title: `With the token ${word}` }, asEditor, {
          'Lock-Token': lock.token,
        });
        expect(withToken.status).toBe(204);
        expect((await a.expectHttp(200, 'GET', doc)).title).toBe(`With the token ${word}`);
        // Released through B, free through A.
        expect((await b.http('DELETE', `${doc}/@lock`)).status).toBe(200);
        expect(await a.expectHttp(200, 'GET', `${doc}/@lock`)).toEqual({ locked: false, stealable: true });

        // A working copy checked out through A: a second check-out through B is refused; B checks it in.
        const original = pathOf(
          (await a.expectHttp(201, 'POST', '/', { '@type': 'Document', title: `Original ${word}` }))['@id'],
        );
        const copy = pathOf((await a.expectHttp(201, 'POST', `${original}/@workingcopy`))['@id']);
        expect((await b.http('POST', `${original}/@workingcopy`)).status).toBe(409);
        expect((await b.expectHttp(200, 'GET', `${original}/@workingcopy`)).working_copy['@id']).toMatch(
          new RegExp(`${copy}$`),
        );
        await b.expectHttp(204, 'PATCH', copy, { title: `Checked in ${word}` });
        await b.expectHttp(204, 'PATCH', `${copy}/@workingcopy`, { message: 'through B' });
        expect((await a.expectHttp(200, 'GET', original)).title).toBe(`Checked in ${word}`);
        expect((await a.http('GET', copy)).status).toBe(404);
        expect((await a.expectHttp(200, 'GET', `${original}/@workingcopy`)).working_copy).toBeNull();
      }),
    180_000,
  );

  test(
    'the rule runners of both config replicas copy each added page once; a rename moves the subtree once',
    () =>
      withBothLogs(async () => {
        const word = uniqueWord();
        const inbox = `/inbox-${word}`;
        const copies = `/copies-${word}`;
        await a.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: inbox.slice(1), title: `Inbox ${word}` });
        await a.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: copies.slice(1), title: `Copies ${word}` });
        const rule = await a.expectHttp(201, 'POST', '/@controlpanels/content-rules', {
          title: `Copy ${word}`,
          event: 'Object added to this container',
        });
        await b.expectHttp(201, 'POST', `/@controlpanels/content-rules/${rule.id}/action`, {
          type: 'cms.actions.Copy',
          target_folder: copies,
        });
        await a.expectHttp(200, 'POST', `${inbox}/@content-rules/${rule.id}`);

        // Pages added through both gateways: both content replicas publish, both config replicas consume and run.
        const added: string[] = [];
        for (let i = 0; i < 16; i++) {
          const id = `page-${i}`;
          await (i % 2 === 0 ? a : b).expectHttp(201, 'POST', inbox, { '@type': 'Document', id, title: `P ${i}` });
          added.push(id);
        }
        let seen: string[] = [];
        await pollUntil(
          async () => JSON.stringify((seen = await listedIds(b, copies))) === JSON.stringify([...added].sort()),
          CONVERGE_TIMEOUT_MS,
          { description: 'every added page copied' },
        ).catch((error: Error) => {
          throw new Error(`${error.message}; copied: ${seen.join(' ')}`);
        });
        // None twice: a marker added now is copied after every execution before it (a repeat would have left a
        // renamed copy).
        await a.expectHttp(201, 'POST', inbox, { '@type': 'Document', id: 'marker', title: 'Marker' });
        added.push('marker');
        await pollUntil(async () => (await listedIds(a, copies)).includes('marker'), CONVERGE_TIMEOUT_MS, {
          description: 'the marker copied',
        });
        expect(await listedIds(a, copies)).toEqual([...added].sort());
        expect(await listedIds(b, copies)).toEqual([...added].sort());

        // A rename through B rewrites the subtree once; both gateways and the catalog see it at its new place.
        const renamed = `/renamed-${word}`;
        await b.expectHttp(204, 'PATCH', inbox, { id: renamed.slice(1) });
        expect(await listedIds(a, renamed)).toEqual([...added].sort());
        // The old path redirects to the new place (addendum §8): the page is no longer there.
        const old = await fetch(`${a.baseUrl}${inbox}/page-0`, { redirect: 'manual' });
        expect([old.status, old.headers.get('location')]).toEqual([302, `${a.baseUrl}${renamed}/page-0`]);
        const expected = added.map((id) => `${renamed}/${id}`).sort();
        for (const through of [a, b]) {
          await pollUntil(
            async () =>
              JSON.stringify(await searchPaths(through, `path.query=${renamed}&portal_type=Document`)) ===
              JSON.stringify(expected),
            CONVERGE_TIMEOUT_MS,
            { description: `the catalog to find the renamed folder's pages once each, through ${through.baseUrl}` },
          );
          expect(await searchPaths(through, `path.query=${inbox}&portal_type=Document`)).toEqual([]);
        }
      }),
    240_000,
  );
});
