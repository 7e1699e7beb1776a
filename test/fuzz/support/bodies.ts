/**
 * The bodies the fuzzer sends, as fast-check arbitraries: per endpoint and method, a body it should take, the
 * same with one place changed to something odd, the endpoint's members with odd values, and bodies that are not
 * what any endpoint takes (malformed JSON, prototype keys, deep and huge values, invalid UTF-8).
 */
import fc from 'fast-check';
import { png } from '../../support/images';
import type { Body } from './http';
import { Deep, Huge, Obj, Wide, obj, type Value } from './json';
import { ACCOUNTS, GROUP } from './suite';
import { KiB, PROTOTYPE_NAMES, hostile, hugeText, id, number, prototypeObject, text, value } from './values';

const base64 = (bytes: Buffer) => bytes.toString('base64');
const uploadData: fc.Arbitrary<Value> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(base64(Buffer.from('hello')), base64(png(4, 4)), '') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '!!!',
      'YQ',
      'Y',
      '=',
      '====',
      'YQ==YQ==',
      'a b c',
      'YWJj\nZGVm',
      'data:image/png;base64,iVBORw0KGgo=',
      base64(png(4, 4)).slice(0, 20),
      '\ud800',
      '-_-_',
    ),
  },
  { weight: 1, arbitrary: fc.base64String({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1 * KiB, max: 2 * 1024 * KiB }), fc.constantFrom('QUFB', '!!!!', 'A'))
      .map(([length, unit]) => new Huge(length, unit)),
  },
  { weight: 1, arbitrary: value },
);

const upload: fc.Arbitrary<Value> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record(
        {
          data: uploadData,
          encoding: fc.oneof(
            fc.constant<Value>('base64'),
            fc.constantFrom<Value>('base32', 'utf-8', '', null, 64),
            value,
          ),
          filename: fc.oneof(fc.constant<Value>('a.png'), text, value),
          'content-type': fc.oneof(
            fc.constantFrom<Value>('image/png', 'text/plain', 'application/octet-stream', 'image/svg+xml', ''),
            text,
          ),
          scale: fc.boolean(),
        },
        { requiredKeys: ['data'] },
      )
      .map((members) => obj(members as Record<string, Value>)),
  },
  { weight: 1, arbitrary: value },
);

const richText: fc.Arbitrary<Value> = fc.oneof(
  fc
    .record({
      data: fc.oneof(text, hugeText(512 * KiB)),
      'content-type': fc.constantFrom<Value>(
        'text/html',
        'text/plain',
        'text/x-web-markdown',
        'application/javascript',
        '',
      ),
      encoding: fc.constantFrom<Value>('utf-8', 'latin-1', 'base64', ''),
    })
    .map((members) => obj(members)),
  value,
);

