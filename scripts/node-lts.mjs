// Runs a command under the current Node LTS as well as the machine's own Node: `node scripts/node-lts.mjs <script>
// [args...]` installs the `node` package pinned below from the npm registry (it ships the binaries) once into
// ~/.cache/cms-node/<version>, then runs `<that node> <script> [args...]` here, with that node first on PATH, and
// exits with its status. `npm run test:lts` runs the test suite so; CI runs it beside `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** The Active LTS line in November 2026 (26 since October 2026; 24 is in maintenance). */
export const NODE_LTS_VERSION = '26.10.0';

const args = process.argv.slice(2);
if (args.length === 0 || args[0] === '--help') {
  console.log('usage: node scripts/node-lts.mjs <script> [args...]   (runs it under Node ' + NODE_LTS_VERSION + ')');
  process.exit(args.length === 0 ? 2 : 0);
}

const dir = join(process.env.NODE_LTS_CACHE_DIR || join(homedir(), '.cache', 'cms-node'), NODE_LTS_VERSION);
const binary = join(dir, 'node_modules', '.bin', 'node');
if (!existsSync(binary)) {
  mkdirSync(dir, { recursive: true });
  console.log(`node-lts: installing node@${NODE_LTS_VERSION} from the npm registry into ${dir}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, `node@${NODE_LTS_VERSION}`], {
    stdio: 'inherit',
  });
}
const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
if (version !== `v${NODE_LTS_VERSION}`) throw new Error(`${binary} is ${version}, expected v${NODE_LTS_VERSION}`);

/**
 * better-sqlite3's addon compiled for this Node (the one in node_modules is built for the machine's Node, another
 * ABI), once into the cache beside it: its source from node_modules, built by npm's node-gyp against the headers
 * the `node` package ships. The SQLite store loads it when BETTER_SQLITE3_BINDING names it.
 */
function sqliteAddon() {
  const requireShared = createRequire(join(new URL('..', import.meta.url).pathname, 'services/shared/package.json'));
  const source = dirname(requireShared.resolve('better-sqlite3/package.json'));
  const { version: addonVersion } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const build = join(dir, `better-sqlite3-${addonVersion}`);
  const addon = join(build, 'build', 'Release', 'better_sqlite3.node');
  // A cached addon built for another ABI (as an earlier version of this script could make) is built again.
  if (existsSync(addon) && loads(addon)) return addon;
  console.log(`node-lts: building better-sqlite3 ${addonVersion} for Node ${version} into ${build} (once)`);
  rmSync(build, { recursive: true, force: true });
  for (const part of ['binding.gyp', 'deps', 'src', 'package.json'])
    cpSync(join(source, part), join(build, part), { recursive: true });
  const nodeGyp = join(
    execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(),
    'npm/node_modules/node-gyp/bin/node-gyp.js',
  );
  const headers = join(dir, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  execFileSync(process.execPath, [nodeGyp, 'rebuild', '--release', `--nodedir=${headers}`], {
    cwd: build,
    stdio: 'inherit',
    // Under `npm run`, npm passes its own config to scripts as npm_config_* variables, and node-gyp takes
    // npm_config_nodedir over --nodedir: on a machine whose npm builds against the system Node's headers, the addon
    // came out for that Node's ABI.
    env: { ...process.env, npm_config_nodedir: headers },
  });
  if (!loads(addon)) throw new Error(`${addon} was built, but Node ${version} cannot load it`);
  return addon;
}

/** Whether the LTS Node loads the addon (it refuses one built for another ABI). */
function loads(addon) {
  return spawnSync(binary, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', addon]).status === 0;
}

console.log(`node-lts: ${args.join(' ')} on Node ${version}`);
const result = spawnSync(binary, args, {
  stdio: 'inherit',
  env: {
    ...process.env,
    PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`,
    BETTER_SQLITE3_BINDING: sqliteAddon(),
  },
});
process.exit(result.status ?? 1);
