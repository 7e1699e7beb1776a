import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { z } from 'zod';
import { forbidden, notFound, AppError } from '../../src/errors/app-error';
import type { HttpRequest__Output } from '../../src/generated/cms/common/v1/HttpRequest';
import type { HttpResponse } from '../../src/generated/cms/common/v1/HttpResponse';
import type { Principal__Output } from '../../src/generated/cms/common/v1/Principal';
import { fromServiceError } from '../../src/grpc/errors';
import type { ContextResolver } from '../../src/http/context';
import { serveEndpoints, matchSubPath, MAX_JSON_DEPTH } from '../../src/http/dispatcher';
import { declarations, routeOf, routesOf } from '../../src/http/endpoint';
import { param } from '../../src/http/params';
import { covers, proofOf, type Granted } from '../../src/permissions/granted';

const silent = pino({ level: 'silent' });

interface Doc {
  path: string;
  state: string | null;
}

const { endpoint, operation } = declarations<Doc, { seen: string[] }>();

const widget = endpoint({
  name: 'widget',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      paths: ['', ':name', ':name/:part'],
      permission: 'View',
      query: z.object({ size: param.int({ min: 1 }).optional(), tags: param.list().optional() }),
      handle: async (call) => ({
        status: 200,
        body: { path: call.context.path, params: { ...call.params }, query: call.query },
      }),
    }),
    POST: operation({
      paths: [':name'],
      permission: 'Modify portal content',
      guard: (call, deps) => {
        deps.seen.push(`guard ${call.params.name}`);
        if (call.params.name === 'refused') throw forbidden('refused by the guard');
      },
      body: z.object({ title: z.string() }).strict(),
      handle: async (call, deps) => {
        deps.seen.push(`handle ${call.body.title}`);
        return { status: 204 };
      },
    }),
  },
});

const rootOnly = endpoint({
  name: 'settings',
  service: 'content',
  context: 'site-root',
  denial: 'null',
  operations: { GET: operation({ permission: 'cms.ManagePortal', handle: async () => ({ status: 200 }) }) },
});

/** `/private` is private (Owner and friends see it), `/public` published; nothing else exists. */
const contexts: ContextResolver<Doc> = {
  async resolve(path) {
    const docs: Record<string, Doc> = {
      '/': { path: '/', state: null },
      '/private': { path: '/private', state: 'private' },
      '/public': { path: '/public', state: 'published' },
    };
    const doc = docs[path];
    if (!doc) throw notFound(`Resource not found: ${path}`);
    return { context: doc, scope: { state: doc.state, localRoles: [] } };
  },
};

const MANAGER: Principal__Output = { id: 'admin', roles: ['Manager'], groups: [], fullname: '' };
const MEMBER: Principal__Output = { id: 'jane', roles: ['Member'], groups: [], fullname: '' };

function request(overrides: Partial<HttpRequest__Output>): HttpRequest__Output {
  return {
    method: 'GET',
    context_path: [],
    endpoint: 'widget',
    sub_path: [],
    query: [],
    body: Buffer.alloc(0),
    principal: MANAGER,
    public_url: 'http://localhost:8080',
    request_id: 'test',
    headers: {},
    ...overrides,
  };
}

function call(
  handler: grpc.handleUnaryCall<HttpRequest__Output, HttpResponse>,
  req: HttpRequest__Output,
): Promise<{ status: number; body: unknown; headers: Record<string, string> } | AppError> {
  return new Promise((resolve) => {
    const fakeCall = { request: req, metadata: new grpc.Metadata() } as unknown as grpc.ServerUnaryCall<
      HttpRequest__Output,
      HttpResponse
    >;
    handler(fakeCall, (error, response) => {
      if (error) {
        resolve(fromServiceError(Object.assign(new Error(error.details ?? ''), error) as grpc.ServiceError, 'test'));
        return;
      }
      const raw = response!.body as Buffer;
      resolve({
        status: response!.status as number,
        headers: (response!.headers ?? {}) as Record<string, string>,
        body: raw.length ? JSON.parse(raw.toString('utf8')) : undefined,
      });
    });
  });
}

