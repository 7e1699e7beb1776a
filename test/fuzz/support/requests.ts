/**
 * The requests the fuzzer sends, as fast-check arbitraries: every route of the gateway's table (and some that
 * are not) with every method it takes (and some it does not), on the fixture tree and on paths that are not
 * there, by every kind of caller, with the bodies of bodies.ts and odd paths, ids, queries (batching
 * parameters among them) and headers.
 */
import fc from 'fast-check';
import { ROUTES } from '../../../gateway/src/routes.generated';
import { RECORDS, acceptableFor, body, mutatedFor } from './bodies';
import type { Body, Caller, FuzzRequest } from './http';
import { ACCOUNTS, FIXTURES, GROUP } from './suite';
import { KiB } from './values';

// ---------------------------------------------------------------------------------------------------------------
// Paths

/** A segment as sent, already percent-encoded (or deliberately not). */
const encodedSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('folder', 'doc', 'sub', 'nope', 'image', 'file').map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeURIComponent) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%ED%A0%80',
      '%C0%AF',
      '%FF',
      '%',
      '%zz',
      '%00',
      '%2F',
      '%2e%2e',
      '..',
      '.',
      '_private',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      '++api++',
      '%40search',
      '@@images',
      'a%20b',
      '%F0%9F%98%80',
      '~',
      ';x=1',
      'a:b',
      '%E2%80%AE',
      '\u00e9',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 20_000 }).map((n) => 'x'.repeat(n)) },
);

const CONTEXTS = ['/', ...FIXTURES.map(([path]) => path), '/nope', '/folder/nope/deeper', '/folder/doc/too/deep'];
const contextPath: fc.Arbitrary<string> = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom(...CONTEXTS).map((p) => (p === '/' ? '' : p)) },
  { weight: 2, arbitrary: fc.array(encodedSegment, { minLength: 1, maxLength: 4 }).map((s) => '/' + s.join('/')) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((n) => '/a'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/++api++', '/++api++/folder', '//folder//doc', '/folder/', '/++api++/++api++/folder'),
  },
);

const UNKNOWN_ENDPOINTS = [
  'nope',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  '',
  '@download',
  'search%00',
  'SEARCH',
  'x'.repeat(5000),
  '%ED%A0%80',
];

/** Endpoints that take sub-paths (the others mostly get none: an undeclared sub-path is only a 404). */
const TAKES_SUB_PATHS = new Set([
  'workflow',
  'users',
  'portrait',
  'groups',
  'download',
  'images',
  'registry',
  'history',
  'types',
]);

/** Sub-path segments worth trying on each endpoint (unknown ones get anything). */
function subSegments(endpoint: string, method: string): fc.Arbitrary<string> {
  const writing = method !== 'GET' && method !== 'HEAD';
  // The administrator is the fuzzer's own account for reading the state: it is read, never written.
  const users = [
    ACCOUNTS.victim.id,
    ACCOUNTS.member.id,
    ACCOUNTS.manager.id,
    'nobody',
    '__proto__',
    ...(writing ? [] : ['admin']),
  ];
  const known = new Map<string, string[]>(
    Object.entries({
      workflow: ['publish', 'retract', 'submit', 'reject', 'hide', 'show', 'nope', '__proto__', 'constructor'],
      users,
      portrait: users,
      groups: [
        GROUP,
        'Administrators',
        'Reviewers',
        'Site%20Administrators',
        'AuthenticatedUsers',
        'nobody',
        '__proto__',
      ],
      download: ['file', 'image', 'nope', '__proto__', 'a.txt'],
      images: ['image', 'file', 'preview', 'thumb', 'large', 'icon', 'mini', 'nope', '__proto__'],
      registry: RECORDS.map(encodeURIComponent),
      history: ['0', '1', '2', '-1', '1.5', '1e3', 'NaN', '9007199254740993', '999999999999999999999', ''],
      types: ['Document', 'Folder', 'News%20Item', 'Image', 'nope', '__proto__'],
    }),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(known.get(endpoint) ?? ['x'])) },
    { weight: 1, arbitrary: encodedSegment },
  );
}

