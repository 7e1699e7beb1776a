// Starting the suite and Volto's server as child processes, shared by the browser test (run.mjs) and
// `npm run volto` (scripts/volto.mjs).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A port nobody listens on now (the system picks it). */
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

/** Whether something accepts connections on `port` (on any address: the suite binds 0.0.0.0). */
export function portInUse(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, () => server.close(() => resolve(false)));
  });
}

/**
 * Spawns a child whose output goes to `onLine` line by line (`inherit: true` passes it through as well); `stop()`
 * ends it. An exit nobody asked for prints the child's last lines.
 */
export function start(name, command, args, options, onLine = () => {}) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      if (options.inherit) out.write(chunk);
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 200) tail.shift();
        onLine(line);
      }
    });
  }
  child.on('exit', (code, signal) => {
    if (child.stopping) return;
    if (!options.inherit) console.error(`${name}'s last lines:\n${tail.join('\n')}`);
    console.error(`${name} exited (${code ?? signal})`);
    options.onUnexpectedExit?.(code ?? signal);
  });
  child.stop = () => {
    child.stopping = true;
    child.kill('SIGTERM');
    return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  };
  return child;
}

/** Resolves once `url` answers 2xx; polls, as a process that is starting has nothing to wait on. */
export async function waitForHttp(url, deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The embedded suite (`npm start`'s process); `env` adds to and overrides the caller's environment. */
export function startSuite(env, options = {}, onLine = undefined) {
  return start(
    'suite',
    process.execPath,
    [join(ROOT, 'services/embedded/dist/main.js')],
    { cwd: ROOT, env: { ...process.env, ...env }, ...options },
    onLine,
  );
}

/**
 * Volto's production server from the build in `volto` (setup.mjs), in its seamless mode: it serves the site on
 * `host:port` and proxies `/++api++` to `apiUrl` unchanged (the gateway answers `/++api++` paths itself), keeping
 * the browser's Host, so the suite must list Volto's host in PUBLIC_HOSTS.
 */
export function startVolto(volto, { host, port, apiUrl }, options = {}) {
  return start('volto', process.execPath, ['build/server.js'], {
    cwd: volto,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      RAZZLE_BIND_ADDRESS: host,
      RAZZLE_DEV_PROXY_API_PATH: apiUrl,
      RAZZLE_PROXY_REWRITE_TARGET: '/++api++',
    },
    ...options,
  });
}

/**
 * Reads the suite's log lines for the requests it answered (the browser's and Volto's server's alike): each goes
 * to `apiLog`; an answer of 400 or more is a failure, named with the step `currentStep()` gives, unless `expected`
 * lists it (then it goes to `expectedSeen`).
 */
export function requestLogReader({ apiLog, expected, failures, currentStep, expectedSeen = [] }) {
  return (line) => {
    if (!line.startsWith('{')) return;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (entry.msg !== 'request') return;
    const path = String(entry.path);
    apiLog.push({ method: entry.method, path, status: entry.status });
    // The walks' own readiness poll (waitForHttp): 503 until every service is up, on a busy machine a few times.
    if (entry.status < 400 || (path === '/readyz' && entry.status === 503)) return;
    const answer = `${entry.method} ${path.slice(0, 200)} -> ${entry.status}`;
    if (expected.some((e) => e.method === entry.method && e.status === entry.status && e.path.test(path))) {
      expectedSeen.push(answer);
      return;
    }
    failures.push(`${answer} (during "${currentStep()}")`);
  };
}

/**
 * Chromium (headless) with one page of 1280 × 900 whose waits last `timeoutMs`; an API answer of 400 or more is
 * printed with what was sent and what came back (the suite's log has only the path).
 */
export async function openBrowser(puppeteer, { chromium, timeoutMs }) {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-sync'],
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(timeoutMs);
  await page.setViewport({ width: 1280, height: 900 });
  page.on('response', async (response) => {
    if (response.status() < 400 || !response.url().includes('/++api++')) return;
    const request = response.request();
    const body = await response.text().catch(() => '');
    console.error(
      `${request.method()} ${response.url()} -> ${response.status()}\n  sent: ${(request.postData() ?? '').slice(0, 500)}` +
        `\n  got: ${body.slice(0, 500)}`,
    );
  });
  return { browser, page };
}
