// Makes a fresh checkout runnable with nothing but Node and npm: installs the
// workspace from the lockfile with the pinned pnpm (through corepack, or npx
// when corepack is missing) when node_modules is absent or older than the
// lockfile, then builds (tsc -b is incremental, so this is quick when nothing changed).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const marker = join(root, 'node_modules/.modules.yaml');
const lockfile = join(root, 'pnpm-lock.yaml');

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

if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lockfile).mtimeMs) {
  pnpm(['install', '--frozen-lockfile']);
}
run(join(root, 'node_modules/.bin/tsc'), ['-b']);
