// Checks the Dockerfile without a Docker engine: builds its stages in a scratch folder the way an engine would
// (the build context filtered by .dockerignore, each COPY, each RUN of the build stage with the stage's ENV and
// WORKDIR), assembles the runtime stage's /app from the build stage, then runs the image's entrypoint there:
// every command reaches its process, `probe` answers for a running suite, SIGTERM drains, nothing is written
// outside DATA_DIR. Exit 1 on any failure. `--keep` leaves the scratch folder for a look.
//
// Not emulated: the base image itself, and RUN steps of the runtime stage that change its root file system
// (mkdir/chown of /data): they are listed as skipped.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const keep = process.argv.includes('--keep');
const started = Date.now();
const failures = [];

function fail(message) {
  failures.push(message);
  console.error(`  FAIL ${message}`);
}

function ok(message) {
  console.log(`  ok   ${message}`);
}

/** Dockerfile instructions: continuation lines joined, comments dropped. */
function parseDockerfile(text) {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const instructions = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(trimmed);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.trim() });
  }
  return instructions;
}

/** .dockerignore patterns as regular expressions over context-relative paths (`**`, `*`; a folder takes its contents). */
function ignoreMatchers(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => {
      const parts = pattern.replace(/^\/+|\/+$/g, '').split('/');
      const source = parts
        .map((part) =>
          part === '**' ? '(?:[^/]+/)*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + '/',
        )
        .join('')
        .replace(/\/$/, '');
      return new RegExp(`^${source}(?:/.*)?$`);
    });
}

function copyContext(contextDir, matchers) {
  cpSync(root, contextDir, {
    recursive: true,
    filter: (source) => {
      const path = relative(root, source);
      return path === '' || !matchers.some((matcher) => matcher.test(path));
    },
  });
}

/** Engine-style path mapping: an absolute path in the image is a path under the stage's scratch root. */
const inStage = (stageRoot, path) => join(stageRoot, path);

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}`, error: result.error };
}

function envValues(args) {
  // `ENV A=1 B=two` (the form the Dockerfile uses).
  const values = {};
  for (const match of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) values[match[1]] = match[2].replace(/^"|"$/g, '');
  return values;
}

function buildStages(instructions, scratch, contextDir) {
  const args = {};
  const stages = {};
  let stage;
  for (const { keyword, args: rest } of instructions) {
    if (keyword === 'ARG') {
      const [name, value] = rest.split('=');
      if (!stage) args[name] = value;
      continue;
    }
    if (keyword === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      const stageRoot = join(scratch, name);
      stage = { name, image: image.replace(/\$\{(\w+)\}/g, (_, n) => args[n]), root: stageRoot, workdir: '/', env: {} };
      stages[name] = stage;
      console.log(`stage ${name} (from ${stage.image})`);
      continue;
    }
    if (keyword === 'WORKDIR') {
      stage.workdir = rest;
      spawnSync('mkdir', ['-p', inStage(stage.root, rest)]);
      continue;
    }
    if (keyword === 'ENV') {
      Object.assign(stage.env, envValues(rest));
      continue;
    }
    if (keyword === 'COPY') {
      const parts = rest.split(/\s+/);
      const from = parts.find((part) => part.startsWith('--from='))?.slice('--from='.length);
      const paths = parts.filter((part) => !part.startsWith('--'));
      const target = paths.pop();
      const base = from ? stages[from].root : contextDir;
      const targetPath = target.startsWith('/')
        ? inStage(stage.root, target)
        : join(inStage(stage.root, stage.workdir), target);
      for (const source of paths) {
        const sourcePath = join(base, source);
        if (!existsSync(sourcePath)) {
          fail(`${stage.name}: COPY ${source}: not in the ${from ? `${from} stage` : 'build context'}`);
          continue;
        }
        const intoDir = target.endsWith('/') || paths.length > 1 || statSync(sourcePath).isDirectory();
        const destination = statSync(sourcePath).isDirectory()
          ? targetPath
          : intoDir
            ? join(targetPath, source.split('/').pop())
            : targetPath;
        cpSync(sourcePath, destination, { recursive: true, verbatimSymlinks: true });
      }
      ok(`${stage.name}: COPY ${rest}`);
      continue;
    }
    if (keyword === 'RUN') {
      if (/(^|\s)\/(data|etc|usr|var)\b/.test(rest) || /\bchown\b|\bapt-get\b/.test(rest)) {
        console.log(`  skip ${stage.name}: RUN ${rest} (changes the base image's root file system)`);
        continue;
      }
      const t0 = Date.now();
      const result = run('sh', ['-c', rest], {
        cwd: inStage(stage.root, stage.workdir),
        env: { ...process.env, ...stage.env },
      });
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      if (result.status === 0) ok(`${stage.name}: RUN ${rest} (${seconds} s)`);
      else {
        // An engine stops the build at the first failing step.
        fail(`${stage.name}: RUN ${rest} exited ${result.status}:\n${result.output.slice(-4000)}`);
        return stages;
      }
      continue;
    }
    if (['USER', 'ENTRYPOINT', 'CMD', 'EXPOSE', 'VOLUME'].includes(keyword)) {
      stage[keyword.toLowerCase()] = rest;
      continue;
    }
    fail(`unsupported instruction ${keyword} (teach scripts/check-dockerfile.mjs or avoid it)`);
  }
  return stages;
}

