// Shared helpers of the benchmark scripts: child processes that are always
// cleaned up, free ports, readiness polling, seeding the real gateway, and
// autocannon runs.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const EMBEDDED_MAIN = join(ROOT, 'services/embedded/dist/main.js');

/** Every `@id` in the payload uses this, so instances on different ports serve identical bytes. */
export const PUBLIC_URL = 'http://localhost:8080';
export const ADMIN_AUTH = 'Basic ' + Buffer.from('admin:admin').toString('base64');
export const FOLDER_ID = 'bench';
export const DOCUMENT_ID = 'doc';
export const DOCUMENT_PATH = `/${FOLDER_ID}/${DOCUMENT_ID}`;
/** A text search that finds one object of the seeded site (seedDocument's Document, by a word of its description). */
export const SEARCH_TEXT_PATH = '/@search?SearchableText=payload';

/** The PostgreSQL server the PostgreSQL engine's runs use (`PG_URL`); each run makes a database of its own there. */
export const PG_URL = process.env.PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A new PostgreSQL database for one run (`<prefix>_<random>`), with the `STORE_URL` every service is given, and
 * `drop()` to remove it afterwards. The `pg` driver is the store adapter's own (services/shared).
 */
export async function createDatabase(prefix) {
  const { Client } = createRequire(join(ROOT, 'services/shared/package.json'))('pg');
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

const children = new Set();
const handles = new Set();
const tempDirs = new Set();

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function copyDir(from, prefix) {
  const dir = tempDir(prefix);
  cpSync(from, dir, { recursive: true });
  return dir;
}

/** Last resort, synchronous: SIGKILL every child's process group, remove temp dirs. */
function killAllNow() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killAllNow();
    process.exit(130);
  });
}

/**
 * Starts `node <args>` in its own process group (so a cluster primary and its
 * workers go together); output is kept for error reports.
 */
export function startChild(name, args, env, { nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const tail = [];
  let exited = null;
  const keep = (chunk) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exitPromise = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      children.delete(child);
      resolve(exited);
    }),
  );
  const handle = {
    name,
    child,
    pid: child.pid,
    tail,
    exited: () => exited,
    exitPromise,
    describe: () => `${name} (pid ${child.pid}) output:\n  ${tail.join('\n  ') || '(none)'}`,
    /** SIGTERM the group, wait for a graceful exit, SIGKILL after the grace period. */
    async stop(graceMs = 8000) {
      if (exited) return exited;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }, graceMs);
      const result = await exitPromise;
      clearTimeout(timer);
      // A cluster worker may outlive its primary for a moment; the group goes too.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
      return result;
    },
  };
  handles.add(handle);
  exitPromise.then(() => handles.delete(handle));
  return handle;
}

/** Stops every child still running, gracefully (SIGKILL after the grace period). */
export async function stopAll(graceMs = 5000) {
  await Promise.all([...handles].map((handle) => handle.stop(graceMs)));
}