const QUERY_KEYS = [
  'b_start',
  'b_size',
  'b_start:int',
  'b_size:int',
  'expand',
  'expand:list',
  'fullobjects',
  'metadata_fields',
  'metadata_fields:list',
  'sort_on',
  'sort_order',
  'sort_limit',
  'SearchableText',
  'portal_type',
  'portal_type:list',
  'review_state',
  'path',
  'path.query',
  'path.depth',
  'path.depth:int',
  'limit',
  'query',
  'search',
  'q',
  'groups-filter:list',
  'is_folderish:boolean',
  'Title',
  'UID',
  'created.query:record:list:date',
  'created.range:record',
  'effective.range',
  'include_items',
  'x:record',
  'a:list:int',
  ':list',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  '__proto__.polluted',
  'b_size%ED%A0%80',
];
const QUERY_VALUES = [
  '0',
  '1',
  '-1',
  '25',
  '1e309',
  '99999999999999999999',
  '9007199254740993',
  'NaN',
  'Infinity',
  '',
  'true',
  'false',
  '1.5',
  '0x10',
  ' 1',
  'x',
  '__proto__',
  '_all',
  'breadcrumbs,navigation,actions,types,workflow,nope',
  '%ED%A0%80',
  '%FF',
  '%',
  'reverse',
  'ascending',
  'path',
  '/folder',
  '{"query":[{"i":"portal_type","o":"cms.app.querystring.operation.selection.any","v":["Document"]}]}',
  '{"__proto__":{"x":1}}',
  '[',
];
const query: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) },
            { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map(encodeURIComponent) },
          ),
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...QUERY_VALUES) },
            { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent) },
            { weight: 1, arbitrary: fc.integer({ min: 1000, max: 10_000 }).map((n) => 'q'.repeat(n)) },
          ),
        ),
        { minLength: 1, maxLength: 5 },
      )
      .map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('?', '?&&', '?=', '?a', '?a=1&a=2&a=3', '?b_size=1&b_size=2', '?' + 'a=1&'.repeat(2000)),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// Headers

/** Header values as the HTTP client can send them: no line breaks, nothing above U+00FF. */
const latin1 = (s: string) => s.replace(/[\r\n]/g, ' ').replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');
const jwtLike = (payload: string) => `${b64('{"alg":"HS256"}')}.${Buffer.from(payload).toString('base64url')}.c2ln`;

const AUTHORIZATIONS = [
  'Basic',
  'Basic ',
  'Basic !!!',
  `Basic ${b64('nocolon')}`,
  `Basic ${b64(':')}`,
  `Basic ${b64(`${ACCOUNTS.member.id}:wrong`)}`,
  `Basic ${b64('nobody:nobody')}`,
  `Basic ${b64('\u00ff\u00fe:\u00ff')}`,
  `Basic ${b64('__proto__:x')}`,
  `Basic ${b64('x'.repeat(2000) + ':y')}`,
  `basic ${b64(`${ACCOUNTS.member.id}:${ACCOUNTS.member.password}`)}`,
  'Bearer',
  'Bearer ',
  'Bearer x.y.z',
  `Bearer ${jwtLike('{"sub":"admin","exp":99999999999}')}`,
  `Bearer ${jwtLike('{"__proto__":{"sub":"admin"},"exp":1}')}`,
  `Bearer ${'a'.repeat(8000)}`,
  'Digest username="admin"',
  'Negotiate abc',
  '__proto__ x',
  ' ',
];

const header: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  fc.tuple(
    fc.constant('Content-Type'),
    fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      '*/*',
      '',
      'application/json; charset=\u00ff',
    ),
  ),
  fc.tuple(fc.constant('Accept'), fc.constantFrom('application/json', 'text/html', '*/*', 'image/*', 'garbage/;;;')),
  fc.tuple(
    fc.constant('X-Request-Id'),
    fc.oneof(fc.constantFrom('abc', '../../etc', '__proto__', 'a'.repeat(200)), fc.string({ maxLength: 30 })),
  ),
  fc.tuple(
    fc.constantFrom(
      'Lock-Token',
      'Prefer',
      'Accept-Language',
      'Cookie',
      'X-Forwarded-For',
      'Range',
      'If-None-Match',
      'Origin',
    ),
    fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'bytes=0-1',
        'bytes=-1',
        'bytes=9999999999-',
        'en',
        'de-DE,de;q=0.9',
        '1.2.3.4, ::1',
        'return=minimal',
      ),
    ),
  ),
  fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'nonsense', '100-continue, foo')),
  fc.tuple(fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'X-Fuzz'), fc.string({ maxLength: 20 })),
  fc.tuple(
    fc.constant('X-Long'),
    fc.integer({ min: 1 * KiB, max: 12 * KiB }).map((n) => 'h'.repeat(n)),
  ),
);

