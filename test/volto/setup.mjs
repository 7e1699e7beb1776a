// Installs and builds the Volto 18.33.0 project in test/volto/project (from the npm registry only) into a cache
// outside the clone, keyed by the project's files, so that a second run only finds it. Answers the build's
// directory. `VOLTO_CACHE_DIR` moves the cache (default ~/.cache/cms-volto). A variant (`voltoBuildDir('multilingual')`,
// or `node test/volto/setup.mjs multilingual`) is that project with test/volto/project-<variant>/ laid over it, built
// into a cache directory of its own.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = fileURLToPath(new URL('./project/', import.meta.url));
const variantDir = (variant) => fileURLToPath(new URL(`./project-${variant}/`, import.meta.url));

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The project's files, hashed: a change to any of them (a dependency, a setting) makes a new build. */
function projectKey(overlay) {
  const hash = createHash('sha256');
  const add = (name, file) => hash.update(name).update('\0').update(readFileSync(file)).update('\0');
  for (const file of filesUnder(PROJECT).sort()) add(relative(PROJECT, file), file);
  // Only after the base files, so that the plain project's key (and its cached build) stays what it was.
  for (const file of overlay ? filesUnder(overlay).sort() : []) add(`overlay:${relative(overlay, file)}`, file);
  return hash.digest('hex').slice(0, 16);
}

const run = (command, args, cwd) => {
  const started = Date.now();
  execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true' } });
  console.log(`volto setup: ${command} ${args.join(' ')} took ${Math.round((Date.now() - started) / 1000)} s`);
};

/** The build of the plain project, or of `variant` (a test/volto/project-<variant>/ overlay) when given. */
export function voltoBuildDir(variant) {
  const overlay = variant ? variantDir(variant) : undefined;
  if (overlay && !existsSync(overlay)) throw new Error(`no Volto project variant ${variant} (${overlay})`);
  const cache = process.env.VOLTO_CACHE_DIR || join(homedir(), '.cache', 'cms-volto');
  const dir = join(cache, projectKey(overlay));
  if (existsSync(join(dir, '.complete'))) return dir;
  // Built where it stays (the build may name its own paths); `.complete` marks a finished one.
  const scratch = dir;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  cpSync(PROJECT, scratch, { recursive: true });
  if (overlay) cpSync(overlay, scratch, { recursive: true });
  // The lockfile pins every package; npm's own cache makes a repeat install quick.
  run('npm', ['ci', '--no-audit', '--no-fund'], scratch);
  // What Volto's build needs inside the project (as the project generator copies them).
  const volto = join(scratch, 'node_modules', '@plone', 'volto');
  cpSync(join(volto, 'public'), join(scratch, 'public'), { recursive: true });
  cpSync(join(volto, 'locales'), join(scratch, 'locales'), { recursive: true });
  mkdirSync(join(scratch, 'theme'), { recursive: true });
  cpSync(join(volto, 'theme', 'theme.config'), join(scratch, 'theme', 'theme.config'));
  run('npx', ['razzle', 'build', '--noninteractive'], scratch);
  writeFileSync(join(scratch, '.complete'), new Date().toISOString());
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(voltoBuildDir(process.argv[2]));
