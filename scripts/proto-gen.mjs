// Generates TypeScript types for every proto under proto/ with proto-loader-gen-types.
// With --check, generates into a temporary folder and fails when the committed types differ.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const protoDir = join(root, 'proto');
const committedDir = join(root, 'services/shared/src/generated');
const generator = join(root, 'services/shared/node_modules/.bin/proto-loader-gen-types');
const check = process.argv.includes('--check');

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

const protos = walk(protoDir)
  .filter((f) => f.endsWith('.proto'))
  .map((f) => relative(protoDir, f))
  .sort();
const outDir = check ? mkdtempSync(join(tmpdir(), 'proto-gen-')) : committedDir;
if (!check) rmSync(committedDir, { recursive: true, force: true });

// The same options the run-time loader uses (services/shared/src/grpc/loader.ts).
execFileSync(
  generator,
  [
    '--keepCase',
    '--longs=String',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--grpcLib=@grpc/grpc-js',
    '-I',
    protoDir,
    '-O',
    outDir,
    ...protos,
  ],
  { stdio: 'inherit' },
);
// The generator records absolute proto paths; keep the output the same in every checkout.
for (const file of walk(outDir)) {
  const text = readFileSync(file, 'utf8');
  const portable = text.split(protoDir).join('proto');
  if (portable !== text) writeFileSync(file, portable);
}

if (check) {
  const list = (dir) =>
    walk(dir)
      .map((f) => relative(dir, f))
      .sort();
  const expected = list(outDir);
  const actual = list(committedDir);
  const stale = [
    ...expected.filter(
      (f) =>
        !actual.includes(f) || readFileSync(join(outDir, f), 'utf8') !== readFileSync(join(committedDir, f), 'utf8'),
    ),
    ...actual.filter((f) => !expected.includes(f)),
  ];
  rmSync(outDir, { recursive: true, force: true });
  if (stale.length) {
    console.error(`Generated proto types are stale (run \`npm run proto:gen\`): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log(`proto types up to date (${expected.length} files)`);
}
