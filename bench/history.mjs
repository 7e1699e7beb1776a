// `node bench/run.mjs history`: what versions cost (issue 10's benchmark).
//
//   1. GET of a Document with 200 versions against one with none (its versioning switched off), interleaved
//      rounds, median round by req/s: versions live in their own collection, so the ratio should stay >= 1/1.1.
//   2. PATCH of a versioned Document at one connection (each PATCH makes a version): p50 and p99 of exact
//      per-response latencies, target p50 < 10 ms.
//
// One embedded process (GATEWAY_WORKERS=0), admin Basic, on a fresh data folder.
import {
  ADMIN_AUTH,
  fmt,
  load,
  loadWithLatencies,
  log,
  machineState,
  median,
  quantile,
  request,
  startEmbedded,
  stopAll,
  table,
  tempDir,
} from './lib.mjs';

const VERSIONS = 200;
const GET_RATIO_TARGET = 1 / 1.1;
const PATCH_P50_TARGET_MS = 10;
const HEADERS = { Authorization: ADMIN_AUTH, Accept: 'application/json' };

async function call(url, method, body) {
  const response = await request(url, { method, headers: HEADERS, body });
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}`);
  return response;
}

export async function runHistory(settings) {
  log(`history: ${machineState()}`);
  const server = await startEmbedded('history', { dataDir: tempDir('bench-history-'), workers: 0 });
  try {
    const base = server.baseUrl;
    await call(`${base}/`, 'POST', { '@type': 'Folder', id: 'h', title: 'History bench' });
    await call(`${base}/h`, 'POST', { '@type': 'Document', id: 'plain', title: 'Plain', versioning_enabled: false });
    await call(`${base}/h`, 'POST', { '@type': 'Document', id: 'versioned', title: 'Versioned' });
    // Both documents get the same edits, so they differ only in their versions.
    for (let i = 1; i <= VERSIONS; i++) {
      await call(`${base}/h/plain`, 'PATCH', { description: `Edit ${i}` });
      await call(`${base}/h/versioned`, 'PATCH', { description: `Edit ${i}`, changeNote: `edit ${i}` });
    }
    const history = JSON.parse((await call(`${base}/h/versioned/@history`, 'GET')).bytes.toString('utf8'));
    const versions = history.filter((entry) => entry.type === 'versioning').length;
    log(`seeded: /h/versioned has ${versions} versions, /h/plain none`);

    const targets = { plain: `${base}/h/plain`, versioned: `${base}/h/versioned` };
    const rounds = { plain: [], versioned: [] };
    for (const url of Object.values(targets)) {
      await load(url, { connections: settings.connections, duration: settings.warmup, headers: HEADERS });
    }
    for (let round = 1; round <= settings.rounds; round++) {
      for (const [key, url] of Object.entries(targets)) {
        const result = await load(url, {
          connections: settings.connections,
          duration: settings.duration,
          headers: HEADERS,
        });
        rounds[key].push(result.requests.average);
      }
      log(
        `round ${round}/${settings.rounds}: plain ${fmt(rounds.plain.at(-1))}, versioned ${fmt(rounds.versioned.at(-1))} req/s`,
      );
    }
    const plain = median(rounds.plain);
    const versioned = median(rounds.versioned);

    let n = 0;
    const patch = await loadWithLatencies(`${base}/h/versioned`, {
      connections: 1,
      duration: settings.duration,
      method: 'PATCH',
      headers: { ...HEADERS, 'Content-Type': 'application/json' },
      setupClient: (client) => {
        client.setBody(JSON.stringify({ title: `Versioned ${++n}` }));
        client.on('response', () => client.setBody(JSON.stringify({ title: `Versioned ${++n}` })));
      },
    });
    const p50 = quantile(patch.latencies, 0.5);
    const p99 = quantile(patch.latencies, 0.99);
    log(
      table(
        ['scenario', 'result', 'target', 'verdict'],
        [
          [
            'GET, 200 versions / none (req/s)',
            `${fmt(versioned)} / ${fmt(plain)} = ${fmt(versioned / plain, 3)}`,
            `>= ${fmt(GET_RATIO_TARGET, 3)}`,
            versioned / plain >= GET_RATIO_TARGET ? 'MET' : 'MISS',
          ],
          [
            'PATCH versioned, 1 conn, p50 / p99 ms',
            `${fmt(p50, 2)} / ${fmt(p99, 2)} (${patch.latencies.length} ok, ${patch.non2xx} non-2xx)`,
            `p50 < ${PATCH_P50_TARGET_MS}`,
            p50 < PATCH_P50_TARGET_MS ? 'MET' : 'MISS',
          ],
        ],
      ),
    );
  } finally {
    await stopAll();
  }
}
