/**
 * `services/shared` holds what more than one service uses (issue 28): no module of it is used by one service
 * alone. A module counts as used by a service when that service imports, from `@cms/shared` or
 * `@cms/shared/adapters`, a name the module declares; a module other shared modules import serves them all.
 * Tests do not count: a helper only one service's tests use belongs with that service.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SHARED = join(ROOT, 'services/shared/src');
const USERS = [
  'gateway/src',
  ...['content', 'identity', 'search', 'discussion', 'config', 'embedded'].map((s) => `services/${s}/src`),
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Which module declares each name the package's two entry points export. */
function declaringModules(): Map<string, string> {
  const entries = {
    '@cms/shared': join(SHARED, 'index.ts'),
    '@cms/shared/adapters': join(SHARED, 'adapters/index.ts'),
  };
  const program = ts.createProgram(Object.values(entries), {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const declared = new Map<string, string>();
  for (const [specifier, file] of Object.entries(entries)) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = target.declarations?.[0];
      if (declaration) declared.set(`${specifier} ${exported.name}`, declaration.getSourceFile().fileName);
    }
  }
  return declared;
}

/** The shared modules other shared modules import (relative imports inside the package). */
function importedInsideShared(files: string[]): Set<string> {
  const imported = new Set<string>();
  for (const file of files) {
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      const hit = [`${target}.ts`, join(target, 'index.ts')].find(existsSync);
      if (hit && hit !== file && !hit.endsWith('/index.ts')) imported.add(hit);
    }
  }
  return imported;
}

describe('services/shared', () => {
  it('has no module that only one service uses', () => {
    const declared = declaringModules();
    const usedBy = new Map<string, Set<string>>();
    for (const user of USERS) {
      for (const file of sourceFiles(join(ROOT, user))) {
        const text = readFileSync(file, 'utf8');
        for (const [, names, specifier] of text.matchAll(
          /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(@cms\/shared(?:\/adapters)?)'/g,
        )) {
          for (const part of names.split(',')) {
            const name = part
              .replace(/^\s*type\s+/, '')
              .split(/\s+as\s+/)[0]
              .trim();
            const module = declared.get(`${specifier} ${name}`);
            if (!module) continue;
            usedBy.set(module, (usedBy.get(module) ?? new Set()).add(user.split('/').at(-2)!));
          }
        }
      }
    }
    const sharedFiles = sourceFiles(SHARED).filter((f) => !f.includes('/generated/'));
    const internal = importedInsideShared(sharedFiles);
    const alone = sharedFiles
      .filter((file) => !internal.has(file) && !file.endsWith('/index.ts'))
      .filter((file) => (usedBy.get(file)?.size ?? 0) === 1)
      .map((file) => `${relative(ROOT, file)}: only ${[...usedBy.get(file)!][0]}`);
    expect(alone).toEqual([]);
    // The check sees the services' imports at all (a broken look-up would find no module used by anyone).
    expect(usedBy.get(join(SHARED, 'ports/store.ts'))?.size).toBeGreaterThan(3);
  });
});
