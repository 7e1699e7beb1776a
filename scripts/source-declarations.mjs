// Reads every service's endpoint declarations (services/<service>/src/api/endpoints.ts) from the TypeScript
// sources, without a build: `.ts` files are compiled one by one as they are required, by @swc/core (the compiler
// jest already uses), and the workspace packages resolve to their sources as in jest.config.js. So routes-gen and
// openapi-gen work on a clean clone and after an edit, never from a stale dist.
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const { transformSync } = require('@swc/core');

export const SERVICES = ['content', 'identity', 'search', 'discussion', 'config'];

/** The workspace packages by name, at their sources (jest.config.js maps them the same way). */
const SOURCES = {
  '@cms/gateway': join(root, 'gateway/src/index.ts'),
  '@cms/shared/adapters': join(root, 'services/shared/src/adapters/index.ts'),
  ...Object.fromEntries(
    ['shared', 'content', 'identity', 'search', 'discussion', 'config', 'embedded'].map((name) => [
      `@cms/${name}`,
      join(root, `services/${name}/src/index.ts`),
    ]),
  ),
};

let registered = false;

function registerTypeScript() {
  if (registered) return;
  registered = true;
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(
      this,
      Object.prototype.hasOwnProperty.call(SOURCES, request) ? SOURCES[request] : request,
      ...rest,
    );
  };
  Module._extensions['.ts'] = (module, filename) => {
    const { code } = transformSync(readFileSync(filename, 'utf8'), {
      filename,
      jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
}

/** Every declaration of every service, with the service whose list holds it. */
export function sourceDeclarations() {
  registerTypeScript();
  return SERVICES.flatMap((service) =>
    require(join(root, `services/${service}/src/api/endpoints.ts`)).ENDPOINTS.map((declaration) => ({
      service,
      declaration,
    })),
  );
}

/** `routesOf` of the shared package's source (the routing table of a service's declarations). */
export function sourceRoutesOf() {
  registerTypeScript();
  return require(join(root, 'services/shared/src/http/endpoint.ts')).routesOf;
}