const headers: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 3,
    arbitrary: fc.array(header, { minLength: 1, maxLength: 3 }).map((pairs) => {
      const result: Record<string, string> = Object.create(null);
      for (const [name, v] of pairs) result[name] = latin1(v);
      return result;
    }),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// Requests

const ENDPOINTS = Object.keys(ROUTES);
/** The services whose endpoints answer on the site root only (so the fuzzer mostly sends them there). */
const SITE_ROOT_SERVICES = new Set(['identity', 'config']);
const serviceOf = (endpoint: string) =>
  Object.prototype.hasOwnProperty.call(ROUTES, endpoint) ? ROUTES[endpoint].service : 'none';
const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'FUZZ'];

const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Caller>('anonymous') },
  { weight: 5, arbitrary: fc.constant<Caller>('member') },
  { weight: 6, arbitrary: fc.constant<Caller>('manager') },
  { weight: 2, arbitrary: fc.constant<Caller>('token') },
  { weight: 1, arbitrary: fc.constant<Caller>('as-given') },
);

const framing: fc.Arbitrary<FuzzRequest['framing']> = fc.oneof(
  { weight: 40, arbitrary: fc.constant<FuzzRequest['framing']>('length') },
  { weight: 2, arbitrary: fc.constant<FuzzRequest['framing']>('chunked') },
  { weight: 2, arbitrary: fc.constantFrom<FuzzRequest['framing']>('gzip', 'deflate', 'br') },
  { weight: 1, arbitrary: fc.constant<FuzzRequest['framing']>('bad-gzip') },
  { weight: 1, arbitrary: fc.constant<FuzzRequest['framing']>('declared-too-large') },
  { weight: 1, arbitrary: fc.constantFrom<FuzzRequest['framing']>('gzip-bomb', 'deflate-bomb', 'br-bomb') },
);

/** Node's default limit on a request's head (--max-http-header-size), less room for the headers the client adds. */
const HEAD_LIMIT = 15 * KiB;

/** Where a request goes: mostly where its endpoint answers (the site root, a folder for a new item), not only. */
function contextFor(endpoint: string, method: string): fc.Arbitrary<string> {
  if (SITE_ROOT_SERVICES.has(serviceOf(endpoint))) {
    return fc.oneof({ weight: 6, arbitrary: fc.constantFrom('', '/++api++') }, { weight: 1, arbitrary: contextPath });
  }
  if ((endpoint === '' && method === 'POST') || endpoint === 'copy' || endpoint === 'move') {
    return fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('', '/folder', '/folder/sub') },
      { weight: 1, arbitrary: contextPath },
    );
  }
  return contextPath;
}

/** A request target the HTTP client sends: what it refuses (spaces, controls, above U+00FF) percent-encoded. */
const sendable = (target: string) =>
  target.replace(/[^\u0021-\u00ff]/gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

interface Parts {
  context: string;
  sub: string[];
  query: string;
  caller: Caller;
  headers: Record<string, string>;
  authorization: string;
  body: Body;
  framing: FuzzRequest['framing'];
}

function assemble(endpoint: string, method: string, r: Parts, mode: string): FuzzRequest {
  const endpointSegment = endpoint === '' ? [] : [`@${endpoint}`];
  const path = [r.context, ...endpointSegment, ...r.sub].join('/').replace(/^(?!\/)/, '/');
  const extra = { ...r.headers };
  if (r.caller === 'as-given') extra.Authorization = r.authorization;
  const target = sendable(path + r.query);
  const headSize = target.length + Object.entries(extra).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return {
    // A HEAD whose head the parser refuses gets the JSON error body all the same (the gateway cannot tell the
    // method of a request it could not parse), which a client expecting no body takes as a framing error.
    method: method === 'HEAD' && headSize > HEAD_LIMIT ? 'GET' : method,
    target,
    caller: r.caller,
    headers: extra,
    // A bomb is a body of its own (http.ts), whatever was drawn.
    body: r.framing === 'declared-too-large' || r.framing.endsWith('-bomb') ? { kind: 'none' } : r.body,
    framing: r.framing,
    kind: `${mode} @${endpoint}${r.body.kind === 'json' ? '' : ` ${r.body.kind}`}`,
    beyondBounds:
      r.framing.endsWith('-bomb') ||
      (r.framing !== 'declared-too-large' && r.framing !== 'bad-gzip' && r.body.kind === 'json' && r.body.beyondBounds),
  };
}

/** The fixtures a targeted request goes to; no folder is deleted (its subtree would be gone until the next heal). */
function targetContexts(endpoint: string, method: string): string[] {
  const fixtures = FIXTURES.map(([path]) => path);
  if (endpoint === '' && method === 'DELETE')
    return fixtures.filter((path) => path !== '/folder' && path !== '/folder/sub');
  return ['', ...fixtures];
}

/** An endpoint, the context itself (content reads and writes) more often, as it is of real clients. */
const endpointName = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 12, arbitrary: fc.constantFrom(...ENDPOINTS) },
);

