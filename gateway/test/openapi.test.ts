import SwaggerParser from '@apidevtools/swagger-parser';
import { createLogger, loadConfig } from '@cms/shared';
import { gatewayConfigSchema, startGateway, type RunningGateway } from '../src';
import DOCUMENT from '../src/openapi.generated.json';
import { ROUTES } from '../src/routes.generated';

/**
 * The OpenAPI 3.1 document (issue 17, item 5): valid against the OpenAPI 3.1 schema, naming every routed
 * endpoint and method, with the error shape of addendum §4, and served by the gateway on `/@openapi` and
 * `/openapi.json` without any service running.
 */

type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: any };
const doc = DOCUMENT as unknown as Document;

/** The document's paths that address `@name` (or the context itself for `''`), with their operations. */
function pathsOf(name: string): [string, Record<string, Operation>][] {
  return Object.entries(doc.paths).filter(([path]) =>
    name === '' ? path === '/' || path === '/{path}' : path.split('/').includes(`@${name}`),
  );
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // The validator dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(DOCUMENT) as never)).resolves.toBeDefined();
  });

  it('gives every operation an operation id of its own (client generators name a function after it)', () => {
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((operation) => (operation as { operationId?: string }).operationId),
    );
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names every routed endpoint with each of its methods', () => {
    const missing: string[] = [];
    for (const [name, route] of Object.entries(ROUTES)) {
      const paths = pathsOf(name);
      for (const method of route.methods) {
        if (!paths.some(([, item]) => item[method.toLowerCase()])) missing.push(`${method} @${name}`);
      }
      // Nothing the gateway would refuse with 405.
      for (const [path, item] of paths) {
        for (const method of Object.keys(item)) {
          if (!route.methods.includes(method.toUpperCase() as never)) missing.push(`extra ${method} ${path}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents sub-path parameters, the object path, queries and bodies', () => {
    const transition = doc.paths['/{path}/@workflow/{transition}'].post;
    expect(transition.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:path', 'path:transition']);
    expect((transition as any).requestBody.content['application/json'].schema.properties).toHaveProperty('comment');
    const listing = doc.paths['/@users'].get;
    expect(listing.parameters?.filter((p) => p.in === 'query').length).toBeGreaterThan(0);
  });

  it('gives every operation the error responses of addendum §4', () => {
    expect(doc.components.schemas.Error.required).toEqual(['type', 'message']);
    expect(JSON.stringify(doc.components.schemas.ValidationError)).toContain('errors');
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) {
        for (const status of ['400', '401', '403', '404', '405', '500']) {
          expect(operation.responses).toHaveProperty(status);
        }
      }
    }
    // @users refuses with 401 and the body null (addendum §4's exception).
    expect(JSON.stringify(doc.paths['/@users'].get.responses['401'])).toContain('"null"');
  });

  describe('served by the gateway', () => {
    let gateway: RunningGateway;
    const unreachable = '127.0.0.1:1';

    beforeAll(async () => {
      const config = loadConfig(gatewayConfigSchema, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
      gateway = await startGateway(
        config,
        {
          content: unreachable,
          identity: unreachable,
          search: unreachable,
          discussion: unreachable,
          config: unreachable,
        },
        createLogger('gateway', 'silent'),
      );
    });
    afterAll(async () => {
      await gateway.stop();
    });

    it.each(['/@openapi', '/openapi.json'])('on %s, with the public URL as its server', async (path) => {
      const response = await fetch(`http://127.0.0.1:${gateway.port}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const served = (await response.json()) as Document & { servers: { url: string }[] };
      expect(served.servers).toEqual([{ url: gateway.publicUrl }]);
      expect(served.paths).toEqual(doc.paths);
    });
  });
});
