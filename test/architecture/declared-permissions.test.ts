/**
 * Permissions are declared once and enforced once (issue 28): every operation declares its permission or the
 * reason it has none, and the dispatcher checks it and hands the handler its proof. A domain module that checks
 * a permission an endpoint of its service declares again either repeats the dispatcher (the check to remove) or
 * checks another object (a copy's source, a translation's target), which must be said here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as shared from '@cms/shared';
import { SITE_PERMISSIONS, type AnyOperation, type EndpointDeclaration, type Permission } from '@cms/shared';
import { ENDPOINTS as CONFIG } from '../../services/config/src/api/endpoints';
import { ENDPOINTS as CONTENT } from '../../services/content/src/api/endpoints';
import { ENDPOINTS as DISCUSSION } from '../../services/discussion/src/api/endpoints';
import { ENDPOINTS as IDENTITY } from '../../services/identity/src/api/endpoints';
import { ENDPOINTS as SEARCH } from '../../services/search/src/api/endpoints';

const ROOT = resolve(__dirname, '../..');
/** The write path itself: the one place that takes the proofs (and checks what they do not cover). */
const WRITE_PATH = 'services/content/src/domain/content/write-path.ts';

const SERVICES: Record<string, readonly EndpointDeclaration<unknown, unknown>[]> = {
  config: CONFIG as readonly EndpointDeclaration<unknown, unknown>[],
  content: CONTENT as readonly EndpointDeclaration<unknown, unknown>[],
  discussion: DISCUSSION as readonly EndpointDeclaration<unknown, unknown>[],
  identity: IDENTITY as readonly EndpointDeclaration<unknown, unknown>[],
  search: SEARCH as readonly EndpointDeclaration<unknown, unknown>[],
};

/**
 * The checks that ignore the dispatcher's proof: in a domain module, none may name a permission its service's
 * endpoints declare (View included: every endpoint checks it on its context).
 */
const UNPROVED_CHECK = /\b(?:requirePermission|requireCallerPermission)\(\s*[^,()]+,\s*'([^']+)'/g;

/**
 * The write path's check (`ContentWriter.checkPermission`), which takes the dispatcher's proof where it covers
 * the object: a domain module may name a declared permission with it only for an object other than the
 * request's context, or on a path the dispatcher does not serve, as listed here with why.
 */
const WRITER_CHECK = /\.checkPermission\(\s*[^,()]+,\s*'([^']+)'/g;
const OTHER_OBJECTS: Record<string, Partial<Record<Permission, string>>> = {
  'services/content/src/domain/content/content-commands.ts': {
    'Add portal content': 'the parent of an imported object (ImportObject, an RPC the dispatcher does not serve)',
  },
  'services/content/src/domain/tree/tree-commands.ts': {
    View: 'each source of a copy or move (the context is the target)',
    'Delete objects': 'each source of a move',
    'Add portal content': 'the target of a content rule’s copy or move (an RPC the dispatcher does not serve)',
  },
  'services/content/src/domain/translations/translations.ts': {
    'Modify portal content': 'the target of a link, and the original a new object is a translation of',
  },
  'services/content/src/domain/working-copies/working-copies.ts': {
    'Modify portal content': 'the folder of the original, where the working copy is added',
    'Add portal content': 'the folder of the original, where the working copy is added',
  },
};

function operationsOf(declaration: EndpointDeclaration<unknown, unknown>): [string, AnyOperation][] {
  return Object.entries(declaration.operations).filter((entry): entry is [string, AnyOperation] => !!entry[1]);
}

function declaredPermissions(service: string): Set<string> {
  const declared = new Set<string>(['View']);
  for (const declaration of SERVICES[service]) {
    for (const [, operation] of operationsOf(declaration)) {
      if (typeof operation.permission === 'string') declared.add(operation.permission);
      for (const also of operation.alsoRequires ?? []) declared.add(also);
    }
  }
  return declared;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each call of `pattern` in the service's domain modules naming a permission its endpoints declare. */
function domainChecks(service: string, pattern: RegExp): { file: string; permission: string }[] {
  const declared = declaredPermissions(service);
  const domain = join(ROOT, 'services', service, 'src/domain');
  const modules = sourcesUnder(domain).filter((path) => relative(ROOT, path) !== WRITE_PATH);
  return modules.flatMap((path) =>
    [...readFileSync(path, 'utf8').matchAll(pattern)]
      .map((match) => ({ file: relative(ROOT, path), permission: match[1] }))
      .filter((check) => declared.has(check.permission)),
  );
}

describe('declared permissions', () => {
  it('only the dispatcher makes proofs: the shared package does not export `grant`', () => {
    expect(Object.keys(shared)).toEqual(expect.arrayContaining(['covers', 'proofOf']));
    expect(Object.keys(shared)).not.toContain('grant');
  });

  it('every operation declares a permission, or the reason it needs none beyond View', () => {
    const undeclared: string[] = [];
    for (const [service, declarations] of Object.entries(SERVICES)) {
      for (const declaration of declarations) {
        for (const [method, operation] of operationsOf(declaration)) {
          const access = operation.permission as unknown;
          const where = `${service} ${method} @${declaration.name}`;
          if (typeof access === 'string') {
            if (!(access in SITE_PERMISSIONS)) undeclared.push(`${where}: unknown permission ${access}`);
            continue;
          }
          const reasons =
            access && typeof access === 'object'
              ? Object.values(access).filter((v): v is string => typeof v === 'string' && v.trim().length > 10)
              : [];
          if (reasons.length !== 1) undeclared.push(`${where}: ${JSON.stringify(access)} without one reason`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('no domain module checks a declared permission without the dispatcher’s proof', () => {
    const repeated = Object.keys(SERVICES).flatMap((service) => domainChecks(service, UNPROVED_CHECK));
    expect(repeated).toEqual([]);
  });

  it('a domain module checks a declared permission through the write path only on another object, said here', () => {
    const checks = Object.keys(SERVICES).flatMap((service) => domainChecks(service, WRITER_CHECK));
    const unexplained = checks.filter((c) => !OTHER_OBJECTS[c.file]?.[c.permission as Permission]);
    expect(unexplained).toEqual([]);
    // An entry whose check is gone would excuse the next one written there: the list stays exact.
    const listed = Object.entries(OTHER_OBJECTS).flatMap(([file, permissions]) =>
      Object.keys(permissions).map((permission) => `${file}: ${permission}`),
    );
    const found = new Set(checks.map((c) => `${c.file}: ${c.permission}`));
    expect(listed.filter((entry) => !found.has(entry))).toEqual([]);
  });
});