/** Every file under a folder with its size and modification time, to prove nothing was written there. */
function snapshot(dir) {
  const files = new Map();
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const stat = statSync(full);
        files.set(relative(dir, full), `${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return files;
}

function checkImageShape(runtime) {
  const entrypoint = JSON.parse(runtime.entrypoint ?? 'null');
  if (!Array.isArray(entrypoint)) return (fail('runtime: ENTRYPOINT must be the exec (JSON array) form'), null);
  if (!runtime.user || /^(root|0)$/.test(runtime.user))
    fail(`runtime: USER must be a non-root user (is ${runtime.user})`);
  else ok(`runtime: runs as ${runtime.user}`);
  if (runtime.env.DATA_DIR !== '/data' || !/\/data/.test(runtime.volume ?? ''))
    fail('runtime: DATA_DIR must be /data, declared a VOLUME (the only writable place)');
  else ok('runtime: DATA_DIR=/data is a volume');
  const virtualStore = join(runtime.root, 'app/node_modules/.pnpm');
  const stored = existsSync(virtualStore) ? readdirSync(virtualStore) : [];
  for (const dev of ['typescript', 'jest', 'eslint', 'prettier']) {
    if (existsSync(join(runtime.root, 'app/node_modules', dev)) || stored.some((entry) => entry.startsWith(`${dev}@`)))
      fail(`runtime: dev dependency ${dev} still installed`);
  }
  ok('runtime: dev dependencies pruned (typescript, jest, eslint, prettier absent)');
  return entrypoint;
}

function waitFor(check, timeoutMs) {
  return new Promise((resolve) => {
    const deadline = Date.now() + timeoutMs;
    const tick = () => {
      const value = check();
      if (value || Date.now() > deadline) resolve(value);
      else setTimeout(tick, 200);
    };
    tick();
  });
}

async function checkEntrypoint(runtime, entrypoint, scratch) {
  const app = join(runtime.root, 'app');
  const script = inStage(runtime.root, entrypoint[0]);
  const baseEnv = { PATH: process.env.PATH, HOME: scratch, ...runtime.env, DATA_DIR: join(scratch, 'data') };
  const image = (args, env = {}) => run(script, args, { cwd: '/', env: { ...baseEnv, ...env }, timeout: 60_000 });

  const help = image([]);
  const commands = [
    'gateway',
    'content',
    'identity',
    'search',
    'discussion',
    'config',
    'embedded',
    'reindex',
    'events-replay',
    'migrate',
    'probe',
  ];
  const missing = commands.filter((command) => !help.output.includes(command));
  if (help.status !== 0 || missing.length) fail(`entrypoint help: exit ${help.status}, missing ${missing.join(', ')}`);
  else ok('entrypoint: default command prints the usage naming every command');
  const unknown = image(['bogus']);
  if (unknown.status !== 2) fail(`entrypoint bogus: expected exit 2, got ${unknown.status}`);
  else ok('entrypoint: an unknown command exits 2');

  // Each process validates its environment first: a bad variable of its own proves the command reached it.
  const dispatch = [
    ['gateway', { PORT: 'not-a-port' }, /Invalid configuration: PORT/],
    ...['content', 'identity', 'search', 'discussion', 'config'].map((service) => [
      service,
      { [`${service.toUpperCase()}_GRPC_ADDRESS`]: 'nowhere', AMQP_URL: 'amqp://127.0.0.1:1' },
      new RegExp(`Invalid configuration: ${service.toUpperCase()}_GRPC_ADDRESS`),
    ]),
    ['content', {}, /AMQP_URL: required when a service runs as its own process/],
    ['reindex', { SEARCH_ADDRESS: 'nowhere' }, /Invalid configuration: SEARCH_ADDRESS/],
    ['events-replay', {}, /usage: npm run events:replay/, 2],
    ['migrate', {}, /no data migrations pending/, 0],
    ['probe', {}, /usage: health-probe\.js/, 2],
  ];
  for (const [command, env, expected, status = 1] of dispatch) {
    const result = image([command], env);
    if (result.status !== status || !expected.test(result.output))
      fail(
        `entrypoint ${command}: expected exit ${status} and ${expected}, got ${result.status}: ${result.output.slice(0, 500)}`,
      );
    else ok(`entrypoint ${command} → exit ${status}, ${expected.source.replace(/\\/g, '')}`);
  }

  // The whole suite, then `probe` against its services, then SIGTERM: it must drain and exit 0.
  const before = snapshot(app);
  const suite = spawn(script, ['embedded'], {
    cwd: '/',
    env: { ...baseEnv, PORT: '0', ADMIN_PASSWORD: 'check-dockerfile', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let suiteOutput = '';
  suite.stdout.on('data', (chunk) => (suiteOutput += chunk));
  suite.stderr.on('data', (chunk) => (suiteOutput += chunk));
  const exited = new Promise((resolve) => suite.on('exit', (code, signal) => resolve({ code, signal })));
  const addressesFile = join(baseEnv.DATA_DIR, 'embedded-addresses.json');
  const written = await waitFor(() => existsSync(addressesFile), 60_000);
  if (!written) {
    suite.kill('SIGKILL');
    return fail(`entrypoint embedded: no ${addressesFile} within 60 s:\n${suiteOutput.slice(-2000)}`);
  }
  // Beside the addresses, the file holds the key that signs calls to them (`serviceKey`).
  const { serviceKey: _key, ...addresses } = JSON.parse(readFileSync(addressesFile, 'utf8'));
  for (const [service, target] of Object.entries(addresses)) {
    const serving = await waitFor(() => image(['probe', target]).status === 0, 20_000);
    if (serving) ok(`entrypoint probe ${service} (${target}) → SERVING, exit 0`);
    else fail(`entrypoint probe ${service} (${target}): never SERVING`);
  }
  const closed = image(['probe', '127.0.0.1:1'], { PROBE_TIMEOUT_MS: '500' });
  if (closed.status !== 1) fail(`entrypoint probe 127.0.0.1:1: expected exit 1, got ${closed.status}`);
  else ok('entrypoint probe of a closed port → exit 1');
  suite.kill('SIGTERM');
  const stop = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(null), 30_000))]);
  if (!stop) {
    suite.kill('SIGKILL');
    fail('entrypoint embedded: still running 30 s after SIGTERM');
  } else if (stop.code !== 0)
    fail(`entrypoint embedded: SIGTERM → exit ${stop.code ?? stop.signal}:\n${suiteOutput.slice(-2000)}`);
  else ok('entrypoint embedded: SIGTERM drains and exits 0 (node is the exec’d process)');
  const after = snapshot(app);
  const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
  const removed = [...before.keys()].filter((path) => !after.has(path));
  if (changed.length || removed.length)
    fail(`read-only root: the suite wrote under /app: ${[...changed, ...removed].slice(0, 10).join(', ')}`);
  else ok('read-only root: nothing under /app was written while the suite ran (only DATA_DIR)');
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'cms-dockerfile-'));
  console.log(`scratch folder ${scratch}`);
  try {
    const context = join(scratch, 'context');
    copyContext(context, ignoreMatchers(readFileSync(join(root, '.dockerignore'), 'utf8')));
    for (const leaked of ['node_modules', '.git', 'services/shared/dist', 'data']) {
      if (existsSync(join(context, leaked))) fail(`.dockerignore lets ${leaked} into the build context`);
    }
    ok('build context filtered by .dockerignore (no node_modules, dist, .git, data)');
    const stages = buildStages(parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8')), scratch, context);
    const runtime = stages.runtime;
    if (!runtime) fail('no stage named runtime');
    else if (failures.length === 0) {
      const entrypoint = checkImageShape(runtime);
      if (entrypoint) await checkEntrypoint(runtime, entrypoint, scratch);
    }
  } finally {
    if (keep) console.log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (failures.length) {
    console.error(`check-dockerfile: ${failures.length} failure(s) in ${seconds} s`);
    process.exit(1);
  }
  console.log(`check-dockerfile: the Dockerfile's steps and the entrypoint pass (${seconds} s)`);
}

await main();
