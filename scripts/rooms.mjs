// The rooms of the code and the arrows between them: each service's and the gateway's top folders under src/,
// services/shared's folders, with their files, lines, and the imports that cross from one room to another.
//   node scripts/rooms.mjs            a table of rooms, then the arrows with their counts
//   node scripts/rooms.mjs --summary  the totals only
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const summaryOnly = process.argv.includes('--summary');
const files = execFileSync('git', ['ls-files', 'gateway/src', ':(glob)services/*/src/**'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.includes('/generated/') && !f.endsWith('.generated.ts'));

/** `services/content/src/domain/locks/locks.ts` → `content/domain/locks`; a file directly under src/ is its own room. */
function roomOf(file) {
  const parts = file.split('/');
  const [owner, rest] = parts[0] === 'gateway' ? ['gateway', parts.slice(2)] : [parts[1], parts.slice(3)];
  if (rest.length === 1) return `${owner}/${rest[0].replace(/\.ts$/, '')}`;
  // content's domain is grouped by feature: the feature is the room.
  if (owner === 'content' && rest[0] === 'domain' && rest.length > 2) return `${owner}/domain/${rest[1]}`;
  // shared's adapters: each engine's folder is a room (`shared/adapters/store/postgres`).
  if (owner === 'shared' && rest[0] === 'adapters' && rest.length > 3) return `${owner}/adapters/${rest[1]}/${rest[2]}`;
  if (owner === 'shared' && rest[0] === 'adapters' && rest.length > 2) return `${owner}/adapters/${rest[1]}`;
  return `${owner}/${rest[0]}`;
}

const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g;
const rooms = new Map();
const arrows = new Map();
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const room = roomOf(file);
  const entry = rooms.get(room) ?? { files: 0, lines: 0 };
  entry.files += 1;
  entry.lines += text.split('\n').length;
  rooms.set(room, entry);
  for (const [, spec] of text.matchAll(IMPORT)) {
    let target;
    if (spec.startsWith('.')) {
      const base = resolve(dirname(join(root, file)), spec);
      const hit = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
      if (!hit) continue;
      target = roomOf(relative(root, hit));
    } else if (spec.startsWith('@cms/shared')) target = 'shared (package)';
    else continue;
    if (target === room) continue;
    const key = `${room} → ${target}`;
    arrows.set(key, (arrows.get(key) ?? 0) + 1);
  }
}
const totalLines = [...rooms.values()].reduce((sum, r) => sum + r.lines, 0);
if (!summaryOnly) {
  console.log('room'.padEnd(34), 'files'.padStart(6), 'lines'.padStart(7));
  for (const [room, { files: n, lines }] of [...rooms].sort())
    console.log(room.padEnd(34), String(n).padStart(6), String(lines).padStart(7));
  console.log('\narrows (imports from one room into another)');
  for (const [key, n] of [...arrows].sort()) console.log(`  ${key} (${n})`);
}
const sizes = [...rooms.values()].map((r) => r.lines).sort((a, b) => a - b);
console.log(
  `\n${rooms.size} rooms, ${files.length} files, ${totalLines} lines; lines per room: median ${sizes[Math.floor(sizes.length / 2)]}, largest ${sizes.at(-1)}; ${arrows.size} arrows (${[...arrows.values()].reduce((a, b) => a + b, 0)} imports)`,
);
