// Makes a fresh checkout runnable with nothing but Node and npm: installs the
// workspace from the lockfile with the pinned pnpm (through corepack, or npx
// when corepack is missing) when node_modules is absent or older than the
// lockfile, then builds (tsc -b is incremental, so this is quick when nothing changed).
// It says what it is doing: a first start spends a minute here, which should not look like a hang.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const marker = join(root, 'node_modules/.modules.yaml');
const lockfile = join(root, 'pnpm-lock.yaml');
const say = (line) => process.stderr.write(`setup: ${line}\n`);

function run(command, args, extraEnv = {}) {
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
}

function pnpm(args) {
  // Corepack's signature check needs keys this registry mirror may not serve; the lockfile pins integrity anyway.
  const corepackEnv = { COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_INTEGRITY_KEYS: '0' };
  try {
    run('corepack', ['pnpm', ...args], corepackEnv);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    run('npx', ['--yes', packageManager, ...args]);
  }
}

/**
 * `tsc -b --verbose`, told as one line per project it compiles (`compiling services/content (2/8)`) and how long
 * the build took; its other verbose lines are dropped, and anything else (a compile error) is passed on.
 */
async function build() {
  const started = Date.now();
  const tsc = spawn(join(root, 'node_modules/.bin/tsc'), ['-b', '--verbose'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  /** The projects tsc lists, but the root tsconfig.json: it only references the others. */
  const projects = [];
  let listing = false;
  let compiled = 0;
  for await (const line of createInterface({ input: tsc.stdout })) {
    const building = / - Building project '(.+)'\.\.\.$/.exec(line);
    const listed = listing && /^\s+\* (.+)$/.exec(line.trim() ? line : '');
    if (/ - Projects in this build:/.test(line)) listing = true;
    else if (listed) {
      if (listed[1].trim() !== 'tsconfig.json') projects.push(listed[1].trim());
    } else if (building) {
      compiled += 1;
      const project = relative(root, building[1]);
      say(`compiling ${dirname(project)} (${projects.indexOf(project) + 1}/${projects.length})`);
    } else if (/^\S.* - /.test(line) || line.trim() === '') listing = false;
    else process.stdout.write(`${line}\n`);
  }
  const code = await new Promise((resolve) => tsc.on('close', resolve));
  if (code !== 0) {
    say(`the build failed (tsc exited ${code}); the errors are above`);
    process.exit(1);
  }
  if (compiled > 0)
    say(`built ${compiled} of ${projects.length} projects in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lockfile).mtimeMs) {
  say('installing the dependencies from the lockfile (once; pnpm shows its progress)');
  pnpm(['install', '--frozen-lockfile']);
}
await build();
