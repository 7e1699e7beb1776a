// Runs a command under the current Node LTS as well as the machine's own Node: `node scripts/node-lts.mjs <script>
// [args...]` installs the `node` package pinned below from the npm registry (it ships the binaries) once into
// ~/.cache/cms-node/<version>, then runs `<that node> <script> [args...]` here, with that node first on PATH, and
// exits with its status. `npm run test:lts` runs the test suite so; CI runs it beside `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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
console.log(`node-lts: ${args.join(' ')} on Node ${version}`);
const result = spawnSync(binary, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` },
});
process.exit(result.status ?? 1);