function serve(seen: string[] = []) {
  return serveEndpoints({
    service: 'content',
    endpoints: [widget, rootOnly],
    deps: { seen },
    contexts,
    logger: silent,
  });
}

describe('serveEndpoints', () => {
  it('answers 404 for an endpoint that is not declared, 405 with Allow for a method it does not take', async () => {
    const unknown = await call(serve(), request({ endpoint: 'nothing' }));
    expect(unknown).toBeInstanceOf(AppError);
    expect((unknown as AppError).type).toBe('NotFound');
    const wrong = (await call(serve(), request({ method: 'DELETE' }))) as AppError;
    expect(wrong.type).toBe('MethodNotAllowed');
    expect(wrong.headers).toEqual({ Allow: 'GET, POST' });
  });

  it('matches the sub-path against the declared patterns and hands the named segments over', async () => {
    const none = await call(serve(), request({ context_path: ['public'] }));
    expect(none).toMatchObject({ status: 200, body: { path: '/public', params: {} } });
    const two = await call(serve(), request({ sub_path: ['a', 'b'] }));
    expect(two).toMatchObject({ status: 200, body: { params: { name: 'a', part: 'b' } } });
    const tooDeep = (await call(serve(), request({ sub_path: ['a', 'b', 'c'] }))) as AppError;
    expect(tooDeep.type).toBe('NotFound');
  });

  it('answers 404 for a context that does not exist, on every endpoint', async () => {
    const missing = (await call(serve(), request({ context_path: ['nope'] }))) as AppError;
    expect(missing.type).toBe('NotFound');
    expect(missing.message).toContain('/nope');
  });

  it('answers 404 for a site-root endpoint called on any other context', async () => {
    const below = (await call(serve(), request({ endpoint: 'settings', context_path: ['public'] }))) as AppError;
    expect(below.type).toBe('NotFound');
    expect(await call(serve(), request({ endpoint: 'settings' }))).toMatchObject({ status: 200 });
  });

  it('checks View on the context before anything else: 401 for anonymous callers, 403 for others', async () => {
    const anonymous = (await call(serve(), request({ context_path: ['private'], principal: null }))) as AppError;
    expect(anonymous.type).toBe('Unauthorized');
    expect(anonymous.headers?.['WWW-Authenticate']).toMatch(/^Basic/);
    const member = (await call(serve(), request({ context_path: ['private'], principal: MEMBER }))) as AppError;
    expect(member.type).toBe('Forbidden');
    expect(await call(serve(), request({ context_path: ['public'], principal: null }))).toMatchObject({ status: 200 });
  });

  it('checks the declared permission, then the guard, and only then reads the body', async () => {
    const seen: string[] = [];
    const bad = Buffer.from(JSON.stringify({ title: 1 }));
    const denied = (await call(
      serve(seen),
      request({ method: 'POST', context_path: ['public'], sub_path: ['x'], body: bad, principal: MEMBER }),
    )) as AppError;
    expect(denied.type).toBe('Forbidden');
    expect(seen).toEqual([]);
    const guarded = (await call(
      serve(seen),
      request({ method: 'POST', sub_path: ['refused'], body: bad }),
    )) as AppError;
    expect(guarded.type).toBe('Forbidden');
    expect(seen).toEqual(['guard refused']);
    const invalid = (await call(serve(seen), request({ method: 'POST', sub_path: ['x'], body: bad }))) as AppError;
    expect(invalid.type).toBe('BadRequest');
    expect(invalid.errors).toEqual([{ field: 'title', message: expect.any(String) }]);
    expect(seen).toEqual(['guard refused', 'guard x']);
    const ok = Buffer.from(JSON.stringify({ title: 'Hello' }));
    expect(await call(serve(seen), request({ method: 'POST', sub_path: ['x'], body: ok }))).toMatchObject({
      status: 204,
    });
    expect(seen).toEqual(['guard refused', 'guard x', 'guard x', 'handle Hello']);
  });

  it('a request that comes while a large body is parsed is handled before that body (issue 25: no one write holds the process)', async () => {
    const seen: string[] = [];
    const pages = endpoint({
      name: 'pages',
      service: 'content',
      context: 'content',
      operations: {
        GET: operation({
          permission: { public: 'a test of the order, not of access' },
          handle: async (_call, deps) => {
            deps.seen.push('GET');
            return { status: 200, body: {} };
          },
        }),
        PATCH: operation({
          permission: { public: 'a test of the order, not of access' },
          body: z.record(z.unknown()),
          handle: async (_call, deps) => {
            deps.seen.push('PATCH');
            return { status: 204 };
          },
        }),
      },
    });
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [pages],
      deps: { seen },
      contexts,
      logger: silent,
    });
    // 2,000 blocks of 20 members: about 400 KiB, past the size whose parse is followed by a turn for others.
    const blocks = Object.fromEntries(
      Array.from({ length: 2000 }, (_, j) => [
        `b${j}`,
        Object.fromEntries(Array.from({ length: 20 }, (__, k) => [`k${k}`, k])),
      ]),
    );
    const large = Buffer.from(JSON.stringify({ blocks }));
    expect(large.length).toBeGreaterThan(256 * 1024);

    const write = call(handler, request({ method: 'PATCH', endpoint: 'pages', body: large }));
    const read = call(handler, request({ method: 'GET', endpoint: 'pages' }));
    expect(await Promise.all([write, read])).toMatchObject([{ status: 204 }, { status: 200 }]);
    expect(seen).toEqual(['GET', 'PATCH']);
  });

  it('parses the body itself: malformed JSON and JSON nested deeper than MAX_JSON_DEPTH are 400, the handler never runs', async () => {
    const seen: string[] = [];
    const notes = endpoint({
      name: 'notes',
      service: 'content',
      context: 'content',
      operations: {
        PATCH: operation({
          permission: { public: 'a test of the body, not of access' },
          body: z.record(z.unknown()),
          handle: async (_call, deps) => {
            deps.seen.push('handle');
            return { status: 204 };
          },
        }),
      },
    });
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [notes],
      deps: { seen },
      contexts,
      logger: silent,
    });
    const patch = (text: string) =>
      call(handler, request({ method: 'PATCH', endpoint: 'notes', body: Buffer.from(text) }));
    // An object holding `arrays` nested arrays: arrays + 1 levels.
    const nested = (arrays: number) => `{"v":${'['.repeat(arrays)}${']'.repeat(arrays)}}`;

    const malformed = (await patch('{"v": ')) as AppError;
    expect(malformed).toMatchObject({ type: 'BadRequest', message: expect.stringMatching(/^Malformed JSON body/) });
    expect(await patch(nested(MAX_JSON_DEPTH - 1))).toMatchObject({ status: 204 });
    for (const arrays of [MAX_JSON_DEPTH, 20_000, 200_000]) {
      const deep = (await patch(nested(arrays))) as AppError;
      expect(deep).toMatchObject({
        type: 'BadRequest',
        message: `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
    // A `__proto__` member, at the top or deep inside, is refused rather than silently dropped by a schema.
    // The nesting is counted on the bytes: an escaped name is still `__proto__` once parsed.
    for (const text of [
      '{"__proto__": {"admin": true}}',
      '{"a": [{"b": {"__proto__": {"x": 1}}}]}',
      '{"a": {"\\u005f_proto__": {"x": 1}}}',
    ]) {
      expect(await patch(text)).toMatchObject({ type: 'BadRequest', message: expect.stringMatching(/__proto__/) });
    }
    expect(await patch('{"constructor": "plain data", "proto": 1}')).toMatchObject({ status: 204 });
    // Brackets in strings (after an escaped quote too) are not nesting.
    const brackets = '['.repeat(MAX_JSON_DEPTH * 2);
    expect(await patch(`{"a": "${brackets}", "b": "\\"${brackets}"}`)).toMatchObject({ status: 204 });
    expect(seen).toEqual(['handle', 'handle', 'handle']);
  });

  it('validates the query with the declared schema: typed values, 400 naming the parameter', async () => {
    const typed = await call(
      serve(),
      request({
        query: [
          { key: 'size:int', value: '5' },
          { key: 'tags:list', value: 'a' },
          { key: 'tags', value: 'b,c' },
        ],
      }),
    );
    expect(typed).toMatchObject({ body: { query: { size: 5, tags: ['a', 'b', 'c'] } } });
    const bad = (await call(serve(), request({ query: [{ key: 'size', value: 'many' }] }))) as AppError;
    expect(bad.type).toBe('BadRequest');
    expect(bad.errors?.[0].field).toBe('size');
  });

  it('answers a refusal as 401 with the body null where the endpoint declares it', async () => {
    const member = await call(serve(), request({ endpoint: 'settings', principal: MEMBER }));
    expect(member).toEqual({ status: 401, body: null, headers: {} });
    const anonymous = await call(serve(), request({ endpoint: 'settings', principal: null }));
    expect(anonymous).toMatchObject({ status: 401, body: null, headers: { 'WWW-Authenticate': expect.any(String) } });
  });

  it('hands the handler its proofs: View and the declared permission on the context, which look-alikes are not', async () => {
    let proofs: readonly Granted[] = [];
    let own: Granted | undefined;
    const proved = endpoint({
      name: 'proved',
      service: 'content',
      context: 'content',
      operations: {
        PATCH: operation({
          permission: 'Modify portal content',
          handle: async (call) => {
            ({ granted: proofs, proof: own } = call);
            return { status: 204 };
          },
        }),
      },
    });
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [proved],
      deps: { seen: [] },
      contexts,
      logger: silent,
    });
    expect(
      await call(handler, request({ method: 'PATCH', endpoint: 'proved', context_path: ['public'] })),
    ).toMatchObject({
      status: 204,
    });
    expect(proofs.map((p) => p.permission)).toEqual(['View', 'Modify portal content']);
    expect(own).toMatchObject({ permission: 'Modify portal content', contextPath: '/public', principalId: 'admin' });
    expect(covers(proofs, 'Modify portal content', '/public')).toBe(true);
    expect(covers(proofs, 'Modify portal content', '/private')).toBe(false);
    expect(covers(proofs, 'Delete objects', '/public')).toBe(false);
    const forged = { ...own! } as Granted;
    expect(covers([forged], 'Modify portal content', '/public')).toBe(false);
    expect(() => proofOf(forged, 'Modify portal content')).toThrow(/did not prove/);
    expect(proofOf(own, 'Modify portal content')).toBe(own);
  });

  it('evaluates a permission that depends on the request after the guard, checks it and proves it', async () => {
    const seen: string[] = [];
    let own: Granted | undefined;
    const steps = endpoint({
      name: 'steps',
      service: 'content',
      context: 'content',
      operations: {
        POST: operation({
          paths: [':step'],
          permission: {
            permissionOf: (call, deps) => {
              deps.seen.push(`permission of ${call.params.step}`);
              return call.params.step === 'review' ? 'Review portal content' : 'View';
            },
            why: 'each step its own',
          },
          guard: (call, deps) => void deps.seen.push(`guard ${call.params.step}`),
          handle: async (call) => {
            own = call.proof;
            return { status: 204 };
          },
        }),
      },
    });
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [steps],
      deps: { seen },
      contexts,
      logger: silent,
    });
    const post = (step: string, principal: Principal__Output | null) =>
      call(
        handler,
        request({ method: 'POST', endpoint: 'steps', context_path: ['public'], sub_path: [step], principal }),
      );
    expect(await post('review', MEMBER)).toMatchObject({ type: 'Forbidden' });
    expect(seen).toEqual(['guard review', 'permission of review']);
    expect(await post('review', MANAGER)).toMatchObject({ status: 204 });
    expect(own).toMatchObject({ permission: 'Review portal content', contextPath: '/public' });
    expect(await post('look', null)).toMatchObject({ status: 204 });
    expect(own).toMatchObject({ permission: 'View', principalId: null });
  });

  it('refuses an anonymous caller of an operation for logged-in callers with the challenge', async () => {
    const mine = endpoint({
      name: 'mine',
      service: 'content',
      context: 'content',
      operations: {
        GET: operation({ permission: { authenticated: 'a test' }, handle: async () => ({ status: 200 }) }),
      },
    });
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [mine],
      deps: { seen: [] },
      contexts,
      logger: silent,
    });
    const anonymous = (await call(handler, request({ endpoint: 'mine', principal: null }))) as AppError;
    expect(anonymous).toMatchObject({ type: 'Unauthorized', headers: { 'WWW-Authenticate': expect.any(String) } });
    expect(await call(handler, request({ endpoint: 'mine', principal: MEMBER }))).toMatchObject({ status: 200 });
  });

  it('refuses, at start, an operation without a permission or its reason, or naming a guard it lacks', () => {
    const serveOne = (op: unknown) =>
      serveEndpoints({
        service: 'content',
        endpoints: [{ name: 'bare', service: 'content', context: 'content', operations: { GET: op as never } }],
        deps: { seen: [] },
        contexts,
        logger: silent,
      });
    const handle = async () => ({ status: 200 });
    expect(() => serveOne({ permission: null, handle })).toThrow(/GET @bare declares no permission/);
    expect(() => serveOne({ permission: { guard: 'the guard' }, handle })).toThrow(/names a guard but has none/);
  });

  it('refuses, at start, a declaration of another service or one declared twice', () => {
    expect(() =>
      serveEndpoints({ service: 'search', endpoints: [widget], deps: { seen: [] }, contexts, logger: silent }),
    ).toThrow(/declared for content/);
    expect(() =>
      serveEndpoints({ service: 'content', endpoints: [widget, widget], deps: { seen: [] }, contexts, logger: silent }),
    ).toThrow(/declared twice/);
  });

  it('serves an endpoint declared in parts: the pattern with the most literal segments, then the first part', async () => {
    const answering = (part: string, paths: string[]) =>
      endpoint({
        name: 'panels',
        service: 'content',
        context: 'content',
        operations: {
          GET: operation({ paths, permission: 'View', handle: async () => ({ status: 200, body: { part } }) }),
        },
      });
    const byId = answering('by id', [':id']);
    const special = answering('special', ['special', 'special/:item']);
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [byId, special, answering('later', [':other'])],
      deps: { seen: [] },
      contexts,
      logger: silent,
    });
    const get = (sub_path: string[]) => call(handler, request({ endpoint: 'panels', sub_path }));
    expect(await get(['special'])).toMatchObject({ body: { part: 'special' } });
    expect(await get(['special', 'x'])).toMatchObject({ body: { part: 'special' } });
    expect(await get(['plain'])).toMatchObject({ body: { part: 'by id' } });
    expect(((await get(['plain', 'x', 'y'])) as AppError).type).toBe('NotFound');
    const deleted = (await call(handler, request({ method: 'DELETE', endpoint: 'panels' }))) as AppError;
    expect(deleted.type).toBe('MethodNotAllowed');
  });

  it('hands each operation only the collaborators its declaration uses, the parts of one endpoint each their own', async () => {
    interface Wide {
      seen: string[];
      store: { name: string };
      mailer: { name: string };
    }
    const wide = declarations<Doc, Wide>();
    const keysOf = (deps: object) => Object.keys(deps).sort();
    const answering = (uses: readonly ('seen' | 'store' | 'mailer')[], paths: string[]) => {
      const { endpoint: declare, operation: declareOperation } = wide.using(...uses);
      return declare({
        name: 'narrow',
        service: 'content',
        context: 'content',
        operations: {
          GET: declareOperation({
            paths,
            permission: 'View',
            handle: async (_, deps) => ({ status: 200, body: keysOf(deps) }),
          }),
        },
      });
    };
    const deps: Wide = { seen: [], store: { name: 'store' }, mailer: { name: 'mailer' } };
    const handler = serveEndpoints({
      service: 'content',
      endpoints: [
        answering(['store'], ['']),
        answering(['mailer', 'seen', 'mailer'], ['mail']),
        wide.endpoint({
          name: 'everything',
          service: 'content',
          context: 'content',
          operations: {
            GET: wide.operation({ permission: 'View', handle: async (_, all) => ({ status: 200, body: keysOf(all) }) }),
          },
        }),
      ],
      deps,
      contexts,
      logger: silent,
    });
    expect(await call(handler, request({ endpoint: 'narrow' }))).toMatchObject({ body: ['store'] });
    expect(await call(handler, request({ endpoint: 'narrow', sub_path: ['mail'] }))).toMatchObject({
      body: ['mailer', 'seen'],
    });
    // A declaration made without `using` gets them all.
    expect(await call(handler, request({ endpoint: 'everything' }))).toMatchObject({
      body: ['mailer', 'seen', 'store'],
    });
  });

  it('refuses, at start, a declaration that uses a collaborator the service lacks, or shares an operation object', () => {
    const { endpoint: declare, operation: declareOperation } = declarations<
      Doc,
      { seen: string[]; store: object }
    >().using('store');
    const narrow = declare({
      name: 'narrow',
      service: 'content',
      context: 'content',
      operations: { GET: declareOperation({ permission: 'View', handle: async () => ({ status: 200 }) }) },
    });
    expect(() =>
      serveEndpoints({
        service: 'content',
        endpoints: [narrow],
        deps: { seen: [] } as never,
        contexts,
        logger: silent,
      }),
    ).toThrow(/@narrow uses "store", which the content service lacks/);
    // One operation object in two declarations that are handed different collaborators.
    const shared = declareOperation({ permission: 'View', handle: async () => ({ status: 200 }) });
    const part = (name: string) =>
      declare({ name, service: 'content', context: 'content', operations: { GET: shared } });
    expect(() =>
      serveEndpoints({
        service: 'content',
        endpoints: [part('one'), part('two')],
        deps: { seen: [], store: {} },
        contexts,
        logger: silent,
      }),
    ).toThrow(/@two shares an operation object with another declaration/);
  });

  it('refuses, at start, parts of one endpoint that disagree on a fact besides their operations', () => {
    const other = { ...widget, context: 'site-root' as const, operations: { DELETE: widget.operations.POST } };
    expect(() =>
      serveEndpoints({ service: 'content', endpoints: [widget, other], deps: { seen: [] }, contexts, logger: silent }),
    ).toThrow(/disagree/);
    expect(() => routesOf([widget, other])).toThrow(/disagree/);
  });
});

