// `node bench/run.mjs comments`: reading a long conversation (issue 14's benchmark).
//
//   GET @comments of a Document with 1,000 comments (a quarter of them replies), `b_size=25`, at one connection:
//   p50 and p99 of exact per-response latencies, target p50 < 15 ms; first page and a page deep in the thread.
//
// One embedded process (GATEWAY_WORKERS=0), admin Basic (a moderator: every comment is visible, none is limited),
// on a fresh data folder.
import {
  ADMIN_AUTH,
  fmt,
  load,
  loadWithLatencies,
  log,
  machineState,
  quantile,
  request,
  startEmbedded,
  stopAll,
  table,
  tempDir,
} from './lib.mjs';

const COMMENTS = 1000;
const P50_TARGET_MS = 15;
const SEED_CONCURRENCY = 8;
const HEADERS = { Authorization: ADMIN_AUTH, Accept: 'application/json' };

async function call(url, method, body) {
  const response = await request(url, { method, headers: HEADERS, body });
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}`);
  return response;
}

/** Posts the comments, SEED_CONCURRENCY at a time; every fourth replies to an earlier one. */
async function seed(doc) {
  const ids = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < COMMENTS; i = next++) {
      const parent = i % 4 === 3 && ids.length > 0 ? ids[(i * 7) % ids.length] : '';
      const response = await call(`${doc}/@comments/${parent}`, 'POST', {
        text: `Comment ${i}: ${'words '.repeat(20)}`,
      });
      ids.push(response.headers.get('location').split('/').pop());
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

export async function runComments(settings) {
  log(`comments: ${machineState()}`);
  const server = await startEmbedded('comments', { dataDir: tempDir('bench-comments-'), workers: 0 });
  try {
    const base = server.baseUrl;
    await call(`${base}/@registry`, 'PATCH', {
      'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled': true,
    });
    await call(`${base}/`, 'POST', {
      '@type': 'Document',
      id: 'talk',
      title: 'Comments bench',
      allow_discussion: true,
    });
    const started = Date.now();
    await seed(`${base}/talk`);
    const first = JSON.parse((await call(`${base}/talk/@comments?b_size=25`, 'GET')).bytes.toString('utf8'));
    log(`seeded: /talk has ${first.items_total} comments in ${fmt((Date.now() - started) / 1000, 1)} s`);
    if (first.items_total !== COMMENTS) throw new Error(`expected ${COMMENTS} comments, found ${first.items_total}`);

    const rows = [];
    for (const [label, query] of [
      ['first page', 'b_size=25'],
      ['page at 500', 'b_start=500&b_size=25'],
    ]) {
      const url = `${base}/talk/@comments?${query}`;
      await load(url, { connections: 1, duration: settings.warmup, headers: HEADERS });
      const result = await loadWithLatencies(url, { connections: 1, duration: settings.duration, headers: HEADERS });
      const p50 = quantile(result.latencies, 0.5);
      const p99 = quantile(result.latencies, 0.99);
      rows.push([
        `GET @comments (1,000), ${label}, 1 conn, p50 / p99 ms`,
        `${fmt(p50, 2)} / ${fmt(p99, 2)} (${result.latencies.length} ok, ${result.non2xx} non-2xx)`,
        `p50 < ${P50_TARGET_MS}`,
        p50 < P50_TARGET_MS && result.non2xx === 0 ? 'MET' : 'MISS',
      ]);
    }
    log(table(['scenario', 'result', 'target', 'verdict'], rows));
  } finally {
    await stopAll();
  }
}