const CONTENT_TYPES = ['Document', 'Folder', 'News Item', 'Event', 'Link', 'File', 'Image', 'Collection'];
const contentField: fc.Arbitrary<readonly [string, Value]> = fc.oneof(
  fc.tuple(
    fc.constantFrom('title', 'description', 'rights', 'language', 'changeNote', 'layout', 'location'),
    fc.oneof(text, value),
  ),
  fc.tuple(fc.constant('text'), richText),
  fc.tuple(fc.constantFrom('file', 'image'), upload),
  fc.tuple(
    fc.constantFrom('subjects', 'contributors', 'creators', 'relatedItems', 'customViewFields'),
    fc.array(fc.oneof(text, value), { maxLength: 5 }),
  ),
  fc.tuple(
    fc.constantFrom('effective', 'expires', 'start', 'end'),
    fc.oneof(fc.constantFrom<Value>('2030-01-01T00:00:00', '2030-01-01', 'garbage', ''), value),
  ),
  fc.tuple(
    fc.constantFrom('exclude_from_nav', 'allow_discussion', 'whole_day', 'open_end', 'versioning_enabled'),
    fc.oneof(fc.boolean(), value),
  ),
  fc.tuple(
    fc.constantFrom('remoteUrl', 'event_url'),
    fc.oneof(fc.constantFrom<Value>('https://example.org', 'javascript:x', '${portal_url}/x', ''), value),
  ),
  fc.tuple(fc.constantFrom('limit', 'item_count', 'b_size'), number),
  fc.tuple(
    fc.constant('query'),
    fc.oneof(
      fc
        .array(
          fc
            .record({
              i: fc.oneof(fc.constantFrom<Value>('portal_type', 'path', 'SearchableText', '__proto__'), value),
              o: fc.oneof(
                fc.constantFrom<Value>(
                  'cms.app.querystring.operation.selection.any',
                  'plone.app.querystring.operation.string.relativePath',
                  'nope',
                ),
                value,
              ),
              v: value,
            })
            .map((members) => obj(members)),
          { maxLength: 3 },
        )
        .map((criteria) => criteria as Value),
      value,
    ),
  ),
  fc.tuple(
    fc.constant('ordering'),
    fc.oneof(
      fc
        .record(
          {
            obj_id: id,
            delta: fc.oneof(fc.constantFrom<Value>('top', 'bottom', 1, -1, 0, 1e9), value),
            subset_ids: fc.array(id, { maxLength: 4 }),
          },
          { requiredKeys: [] },
        )
        .map((members) => obj(members as Record<string, Value>)),
      value,
    ),
  ),
  fc.tuple(
    fc.constant('sort'),
    fc.oneof(
      fc
        .record({
          on: fc.oneof(text, value),
          order: fc.oneof(fc.constantFrom<Value>('ascending', 'descending', 'reverse'), value),
        })
        .map((m) => obj(m)),
      value,
    ),
  ),
  fc.tuple(fc.constant('id'), id),
  fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), text), value),
);

const contentPost: fc.Arbitrary<Value> = fc
  .tuple(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom<Value>(...CONTENT_TYPES) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Value>('Site Root', 'Plone Site', 'Spaceship', '', '__proto__', 'Discussion Item'),
      },
      { weight: 1, arbitrary: value },
    ),
    fc.option(id, { nil: undefined }),
    fc.array(contentField, { maxLength: 5 }),
  )
  .map(
    ([type, given, fields]) =>
      new Obj([['@type', type], ...(given === undefined ? [] : [['id', given] as const]), ...fields]),
  );

const contentPatch: fc.Arbitrary<Value> = fc
  .array(contentField, { minLength: 1, maxLength: 5 })
  .map((fields) => new Obj(fields));

const SOURCES = [
  '/folder/doc',
  '/folder',
  '/folder/sub',
  '/news',
  '/',
  '/nope',
  'http://127.0.0.1/folder/doc',
  '../folder',
  '',
  'not-a-uid-0000',
];
const relocation: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>(...SOURCES).map((source) => obj({ source })),
  fc.array(fc.oneof(fc.constantFrom<Value>(...SOURCES), value), { maxLength: 5 }).map((source) => obj({ source })),
  fc.integer({ min: 1000, max: 50_000 }).map((count) => obj({ source: new Wide(count, 'array', '/folder/doc') })),
);

const ROLES = [
  'Manager',
  'Site Administrator',
  'Editor',
  'Contributor',
  'Reviewer',
  'Reader',
  'Member',
  'Owner',
  'Authenticated',
  'Anonymous',
  'Nope',
  '__proto__',
];
const roleToggles: fc.Arbitrary<Value> = fc.oneof(
  fc
    .array(fc.tuple(fc.constantFrom(...ROLES), fc.oneof(fc.boolean(), value)), { maxLength: 4 })
    .map((members) => new Obj(members)),
  value,
);
const principalIds = [
  ACCOUNTS.victim.id,
  ACCOUNTS.member.id,
  GROUP,
  'AuthenticatedUsers',
  'Administrators',
  'nobody',
  '__proto__',
];

const sharing: fc.Arbitrary<Value> = fc
  .record(
    {
      entries: fc.oneof(
        fc
          .array(
            fc
              .record(
                {
                  id: fc.oneof(fc.constantFrom<Value>(...principalIds), id),
                  type: fc.constantFrom<Value>('user', 'group', 'robot'),
                  roles: roleToggles,
                },
                { requiredKeys: ['id'] },
              )
              .map((members) => obj(members as Record<string, Value>)),
            { maxLength: 3 },
          )
          .map((entries) => entries as Value),
        value,
      ),
      inherit: fc.oneof(fc.boolean(), value),
    },
    { requiredKeys: [] },
  )
  .map((members) => obj(members as Record<string, Value>));

