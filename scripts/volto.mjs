// `npm run volto`: Volto 18.33.0 in front of the suite, to try the site in a browser. Builds Volto once (the browser
// test's build, test/volto/setup.mjs), starts the suite as `npm start` does unless --api names one already running,
// starts Volto's server in its seamless mode and prints the address to open.
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { portInUse, startSuite, startVolto, waitForHttp } from '../test/volto/servers.mjs';
import { voltoBuildDir } from '../test/volto/setup.mjs';

const HELP = `Usage: npm run volto [-- [--port <n>] [--api <url>]]

Volto 18.33.0, unchanged, in front of this suite (Volto's seamless mode: its server proxies /++api++ to the
gateway). Built once from the npm registry into ~/.cache/cms-volto (VOLTO_CACHE_DIR moves it; about 10 minutes
the first time), then started in seconds. Prints the address to open; Ctrl-C stops everything it started.

  --port <n>   Volto's port (default 3000); it listens on 127.0.0.1
  --api <url>  use the suite already running at <url> (e.g. http://localhost:8080) instead of starting one;
               that suite must list Volto's host in PUBLIC_HOSTS (PUBLIC_HOSTS=localhost:3000,127.0.0.1:3000)
  --help       this text

Without --api it starts the suite as \`npm start\` does, with its settings (PORT, default 8080; DATA_DIR, default
./data; ADMIN_PASSWORD; LOG_LEVEL, here default warn), adding Volto's host to PUBLIC_HOSTS.`;

const STARTUP_TIMEOUT_MS = 120_000;

/** The processes this command started, stopped on Ctrl-C and on any failure. */
const children = [];
const exitWith = (code) => Promise.all(children.map((child) => child.stop())).then(() => process.exit(code));

function fail(message) {
  console.error(`npm run volto: ${message}`);
  process.exit(1);
}

/** The root's `@id` the suite at `apiUrl` answers a request naming `host`: Volto's origin when seamless mode works. */
function rootIdFor(apiUrl, host) {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/', apiUrl), { headers: { host, accept: 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body)['@id']);
        } catch {
          reject(new Error(`${apiUrl} answered ${res.statusCode} without JSON: is it this suite?`));
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  let options;
  try {
    ({ values: options } = parseArgs({
      options: { port: { type: 'string', default: '3000' }, api: { type: 'string' }, help: { type: 'boolean' } },
    }));
  } catch (error) {
    fail(`${error.message}\n\n${HELP}`);
  }
  if (options.help) {
    console.log(HELP);
    return;
  }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a port number, not ${options.port}`);
  if (await portInUse(port)) fail(`port ${port} is taken; choose another with --port`);
  const site = `http://localhost:${port}`;
  const voltoHosts = [`localhost:${port}`, `127.0.0.1:${port}`];

  let apiUrl = options.api;
  let suite;
  if (apiUrl) {
    if (!URL.canParse(apiUrl)) fail(`--api must be the suite's URL, e.g. http://localhost:8080`);
    const rootId = await rootIdFor(apiUrl, voltoHosts[0]).catch((error) => fail(error.message));
    if (rootId !== site) {
      fail(
        `the suite at ${apiUrl} answers @id ${JSON.stringify(rootId)} to Volto's requests, not ${site}: ` +
          `start it with PUBLIC_HOSTS=${voltoHosts.join(',')}`,
      );
    }
  }

  console.log('Volto 18.33.0: using its build in the cache (building it first if there is none)');
  const volto = voltoBuildDir();

  // A child that ends by itself leaves nothing to use: stop the other and say so (start() prints its exit).
  const onUnexpectedExit = () => exitWith(1);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => exitWith(0));

  if (!apiUrl) {
    const suitePort = Number(process.env.PORT || 8080);
    if (await portInUse(suitePort)) {
      fail(
        `port ${suitePort} is taken; if the suite runs there, use it: npm run volto -- --api http://localhost:${suitePort} ` +
          `(started with PUBLIC_HOSTS=${voltoHosts.join(',')}), or set PORT`,
      );
    }
    apiUrl = `http://127.0.0.1:${suitePort}`;
    const publicHosts = [process.env.PUBLIC_HOSTS, ...voltoHosts].filter(Boolean).join(',');
    suite = startSuite(
      { PORT: String(suitePort), PUBLIC_HOSTS: publicHosts, LOG_LEVEL: process.env.LOG_LEVEL || 'warn' },
      { inherit: true, onUnexpectedExit },
    );
    children.push(suite);
    await waitForHttp(`${apiUrl}/readyz`, STARTUP_TIMEOUT_MS);
  }

  children.push(startVolto(volto, { host: '127.0.0.1', port, apiUrl }, { inherit: true, onUnexpectedExit }));
  await waitForHttp(`http://127.0.0.1:${port}/`, STARTUP_TIMEOUT_MS);
  console.log(
    `\nVolto is ready: open ${site}  (the API: ${options.api ?? `http://localhost:${new URL(apiUrl).port}`}` +
      `${suite ? `; log in as ${process.env.ADMIN_USER || 'admin'}` : ''}; Ctrl-C stops it)\n`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  return exitWith(1);
});
