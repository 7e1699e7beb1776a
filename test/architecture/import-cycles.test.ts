/** Every package's modules import each other without cycles (type-only imports included). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const PACKAGES = [
  'gateway',
  ...['shared', 'content', 'identity', 'search', 'discussion', 'config', 'embedded'].map((p) => `services/${p}`),
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The files under src that `file` imports or re-exports from. */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .flatMap(({ fileName }) => {
      const target = resolve(dirname(file), fileName);
      return [`${target}.ts`, join(target, 'index.ts')].filter(existsSync).slice(0, 1);
    });
}

/** One cycle through each back edge of a depth-first walk; none when the graph has none. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe.each(PACKAGES)('the modules of %s', (pkg) => {
  it('import each other without cycles', () => {
    const src = join(ROOT, pkg, 'src');
    const graph = new Map(sourceFiles(src).map((file) => [file, localImports(file)]));
    expect(graph.size).toBeGreaterThan(0);
    const named = cycles(graph).map((cycle) => cycle.map((file) => relative(src, file)).join(' -> '));
    expect(named).toEqual([]);
  });
});
