/**
 * HTTP caching through the gateway (issue 18): validators and 304 on every cacheable read, Vary and
 * Cache-Control from the caching settings (`@controlpanels/caching`), the gateway's cache of anonymous answers
 * and the rule that no read started after a write's answer misses that write (on two gateway workers), and the
 * purges sent to caching proxies.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { pollUntil } from '../support/poll';
import { freePort } from '../support/processes';

const ANONYMOUS = { auth: null };
/** The gateway cache is opt-in (it needs a single content process, as the embedded mode has). */
const CACHE = { GATEWAY_CACHE_BYTES: String(16 * 1024 * 1024) };

async function publish(t: TestSuite, path: string): Promise<void> {
  expect((await t.request('POST', `${path}/@workflow/publish`)).status).toBe(200);
}

async function create(t: TestSuite, parent: string, body: Record<string, unknown>): Promise<string> {
  const response = await t.request('POST', parent || '/', { body });
  expect(response.status).toBe(201);
  const created = (await response.json()) as { '@id': string };
  return new URL(created['@id']).pathname;
}

describe('HTTP caching (one gateway process)', () => {
  let t: TestSuite;
  let folder: string;
  let page: string;

  beforeAll(async () => {
    t = await startTestSuite(CACHE);
    folder = await create(t, '/', { '@type': 'Folder', id: 'cached-folder', title: 'Cached folder' });
    page = await create(t, folder, { '@type': 'Document', id: 'page', title: 'First title' });
    await publish(t, folder);
    await publish(t, page);
  }, 60_000);
  afterAll(async () => {
    await t.stop();
  });

  it.each([
    ['the object', () => page],
    ['a component', () => `${page}/@breadcrumbs`],
    ['@navigation', () => '/@navigation'],
    ['@search', () => '/@search?SearchableText=First'],
    [
      '@querystring-search',
      () => {
        const query = [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Document'] }];
        return `/@querystring-search?query=${encodeURIComponent(JSON.stringify({ query }))}`;
      },
    ],
    ['@site', () => '/@site'],
  ])('%s carries an ETag and Vary, and If-None-Match answers 304 without a body', async (_name, pathOf) => {
    const path = pathOf();
    const first = await t.request('GET', path, ANONYMOUS);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('vary')).toBe('Accept, Accept-Language, Authorization');
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=0, must-revalidate');
    const again = await t.request('GET', path, { ...ANONYMOUS, headers: { 'If-None-Match': `"nope", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const other = await t.request('GET', path, { ...ANONYMOUS, headers: { 'If-None-Match': '"nope"' } });
    expect(other.status).toBe(200);
  });

  it('dates the object with Last-Modified and answers If-Modified-Since', async () => {
    const first = await t.request('GET', page, ANONYMOUS);
    const lastModified = first.headers.get('last-modified') as string;
    const { modified } = (await first.json()) as { modified: string };
    expect(Date.parse(lastModified)).toBe(Math.floor(Date.parse(modified) / 1000) * 1000);
    const unchanged = await t.request('GET', page, { ...ANONYMOUS, headers: { 'If-Modified-Since': lastModified } });
    expect(unchanged.status).toBe(304);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await t.request('GET', page, { ...ANONYMOUS, headers: { 'If-Modified-Since': older } })).status).toBe(200);
  });

  it('keeps a logged-in caller’s answers private, with an ETag of their own', async () => {
    const anonymous = await t.request('GET', page, ANONYMOUS);
    const admin = await t.request('GET', page);
    expect(admin.headers.get('cache-control')).toBe('private, no-cache');
    expect(admin.headers.get('etag')).not.toBe(anonymous.headers.get('etag'));
    expect(admin.headers.get('x-cache')).toBeNull();
    // The anonymous validator is no use to the administrator.
    const revalidated = await t.request('GET', page, { headers: { 'If-None-Match': anonymous.headers.get('etag')! } });
    expect(revalidated.status).toBe(200);
  });

  it('serves anonymous reads from the gateway cache, and the read after a write sees it', async () => {
    await t.request('GET', page, ANONYMOUS);
    const hit = await t.request('GET', page, ANONYMOUS);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    const listing = await t.request('GET', folder, ANONYMOUS);
    await listing.arrayBuffer();
    expect((await t.request('GET', folder, ANONYMOUS)).headers.get('x-cache')).toBe('HIT');
    for (let round = 1; round <= 5; round++) {
      const title = `Title ${round}`;
      expect((await t.request('PATCH', page, { body: { title } })).status).toBe(204);
      expect(((await (await t.request('GET', page, ANONYMOUS)).json()) as { title: string }).title).toBe(title);
      const items = ((await (await t.request('GET', folder, ANONYMOUS)).json()) as { items: { title: string }[] })
        .items;
      expect(items.map((item) => item.title)).toEqual([title]);
    }
    // Retracted: anonymous is refused at once, not served the published copy.
    expect((await t.request('POST', `${page}/@workflow/retract`)).status).toBe(200);
    expect((await t.request('GET', page, ANONYMOUS)).status).toBe(401);
    await publish(t, page);
    expect((await t.request('GET', page, ANONYMOUS)).status).toBe(200);
  });

  it('a hit (answered before the app) carries what the miss did, is counted and logged, and honours HEAD and 304', async () => {
    const path = `${folder}/@breadcrumbs`;
    const miss = await t.request('GET', path, { ...ANONYMOUS, headers: { 'X-Request-Id': 'front-miss' } });
    const missBody = await miss.text();
    const hit = await t.request('GET', path, { ...ANONYMOUS, headers: { 'X-Request-Id': 'front-hit' } });
    expect([miss.headers.get('x-cache'), hit.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    expect(await hit.text()).toBe(missBody);
    expect(hit.headers.get('x-request-id')).toBe('front-hit');
    const same = (r: Response) => {
      const names = [...r.headers.keys()].filter(
        (n) => !['date', 'x-cache', 'x-request-id', 'connection', 'keep-alive'].includes(n),
      );
      return Object.fromEntries(names.map((n) => [n, r.headers.get(n)]));
    };
    expect(same(hit)).toEqual(same(miss));
    const head = await t.request('HEAD', path, ANONYMOUS);
    expect([head.status, head.headers.get('x-cache'), await head.text()]).toEqual([200, 'HIT', '']);
    // As a browser revalidates (fetch() alone would add `Cache-Control: no-cache`, which skips the cache).
    const revalidated = await t.request('GET', path, {
      ...ANONYMOUS,
      headers: { 'If-None-Match': hit.headers.get('etag') ?? '', 'Cache-Control': 'max-age=0' },
    });
    expect([revalidated.status, revalidated.headers.get('x-cache')]).toEqual([304, 'HIT']);
    // A caller with credentials is never answered from the anonymous entry.
    const admin = await t.request('GET', path);
    expect(admin.headers.get('x-cache')).not.toBe('HIT');
    const metrics = await (await t.request('GET', '/metrics')).text();
    expect(metrics).toMatch(/cms_http_requests_total\{[^}]*endpoint="@breadcrumbs"[^}]*method="HEAD"[^}]*\} [1-9]/);
  });

  it('a sibling’s write drops an object’s answer only where the folder shows neighbours (next/previous)', async () => {
    const news = await create(t, '/', { '@type': 'Folder', id: 'neighbours', title: 'Neighbours' });
    const first = await create(t, news, { '@type': 'Document', id: 'first', title: 'First' });
    const second = await create(t, news, { '@type': 'Document', id: 'second', title: 'Second' });
    for (const path of [news, first, second]) await publish(t, path);
    const read = async () => {
      const response = await t.request('GET', first, ANONYMOUS);
      const body = (await response.json()) as { next_item: { title?: string } };
      return [response.headers.get('x-cache'), body.next_item.title ?? null];
    };
    await read();
    expect(await read()).toEqual(['HIT', null]);
    expect((await t.request('PATCH', second, { body: { title: 'Second, renamed' } })).status).toBe(204);
    expect(await read()).toEqual(['HIT', null]);
    // With next/previous navigation on, the answer shows the sibling, so the sibling's write drops it.
    expect((await t.request('PATCH', news, { body: { nextPreviousEnabled: true } })).status).toBe(204);
    expect(await read()).toEqual(['MISS', 'Second, renamed']);
    expect(await read()).toEqual(['HIT', 'Second, renamed']);
    expect((await t.request('PATCH', second, { body: { title: 'Second, again' } })).status).toBe(204);
    expect(await read()).toEqual(['MISS', 'Second, again']);
    // The header that told the gateway so never leaves it.
    expect((await t.request('GET', first, ANONYMOUS)).headers.get('x-cms-neighbours')).toBeNull();
  });

  it('drops an answer showing a related item when that item changes (its state, its title, its folder)', async () => {
    const shelf = await create(t, '/', { '@type': 'Folder', id: 'shelf', title: 'Shelf' });
    const target = await create(t, shelf, { '@type': 'Document', id: 'target', title: 'Target' });
    const source = await create(t, '/', { '@type': 'Document', id: 'source', title: 'Source' });
    const uid = ((await (await t.request('GET', target)).json()) as { UID: string }).UID;
    expect((await t.request('PATCH', source, { body: { relatedItems: [uid] } })).status).toBe(204);
    for (const path of [shelf, target, source]) await publish(t, path);
    const read = async () => {
      const response = await t.request('GET', source, ANONYMOUS);
      const body = (await response.json()) as { relatedItems: { title: string }[] };
      return [response.headers.get('x-cache'), body.relatedItems.map((item) => item.title)];
    };
    await read();
    expect(await read()).toEqual(['HIT', ['Target']]);
    // Retracted: the anonymous reader no longer sees it among the related items, at once.
    expect((await t.request('POST', `${target}/@workflow/retract`)).status).toBe(200);
    expect(await read()).toEqual(['MISS', []]);
    await publish(t, target);
    expect(await read()).toEqual(['MISS', ['Target']]);
    expect((await t.request('PATCH', target, { body: { title: 'Target, renamed' } })).status).toBe(204);
    expect(await read()).toEqual(['MISS', ['Target, renamed']]);
    // A change above it (its folder retracted) may hide it too.
    expect(await read()).toEqual(['HIT', ['Target, renamed']]);
    expect((await t.request('POST', `${shelf}/@workflow/retract`)).status).toBe(200);
    expect((await read())[0]).toBe('MISS');
    // The header that told the gateway so never leaves it.
    expect((await t.request('GET', source, ANONYMOUS)).headers.get('x-cms-shows')).toBeNull();
  });

  it('follows the caching settings: max ages per kind, the tag header', async () => {
    const settings = {
      caching_content_max_age: 60,
      caching_content_s_maxage: 600,
      caching_tag_header: 'Surrogate-Key',
    };
    expect((await t.request('PATCH', '/@controlpanels/caching', { body: settings })).status).toBe(204);
    try {
      const response = await pollUntil(
        async () => {
          const r = await t.request('GET', page, ANONYMOUS);
          return r.headers.get('cache-control') === 'public, max-age=60, s-maxage=600, must-revalidate' && r;
        },
        10_000,
        { description: 'the new caching settings in force' },
      );
      const { UID } = (await response.json()) as { UID: string };
      expect(response.headers.get('surrogate-key')).toBe(UID);
      expect(response.headers.get('cache-tag')).toBeNull();
      // Listings keep their own rule; a logged-in caller is still private.
      expect((await t.request('GET', '/@navigation', ANONYMOUS)).headers.get('cache-control')).toBe(
        'public, max-age=0, s-maxage=0, must-revalidate',
      );
      expect((await t.request('GET', page)).headers.get('cache-control')).toBe('private, no-cache');
    } finally {
      const defaults = { caching_content_max_age: 0, caching_content_s_maxage: 0, caching_tag_header: 'Cache-Tag' };
      expect((await t.request('PATCH', '/@controlpanels/caching', { body: defaults })).status).toBe(204);
    }
  });

  it('purges the changed paths at each caching proxy, with the UID as tag, retrying a proxy that failed', async () => {
    const purges: { method: string; url: string; tag: string | undefined }[] = [];
    let failFirst = true;
    const proxy: Server = createServer((req, res) => {
      purges.push({
        method: req.method ?? '',
        url: req.url ?? '',
        tag: req.headers['cache-tag'] as string | undefined,
      });
      res.statusCode = failFirst ? 503 : 200;
      failFirst = false;
      res.end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/site`;
    try {
      const body = { caching_purge_proxies: [proxyUrl] };
      expect((await t.request('PATCH', '/@controlpanels/caching', { body })).status).toBe(204);
      const { UID } = (await (await t.request('GET', page)).json()) as { UID: string };
      // The settings reach content's registry cache through its watch stream: change until a purge comes.
      let round = 0;
      await pollUntil(
        async () => {
          if (purges.length === 0) await t.request('PATCH', page, { body: { description: `purge ${round++}` } });
          return purges.filter((p) => p.url === `/site${page}`).length >= 2;
        },
        20_000,
        { intervalMs: 200, description: 'a purge, failed once, then retried' },
      );
      expect(purges.every((p) => p.method === 'PURGE')).toBe(true);
      expect(purges.find((p) => p.url === `/site${page}`)?.tag).toBe(UID);
      expect(purges.some((p) => p.url === `/site${folder}`)).toBe(true);
    } finally {
      await t.request('PATCH', '/@controlpanels/caching', { body: { caching_purge_proxies: [] } });
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

/** One GET on a new connection (so that the cluster hands it to the next worker in turn): status, title, X-Cache. */
function freshGet(port: number, path: string): Promise<{ status: number; title?: string; cache?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, agent: false, headers: { Accept: 'application/json', Connection: 'close' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const title =
            status === 200
              ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string }).title
              : undefined;
          resolve({ status, title, cache: res.headers['x-cache'] as string | undefined });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('no stale read through two gateway workers', () => {
  let t: TestSuite;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    t = await startTestSuite({ ...CACHE, GATEWAY_WORKERS: '2', PORT: String(port) });
    let inARow = 0;
    await pollUntil(
      async () => {
        const { status } = await freshGet(port, '/readyz').catch(() => ({ status: 0 }));
        inARow = status === 200 ? inARow + 1 : 0;
        return inARow >= 6;
      },
      20_000,
      { intervalMs: 20, description: 'six /readyz answers in a row from the gateway workers' },
    );
  }, 60_000);
  afterAll(async () => {
    await t.stop();
  });

  it('every read started after a write’s answer returns that write, while readers hammer both workers', async () => {
    const path = await create(t, '/', { '@type': 'Document', id: 'race', title: 'v0' });
    await publish(t, path);
    const WRITES = 30;
    /** The highest write whose answer has been received. */
    let acknowledged = 0;
    let writing = true;
    let reads = 0;
    let hits = 0;
    const stale: string[] = [];
    const check = async () => {
      const expected = acknowledged;
      const { status, title, cache } = await freshGet(port, path);
      reads += 1;
      if (cache === 'HIT') hits += 1;
      const seen = status === 200 ? Number(title?.slice(1)) : NaN;
      if (!(seen >= expected)) stale.push(`read started after write ${expected} saw ${status} ${title}`);
    };
    const reader = async () => {
      while (writing) await check();
    };
    const readers = Array.from({ length: 6 }, reader);
    for (let i = 1; i <= WRITES; i++) {
      const response = await fetch(t.url(path), {
        method: 'PATCH',
        headers: {
          Authorization: 'Basic ' + Buffer.from('admin:admin').toString('base64'),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ title: `v${i}` }),
      });
      expect(response.status).toBe(204);
      acknowledged = i;
      // Right after the answer: one read per worker at least, in parallel with the hammering readers.
      await Promise.all([check(), check(), check(), check()]);
    }
    writing = false;
    await Promise.all(readers);
    expect(stale).toEqual([]);
    expect(reads).toBeGreaterThan(WRITES * 4);
    // The cache was in use (else this would prove nothing about it).
    expect(hits).toBeGreaterThan(0);
  }, 120_000);
});