const workflowBody: fc.Arbitrary<Value> = fc
  .record(
    {
      comment: fc.oneof(text, value),
      include_children: fc.oneof(fc.boolean(), value),
      effective: fc.oneof(fc.constantFrom<Value>('2030-01-01T00:00:00', 'x'), value),
      expires: fc.oneof(fc.constantFrom<Value>('2000-01-01T00:00:00', 'x'), value),
    },
    { requiredKeys: [] },
  )
  .map((members) => obj(members as Record<string, Value>));

const userFields = {
  username: fc.oneof(fc.stringMatching(/^fz[a-z0-9]{1,10}$/), id),
  password: fc.oneof(fc.constantFrom<Value>('secret-password', '', 'abc'), text, value),
  old_password: fc.oneof(text, value),
  email: fc.oneof(fc.constantFrom<Value>('a@example.org', 'not-an-email', ''), text, value),
  fullname: fc.oneof(text, value),
  description: fc.oneof(text, value),
  home_page: fc.oneof(text, value),
  location: fc.oneof(text, value),
  roles: fc.oneof(
    fc.array(fc.constantFrom<Value>(...ROLES), { maxLength: 3 }).map((r) => r as Value),
    roleToggles,
  ),
  groups: fc.oneof(
    fc.array(fc.constantFrom<Value>(...principalIds), { maxLength: 3 }).map((g) => g as Value),
    value,
  ),
  portrait: fc.oneof(upload, fc.constant<Value>(null)),
  sendPasswordReset: fc.oneof(fc.boolean(), value),
};
const usersBody: fc.Arbitrary<Value> = fc
  .record(userFields, { requiredKeys: [] })
  .map((members) => obj(members as Record<string, Value>));

const groupsBody: fc.Arbitrary<Value> = fc
  .record(
    {
      groupname: fc.oneof(fc.stringMatching(/^fz[a-z0-9 ]{1,10}$/), id),
      title: fc.oneof(text, value),
      description: fc.oneof(text, value),
      email: fc.oneof(fc.constantFrom<Value>('g@example.org', 'nope'), value),
      roles: fc.oneof(
        fc.array(fc.constantFrom<Value>(...ROLES), { maxLength: 3 }).map((r) => r as Value),
        value,
      ),
      users: fc.oneof(
        fc.array(fc.constantFrom<Value>(...principalIds), { maxLength: 3 }).map((u) => u as Value),
        fc
          .array(fc.tuple(fc.constantFrom(...principalIds), fc.oneof(fc.boolean(), value)), { maxLength: 3 })
          .map((m) => new Obj(m)),
        value,
      ),
      groups: fc.oneof(
        fc.array(fc.constantFrom<Value>(...principalIds), { maxLength: 3 }).map((g) => g as Value),
        value,
      ),
    },
    { requiredKeys: [] },
  )
  .map((members) => obj(members as Record<string, Value>));

export const RECORDS = [
  'cms.site_title',
  'plone.site_title',
  'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled',
  'plone.app.discussion.interfaces.IDiscussionSettings.moderation_enabled',
  'cms.alignment_styles',
  'nope.record',
  '__proto__',
  'constructor',
];
const registryBody: fc.Arbitrary<Value> = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...RECORDS), text), value), { maxLength: 3 })
  .map((members) => new Obj(members));

const loginBody: fc.Arbitrary<Value> = fc
  .record(
    {
      login: fc.oneof(fc.constantFrom<Value>(ACCOUNTS.member.id, ACCOUNTS.victim.id, 'nobody', ''), text, value),
      password: fc.oneof(fc.constantFrom<Value>(ACCOUNTS.member.password, 'wrong'), text, value),
    },
    { requiredKeys: [] },
  )
  .map((members) => obj(members as Record<string, Value>));

const lockBody: fc.Arbitrary<Value> = fc
  .record(
    { stealable: fc.oneof(fc.boolean(), value), timeout: number, force: fc.oneof(fc.boolean(), value) },
    { requiredKeys: [] },
  )
  .map((members) => obj(members as Record<string, Value>));