describe('routeOf', () => {
  it('is the gateway’s row of a declaration: service, methods in a fixed order, authentication, caching', () => {
    expect(routeOf(widget)).toEqual({ service: 'content', methods: ['GET', 'POST'], auth: 'verify', cache: 'other' });
  });

  it('joins the methods of an endpoint declared in parts (routesOf)', () => {
    const part = { ...widget, operations: { DELETE: widget.operations.POST } };
    expect(routesOf([widget, part, rootOnly])).toEqual({
      widget: { service: 'content', methods: ['GET', 'POST', 'DELETE'], auth: 'verify', cache: 'other' },
      settings: routeOf(rootOnly),
    });
  });

  it('carries the declared cache kind, gateway cache scope and file hop', () => {
    const cached = { ...widget, cache: 'content' as const, gatewayCache: 'object' as const };
    expect(routeOf(cached)).toMatchObject({ cache: 'content', gatewayCache: 'object' });
    expect(routeOf({ ...widget, fileHop: 'download' })).toMatchObject({ cache: 'other', fileHop: 'download' });
  });
});

describe('matchSubPath', () => {
  it('needs every literal segment and one segment per parameter', () => {
    const patterns = [['lock'], [':id', 'edit']];
    expect(matchSubPath(patterns, ['lock'])).toEqual({});
    expect(matchSubPath(patterns, ['7', 'edit'])).toEqual({ id: '7' });
    expect(matchSubPath(patterns, ['7'])).toBeNull();
  });
});
