/**
 * Every per-endpoint fact lives in its declaration (issue 28): the gateway reads the cache kind, the gateway cache's
 * scope and the file hop from the generated routing table, and the dispatcher reads identifier rules from the
 * declaration, so no table keyed by endpoint names is kept beside them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { routesOf } from '@cms/shared';
import { ROUTES } from '../../gateway/src/routes.generated';
import { ENDPOINTS as CONFIG } from '../../services/config/src/api/endpoints';
import { ENDPOINTS as CONTENT } from '../../services/content/src/api/endpoints';
import { ENDPOINTS as DISCUSSION } from '../../services/discussion/src/api/endpoints';
import { ENDPOINTS as IDENTITY } from '../../services/identity/src/api/endpoints';
import { ENDPOINTS as SEARCH } from '../../services/search/src/api/endpoints';

const ROOT = resolve(__dirname, '../..');
/** Where the tables were: the gateway, and the shared package with its dispatcher and file hop. */
const SCANNED = ['gateway/src', 'services/shared/src'];
const DECLARATIONS = [...CONTENT, ...IDENTITY, ...SEARCH, ...DISCUSSION, ...CONFIG];
// `''` (the context itself) is a key of many objects that have nothing to do with endpoints.
const NAMES = new Set(DECLARATIONS.map((d) => d.name).filter((name) => name !== ''));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.generated.ts') ? [path] : [];
  });
}

/** A zod object's fields (`z.object({ roles, groups })`) are named like endpoints without being a table of them. */
function isSchemaFields(node: ts.ObjectLiteralExpression): boolean {
  const call = node.parent;
  return (
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    ['object', 'extend'].includes(call.expression.name.text)
  );
}

/** The object literals keyed by, and array literals of, two or more endpoint names in `file` (`file:line names`). */
function endpointTables(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let keys: string[] = [];
    if (ts.isObjectLiteralExpression(node) && !isSchemaFields(node)) {
      keys = node.properties.flatMap((p) =>
        p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [],
      );
    } else if (ts.isArrayLiteralExpression(node)) {
      keys = node.elements.flatMap((e) => (ts.isStringLiteral(e) ? [e.text] : []));
    }
    const names = keys.filter((key) => NAMES.has(key));
    if (names.length >= 2) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${relative(ROOT, file)}:${line} ${names.join(' ')}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('per-endpoint facts', () => {
  it('are kept in no table of endpoint names in the gateway or the shared package, only in the declarations', () => {
    const tables = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir))).flatMap(endpointTables);
    expect(tables).toEqual([]);
  });

  it('reach the routing table as declared: cache kind, gateway cache scope, file hop', () => {
    const declared = Object.fromEntries(
      DECLARATIONS.map((d) => [
        d.name,
        { cache: d.cache ?? 'other', gatewayCache: d.gatewayCache, fileHop: d.fileHop },
      ]),
    );
    const generated = Object.fromEntries(
      Object.entries(ROUTES).map(([name, r]) => [
        name,
        { cache: r.cache, gatewayCache: r.gatewayCache, fileHop: r.fileHop },
      ]),
    );
    expect(generated).toEqual(declared);
    expect(ROUTES).toEqual(routesOf(DECLARATIONS));
  });
});
