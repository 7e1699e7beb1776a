import { ENDPOINTS as CONFIG } from '../../services/config/src/api/endpoints';
import { ENDPOINTS as CONTENT } from '../../services/content/src/api/endpoints';
import { ENDPOINTS as DISCUSSION } from '../../services/discussion/src/api/endpoints';
import { ENDPOINTS as IDENTITY } from '../../services/identity/src/api/endpoints';
import { ENDPOINTS as SEARCH } from '../../services/search/src/api/endpoints';
import { ROUTES } from '../../gateway/src/routes.generated';
import { routesOf, type EndpointDeclaration, type HttpMethod } from '@cms/shared';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const DECLARATIONS = [...CONTENT, ...IDENTITY, ...SEARCH, ...CONFIG, ...DISCUSSION] as EndpointDeclaration<
  unknown,
  unknown
>[];

/** Every (endpoint, method) the services declare, with a sub-path it takes (parameters filled in). */
const OPERATIONS = DECLARATIONS.flatMap((d) =>
  (Object.keys(d.operations) as HttpMethod[]).map((method) => {
    const pattern = d.operations[method]?.paths?.[0] ?? '';
    const subPath = pattern.replace(/:[^/]+/g, 'x');
    return [d.name, method, d.context, subPath] as const;
  }),
);

const urlOf = (context: string, name: string, subPath: string) =>
  name === '' ? context : `${context}/@${name}${subPath ? `/${subPath}` : ''}`;

describe('contexts of every endpoint, through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    expect((await t.request('POST', '/', { body: { '@type': 'Folder', id: 'folder', title: 'Folder' } })).status).toBe(
      201,
    );
    // Private, as all new content: anonymous callers may not view it.
    expect(
      (await t.request('POST', '/folder', { body: { '@type': 'Document', id: 'doc', title: 'Doc' } })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('routes exactly what the services declare (the generated table is current)', () => {
    const declared = routesOf(DECLARATIONS);
    expect(ROUTES).toEqual(declared);
  });

  it.each(OPERATIONS)('%s %s answers 404 where no content is', async (name, method, _context, subPath) => {
    const response = await t.request(method, urlOf('/nope', name, subPath));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: 'NotFound', message: expect.any(String) });
  });

  it.each(OPERATIONS.filter(([, , context]) => context === 'site-root'))(
    '%s %s exists at the site root only: 404 on a folder',
    async (name, method, _context, subPath) => {
      const response = await t.request(method, urlOf('/folder', name, subPath));
      expect(response.status).toBe(404);
    },
  );

  it.each(OPERATIONS.filter(([, , context]) => context === 'content'))(
    '%s %s: an anonymous caller who may not view the context gets 401',
    async (name, method, _context, subPath) => {
      const response = await t.request(method, urlOf('/folder/doc', name, subPath), { auth: null });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    },
  );
});