const historyBody: fc.Arbitrary<Value> = fc
  .record({ version: fc.oneof(number, value) }, { requiredKeys: [] })
  .map((m) => obj(m as Record<string, Value>));

/** `PATCH @transactions`: ids as listed (an opaque word, then the time and the description), or not. */
const transactionsBody: fc.Arbitrary<Value> = fc
  .record(
    {
      transaction_ids: fc.oneof(
        fc.array(fc.oneof(fc.base64String({ maxLength: 24 }), value), { maxLength: 60 }),
        value,
      ),
    },
    { requiredKeys: [] },
  )
  .map((m) => obj(m as Record<string, Value>));

const fuzzId = fc.stringMatching(/^fz[a-z0-9]{1,8}$/);
const title = fc.constantFrom('Fuzz', 'Fuzzed title', 'Ünïcode 😀');

/** A body the endpoint should take from a caller allowed to send it: the writes that get through. */
export function acceptableFor(endpoint: string, method: string): fc.Arbitrary<Value> {
  switch (endpoint) {
    case '':
      if (method === 'POST') {
        return fc.oneof(
          {
            weight: 3,
            arbitrary: fc
              .tuple(fc.constantFrom(...CONTENT_TYPES.filter((t) => t !== 'File' && t !== 'Image')), fuzzId, title)
              .map(([type, given, t]) => obj({ '@type': type, id: given, title: t })),
          },
          {
            weight: 1,
            arbitrary: fuzzId.map((given) =>
              obj({
                '@type': 'File',
                id: given,
                title: 'File',
                file: obj({
                  data: base64(Buffer.from('fuzz')),
                  encoding: 'base64',
                  filename: 'f.txt',
                  'content-type': 'text/plain',
                }),
              }),
            ),
          },
          {
            weight: 1,
            arbitrary: fuzzId.map((given) =>
              obj({
                '@type': 'Image',
                id: given,
                title: 'Image',
                image: obj({
                  data: base64(png(2, 2)),
                  encoding: 'base64',
                  filename: 'i.png',
                  'content-type': 'image/png',
                }),
              }),
            ),
          },
          {
            weight: 1,
            arbitrary: fuzzId.map((given) =>
              obj({
                '@type': 'Collection',
                id: given,
                title: 'Collection',
                query: [obj({ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Document'] })],
              }),
            ),
          },
        );
      }
      if (method === 'PATCH') {
        return fc.oneof(
          title.map((t) => obj({ title: t })),
          fc.constantFrom<Value>(
            obj({ description: 'changed' }),
            obj({ subjects: ['a', 'b'] }),
            obj({ ordering: obj({ obj_id: 'doc', delta: 'top' }) }),
            obj({ sort: obj({ on: 'sortable_title', order: 'descending' }) }),
          ),
        );
      }
      return fc.constant(obj({}));
    case 'workflow':
      return fc.constantFrom<Value>(obj({}), obj({ comment: 'fuzz' }), obj({ include_children: true }));
    case 'sharing':
      return fc.constantFrom(ACCOUNTS.victim.id, GROUP).map((principal) =>
        obj({
          entries: [obj({ id: principal, type: principal === GROUP ? 'group' : 'user', roles: obj({ Reader: true }) })],
        }),
      );
    case 'copy':
    case 'move':
      return fc.constantFrom<Value>(obj({ source: '/folder/doc' }), obj({ source: ['/link', '/event'] }));
    case 'users':
      return method === 'POST'
        ? fuzzId.map((u) => obj({ username: u, password: 'secret-password', email: `${u}@example.org` }))
        : title.map((t) => obj({ fullname: t }));
    case 'groups':
      return method === 'POST'
        ? fuzzId.map((g) => obj({ groupname: g, title: 'Fuzz group' }))
        : title.map((t) => obj({ title: t }));
    case 'registry':
      return fc.constantFrom<Value>(
        obj({ 'cms.allow_anon_views_about': true }),
        obj({ 'cms.app.layout.globals.bodyClass.depth': 3 }),
        obj({ 'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled': true }),
      );
    case 'login':
      return fc.constant(obj({ login: ACCOUNTS.member.id, password: ACCOUNTS.member.password }));
    case 'lock':
      return fc.constantFrom<Value>(obj({}), obj({ stealable: false, timeout: 60 }), obj({ force: true }));
    case 'history':
      return fc.constantFrom<Value>(obj({ version: 0 }), obj({ version: 1 }));
    case 'transactions':
      return fc.base64String({ minLength: 4, maxLength: 24 }).map((id) => obj({ transaction_ids: [id] }));
    default:
      return fc.constant(obj({}));
  }
}

/** Values for one member of an otherwise acceptable body: what that member should hold, but odd. */
function oddMember(name: string): fc.Arbitrary<Value> {
  switch (name) {
    case 'file':
    case 'image':
    case 'portrait':
      return upload;
    case 'query':
      return fc
        .tuple(
          fc.constantFrom<Value>('portal_type', 'path', 'SearchableText', 'review_state'),
          fc.oneof(hostile, value),
        )
        .map(([i, v]) => [obj({ i, o: 'cms.app.querystring.operation.selection.any', v })]);
    case 'text':
      return fc.oneof(
        richText,
        hostile.map((data) => obj({ 'content-type': 'text/html', data, encoding: 'utf-8' })),
      );
    default:
      return fc.oneof({ weight: 3, arbitrary: hostile }, { weight: 1, arbitrary: value });
  }
}

/** Members worth adding to a body of this endpoint (beside changing the ones it has). */
const EXTRA_MEMBERS = [
  'description',
  'text',
  'subjects',
  'query',
  'relatedItems',
  'effective',
  'remoteUrl',
  'image',
  'file',
  'start',
  'end',
  'language',
  'ordering',
  'sort',
  'id',
  '@type',
  'roles',
  'groups',
  'users',
  'portrait',
  'email',
  'comment',
  'include_children',
  'entries',
  'inherit',
  'source',
  'version',
  'force',
  'timeout',
  '__proto__',
  'constructor',
];

/** The places in a value that can be changed: each as the path of member names and indexes that leads to it. */
function placesIn(value: Value, path: Array<string | number> = []): Array<Array<string | number>> {
  const places: Array<Array<string | number>> = path.length > 0 ? [path] : [];
  if (Array.isArray(value)) value.forEach((item, i) => places.push(...placesIn(item, [...path, i])));
  else if (value instanceof Obj) value.members.forEach(([, item], i) => places.push(...placesIn(item, [...path, i])));
  return places;
}

/** The value with what is at `path` replaced (a member keeps its name). */
function replaceAt(value: Value, path: Array<string | number>, replacement: Value): Value {
  if (path.length === 0) return replacement;
  const [at, ...rest] = path as [number, ...number[]];
  if (Array.isArray(value)) return value.map((item, i) => (i === at ? replaceAt(item, rest, replacement) : item));
  if (value instanceof Obj) {
    return new Obj(
      value.members.map(([name, item], i) => [name, i === at ? replaceAt(item, rest, replacement) : item] as const),
    );
  }
  return value;
}

/** The name of the member at `path`, if the last step is a member. */
function memberNameAt(value: Value, path: Array<string | number>): string | undefined {
  let node: Value = value;
  let name: string | undefined;
  for (const at of path as number[]) {
    if (Array.isArray(node)) {
      node = node[at];
      name = undefined;
    } else if (node instanceof Obj) {
      [name, node] = node.members[at];
    } else return undefined;
  }
  return name;
}

/**
 * An acceptable body with one place changed (a member, an item, at any depth) or one member added: the odd value
 * meets the checks behind the first ones.
 */
export function mutatedFor(endpoint: string, method: string): fc.Arbitrary<Value> {
  return fc
    .tuple(
      acceptableFor(endpoint, method),
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom(...EXTRA_MEMBERS) },
      ),
      fc.nat(),
    )
    .chain(([body, added, pick]) => {
      const places = placesIn(body);
      if (added !== undefined || places.length === 0) {
        const name = added ?? 'title';
        return oddMember(name).map((odd) => (body instanceof Obj ? new Obj([...body.members, [name, odd]]) : odd));
      }
      const place = places[pick % places.length];
      return oddMember(memberNameAt(body, place) ?? '').map((odd) => replaceAt(body, place, odd));
    });
}

/** A body meant for this endpoint and method, with odd values in its members. */
function templateFor(endpoint: string, method: string): fc.Arbitrary<Value> {
  switch (endpoint) {
    case '':
      return method === 'POST' ? contentPost : method === 'PATCH' ? contentPatch : fc.constant(obj({}));
    case 'workflow':
      return workflowBody;
    case 'sharing':
      return sharing;
    case 'copy':
    case 'move':
      return relocation;
    case 'users':
      return usersBody;
    case 'groups':
      return groupsBody;
    case 'registry':
      return registryBody;
    case 'login':
      return loginBody;
    case 'lock':
    case 'unlock':
    case 'refresh-lock':
      return lockBody;
    case 'history':
      return historyBody;
    case 'transactions':
      return transactionsBody;
    default:
      return value;
  }
}

const MALFORMED_JSON = [
  '{',
  '}',
  '{"@type": "Document", "title": ',
  '{"a":1,}',
  "{'a': 1}",
  '{"a": NaN}',
  '{"a": Infinity}',
  '{"a": undefined}',
  '[1, 2',
  '{"a" 1}',
  '{"\\ud800": "\\udc00"}',
  '{"a": "\\x41"}',
  '{"a": "\\u12"}',
  '{"a": "line\nbreak"}',
  '\ufeff{}',
  '{}{}',
  '{} trailing',
  '0x10',
  '--1',
  '"',
  'nul',
  'tru',
  '/* comment */ {}',
  '{"__proto__": }',
  ' ',
  '\u0000',
  'null',
  'true',
  '[]',
  '"a string"',
  '42',
  '-0',
  '1e999',
];

export const body = (endpoint: string, method: string): fc.Arbitrary<Body> => {
  const reading = method === 'GET' || method === 'HEAD';
  return fc.oneof(
    { weight: reading ? 30 : 3, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 5, arbitrary: acceptableFor(endpoint, method).map((v): Body => ({ kind: 'json', value: v })) },
    { weight: 6, arbitrary: mutatedFor(endpoint, method).map((v): Body => ({ kind: 'json', value: v })) },
    { weight: 6, arbitrary: templateFor(endpoint, method).map((v): Body => ({ kind: 'json', value: v })) },
    { weight: 2, arbitrary: value.map((v): Body => ({ kind: 'json', value: v })) },
    { weight: 2, arbitrary: prototypeObject.map((v): Body => ({ kind: 'json', value: v })) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((t): Body => ({ kind: 'text', text: t })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1000, max: 200_000 }),
          fc.constantFrom<'array' | 'object'>('array', 'object'),
          templateFor(endpoint, method),
        )
        .map(([depth, shape, inner]): Body => ({ kind: 'json', value: new Deep(depth, shape, inner) })),
    },
    // Past the gateway's JSON shape limits (4,000 members an object, 20,000 elements an array, 300,000 in
    // all): the finding's 500,000-member object froze every service while each member was validated.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(4001, 50_000, 500_000), fc.constantFrom<Value>(0, 'x', null, obj({})))
        .map(([count, item]): Body => ({ kind: 'json', value: new Wide(count, 'object', item), beyondBounds: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(20_001, 200_000, 1_000_000), fc.constantFrom<Value>(0, 'x', null, []))
        .map(([count, item]): Body => ({
          kind: 'json',
          value: obj({ subjects: new Wide(count, 'array', item) }),
          beyondBounds: true,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(80, 200).map((count): Body => ({
        kind: 'json',
        value: obj({ blocks: new Wide(count, 'object', new Wide(3999, 'object', 1)) }),
        beyondBounds: true,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 3 * 1024 * KiB }), fc.constantFrom('x', '😀', '\ud800'))
        .map(([length, unit]): Body => ({
          kind: 'json',
          value: obj({ title: new Huge(length, unit), '@type': 'Document' }),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.uint8Array({ maxLength: 200 }).map((bytes) => [...bytes]),
          // Invalid UTF-8: a lone surrogate encoded (ED A0 80), overlong forms, stray continuation bytes.
          fc.constantFrom<number[]>(
            [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
            [0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d],
            [0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00],
            [0x80, 0x80, 0x80],
          ),
        )
        .map((bytes): Body => ({ kind: 'bytes', bytes })),
    },
  );
};