const declaredMethods = (endpoint: string): readonly string[] =>
  Object.prototype.hasOwnProperty.call(ROUTES, endpoint) ? ROUTES[endpoint].methods : ['GET'];

/**
 * A request that gets past the first checks: a declared method where the endpoint answers, from a caller with
 * rights, with a body that is acceptable or acceptable but for one member. The deep checks are reached here.
 */
const targeted: fc.Arbitrary<FuzzRequest> = endpointName
  .chain((endpoint) => fc.tuple(fc.constant(endpoint), fc.constantFrom(...declaredMethods(endpoint))))
  .chain(([endpoint, method]) =>
    fc
      .record({
        context: SITE_ROOT_SERVICES.has(serviceOf(endpoint))
          ? fc.constant('')
          : (endpoint === '' && method === 'POST') || endpoint === 'copy' || endpoint === 'move'
            ? fc.constantFrom('', '/folder', '/folder/sub')
            : fc.constantFrom(...targetContexts(endpoint, method)),
        sub: TAKES_SUB_PATHS.has(endpoint)
          ? fc.oneof(fc.constant<string[]>([]), fc.array(subSegments(endpoint, method), { minLength: 1, maxLength: 1 }))
          : fc.constant<string[]>([]),
        query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: query }),
        caller: fc.oneof(
          { weight: 6, arbitrary: fc.constant<Caller>('manager') },
          { weight: 3, arbitrary: fc.constant<Caller>('member') },
          { weight: 1, arbitrary: fc.constant<Caller>('token') },
        ),
        headers: fc.constant<Record<string, string>>({ 'Content-Type': 'application/json' }),
        authorization: fc.constant(''),
        body:
          method === 'GET'
            ? fc.constant<Body>({ kind: 'none' })
            : fc.oneof(
                {
                  weight: 1,
                  arbitrary: acceptableFor(endpoint, method).map((v): Body => ({ kind: 'json', value: v })),
                },
                { weight: 3, arbitrary: mutatedFor(endpoint, method).map((v): Body => ({ kind: 'json', value: v })) },
              ),
        framing: fc.constant<FuzzRequest['framing']>('length'),
      })
      .map((parts) => assemble(endpoint, method, parts, 'targeted')),
  );

/** Anything: any route or none, any method, any path, caller, headers, body and framing. */
const wild: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof({ weight: 12, arbitrary: endpointName }, { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_ENDPOINTS) }),
    fc.nat(),
  )
  .chain(([endpoint, pick]) => {
    const declared = declaredMethods(endpoint);
    const method = fc.oneof(
      { weight: 8, arbitrary: fc.constant(declared[pick % declared.length] as string) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    );
    return fc.tuple(fc.constant(endpoint), method);
  })
  .chain(([endpoint, method]) =>
    fc
      .record({
        context: contextFor(endpoint, method),
        sub: fc.oneof(
          { weight: TAKES_SUB_PATHS.has(endpoint) ? 4 : 12, arbitrary: fc.constant<string[]>([]) },
          {
            weight: TAKES_SUB_PATHS.has(endpoint) ? 6 : 1,
            arbitrary: fc.array(subSegments(endpoint, method), { minLength: 1, maxLength: 1 }),
          },
          { weight: 1, arbitrary: fc.array(subSegments(endpoint, method), { minLength: 2, maxLength: 4 }) },
        ),
        query,
        caller,
        headers,
        authorization: fc.constantFrom(...AUTHORIZATIONS),
        body: body(endpoint, method),
        framing,
      })
      .map((parts) => assemble(endpoint, method, parts, 'wild')),
  );

/** One request: half of them aimed past the first checks, half anything at all. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(targeted, wild);