/** Resolves with the first stdout line that is a port number (the bench/servers/*.mjs contract). */
export function waitForPortLine(handle, timeoutMs = 15000) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => done(new Error(`${handle.name} printed no port within ${timeoutMs} ms\n${handle.describe()}`)),
      timeoutMs,
    );
    const onData = (chunk) => {
      buffer += chunk.toString('utf8');
      const match = /^(\d+)\s*$/m.exec(buffer);
      if (match) done(null, Number(match[1]));
    };
    const onExit = () => done(new Error(`${handle.name} exited before printing its port\n${handle.describe()}`));
    const done = (error, port) => {
      clearTimeout(timer);
      handle.child.stdout.off('data', onData);
      handle.child.off('exit', onExit);
      if (error) reject(error);
      else resolve(port);
    };
    handle.child.stdout.on('data', onData);
    handle.child.once('exit', onExit);
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function request(url, { method = 'GET', headers = {}, body } = {}) {
  const response = await globalThis.fetch(url, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Polls `/readyz` until it answers 200. */
export async function waitForReady(handle, baseUrl, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (handle.exited()) throw new Error(`${handle.name} exited during start-up\n${handle.describe()}`);
    try {
      const response = await request(`${baseUrl}/readyz`);
      if (response.status === 200) return;
      last = `${response.status} ${response.bytes.toString('utf8')}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(200);
  }
  throw new Error(`${handle.name}: /readyz not 200 within ${timeoutMs} ms (last: ${last})\n${handle.describe()}`);
}

/** Environment of an embedded suite child: loopback, embedded store, no inherited broker or database. */
export function embeddedEnv({ port, dataDir, workers, logLevel = 'warn' }) {
  const env = { ...process.env };
  for (const key of ['MONGO_URL', 'STORE_URL', 'AMQP_URL', 'CMS_GATEWAY_WORKER', 'NODE_OPTIONS']) delete env[key];
  return {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    GATEWAY_WORKERS: String(workers),
    PUBLIC_URL,
  };
}

/** Starts the embedded suite; `readyTimeoutMs` allows for loading a large store. */
export async function startEmbedded(name, { dataDir, workers, logLevel, nodeArgs, readyTimeoutMs, env = {} }) {
  const port = await freePort();
  const handle = startChild(
    name,
    [EMBEDDED_MAIN],
    { ...embeddedEnv({ port, dataDir, workers, logLevel }), ...env },
    { nodeArgs },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForReady(handle, baseUrl, readyTimeoutMs);
  return { ...handle, port, baseUrl };
}

/** `POST /` a Folder, `POST /<folder>` a Document, as admin. */
export async function seedDocument(baseUrl) {
  const auth = { Authorization: ADMIN_AUTH, Accept: 'application/json' };
  const folder = await request(`${baseUrl}/`, {
    method: 'POST',
    headers: auth,
    body: { '@type': 'Folder', id: FOLDER_ID, title: 'Benchmark folder' },
  });
  if (folder.status !== 201)
    throw new Error(`POST / (Folder) answered ${folder.status}: ${folder.bytes.toString('utf8')}`);
  const document = await request(`${baseUrl}/${FOLDER_ID}`, {
    method: 'POST',
    headers: auth,
    body: {
      '@type': 'Document',
      id: DOCUMENT_ID,
      title: 'Benchmark document',
      description: 'The payload every benchmarked server returns.',
    },
  });
  if (document.status !== 201) {
    throw new Error(`POST /${FOLDER_ID} (Document) answered ${document.status}: ${document.bytes.toString('utf8')}`);
  }
  // Anonymous must be able to read it; once workflow permissions hide private content, publish it.
  let anonymous = await request(`${baseUrl}${DOCUMENT_PATH}`);
  if (anonymous.status !== 200) {
    for (const path of [`/${FOLDER_ID}`, DOCUMENT_PATH]) {
      await request(`${baseUrl}${path}/@workflow/publish`, { method: 'POST', headers: auth, body: {} });
    }
    anonymous = await request(`${baseUrl}${DOCUMENT_PATH}`);
  }
  if (anonymous.status !== 200) {
    throw new Error(`anonymous GET ${DOCUMENT_PATH} answered ${anonymous.status}: ${anonymous.bytes.toString('utf8')}`);
  }
  return anonymous.bytes;
}

/** One autocannon run (with `headers` on every request, if given); resolves with the raw result. */
export function load(url, { connections, duration, headers }) {
  return autocannon({ url, connections, duration, pipelining: 1, ...(headers ? { headers } : {}) });
}

/**
 * One autocannon run that also keeps the latency of every 2xx response in
 * fractional milliseconds (autocannon's own histogram holds whole
 * milliseconds, too coarse to compare 1-3 ms medians). `options` go to
 * autocannon as they are (method, headers, requests, ...). Resolves with the
 * raw result and `latencies`, sorted ascending.
 */
export function loadWithLatencies(url, options) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon({ url, pipelining: 1, ...options }, (error, result) => {
      if (error) reject(error);
      else resolve({ ...result, latencies: latencies.sort((a, b) => a - b) });
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

/** The q-quantile (0..1) of ascending values, nearest rank; NaN when empty. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** `POST /@login` as admin; resolves with the token. */
export async function loginToken(baseUrl) {
  const response = await request(`${baseUrl}/@login`, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    body: { login: 'admin', password: 'admin' },
  });
  if (response.status !== 200) {
    throw new Error(`POST /@login answered ${response.status}: ${response.bytes.toString('utf8')}`);
  }
  return JSON.parse(response.bytes.toString('utf8')).token;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export { sleep };

/** Resident memory of a process in MB (Linux; NaN elsewhere). */
export function rssMb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function log(line = '') {
  process.stdout.write(`${line}\n`);
}

export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function machineState() {
  const load = os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
  const cpus = os.cpus();
  return `nproc ${os.availableParallelism()} (${cpus[0]?.model?.trim() ?? 'unknown cpu'}), loadavg ${load}, node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** A positive number from the environment, or the fallback. */
export function numberEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/** The run settings every part shares. */
export function benchSettings() {
  return {
    duration: numberEnv('BENCH_DURATION', 10),
    rounds: Math.round(numberEnv('BENCH_ROUNDS', 3)),
    warmup: numberEnv('BENCH_WARMUP', 2),
    connections: Math.round(numberEnv('BENCH_CONNECTIONS', 10)),
  };
}

/**
 * CPU accounting from /proc (Linux; null elsewhere): jiffies busy on the whole
 * machine (steal included) and jiffies of this process and the process groups
 * of the children started here, so a round can say how much CPU others took.
 */
export function cpuSnapshot() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    const groups = new Set([...children].map((child) => child.pid));
    let ours = 0;
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue;
      }
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // rest[2] is the process group, rest[11] and rest[12] utime and stime.
      if (Number(name) === process.pid || groups.has(Number(rest[2]))) ours += Number(rest[11]) + Number(rest[12]);
    }
    return {
      busy: user + nice + system + irq + softirq + (steal ?? 0),
      total: user + nice + system + idle + iowait + irq + softirq + (steal ?? 0),
      ours,
    };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) process `pid` has used so far, from /proc (Linux); NaN elsewhere or once it is gone. */
export function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Cores' worth of CPU used by other processes between two snapshots (children that exited in between count as other). */
export function foreignCores(before, after, cpus) {
  if (!before || !after || after.total <= before.total) return NaN;
  const foreign = after.busy - before.busy - (after.ours - before.ours);
  return Math.max(0, (foreign / (after.total - before.total)) * cpus);
}

/** One of bench/servers (the ceiling, the echo floor) serving the Document bytes in `payloadFile`, on a free port. */
export async function startScriptServer(name, script, payloadFile) {
  const handle = startChild(name, [join(ROOT, 'bench/servers', script)], {
    ...process.env,
    PORT: '0',
    LOG_LEVEL: 'warn',
    PUBLIC_URL,
    BENCH_PAYLOAD_FILE: payloadFile,
  });
  const port = await waitForPortLine(handle);
  return { ...handle, port, baseUrl: `http://127.0.0.1:${port}` };
}

/** Runs `task` over `items` with at most `concurrency` in flight, `onDone` after each; the first failure stops it. */
export async function pool(items, concurrency, task, onDone) {
  let next = 0;
  let failed = null;
  const worker = async () => {
    while (next < items.length && !failed) {
      const item = items[next++];
      try {
        await task(item);
        onDone?.();
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failed) throw failed;
}

/**
 * bench/loop-cpu.mjs in a served process: start it with `nodeArgs` and `env`; `longest(pid)` answers the longest
 * stretch between two 1 ms timer turns since the last call, as wall and CPU ms.
 */
export function loopCpuProbe() {
  const file = join(tempDir('bench-loop-cpu-'), 'longest.json');
  return {
    nodeArgs: ['--import', join(ROOT, 'bench/loop-cpu.mjs')],
    env: { BENCH_LOOP_CPU_FILE: file },
    async longest(pid) {
      rmSync(file, { force: true });
      process.kill(pid, 'SIGUSR2');
      // The signal is handled between two turns of the served loop: a minute covers the longest single turn seen.
      for (let waited = 0; waited < 60_000; waited += 20) {
        if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
        await sleep(20);
      }
      throw new Error('the served process did not report its loop stretch');
    },
  };
}

/** The loop-delay gauges of the serving process since the last scrape (prom-client resets them at each), in ms. */
export async function loopDelay(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const gauge = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { max: gauge('nodejs_eventloop_lag_max_seconds'), p99: gauge('nodejs_eventloop_lag_p99_seconds') };
}
