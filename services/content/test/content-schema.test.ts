import {
  BEHAVIORS,
  BUILTIN_TYPES,
  builtinTypeRegistry,
  fieldSchema,
  KIND_INFO,
  parseInstant,
  typeRegistryOf,
  type FieldDef,
  type FieldKind,
} from '../src/domain/types';

function field(kind: FieldKind, extra: Partial<FieldDef> = {}): FieldDef {
  return { name: 'f', kind, title: 'F', description: '', fieldset: 'default', ...extra };
}

const accepts = (def: FieldDef, value: unknown) => {
  const result = fieldSchema(def).safeParse(value);
  if (!result.success) throw new Error(`${def.kind} refused ${JSON.stringify(value)}: ${result.error.message}`);
  return result.data;
};
const rejects = (def: FieldDef, value: unknown) => expect(fieldSchema(def).safeParse(value).success).toBe(false);

const upload = { data: 'aGVsbG8=', encoding: 'base64', filename: 'a.txt', 'content-type': 'text/plain' };

/** Per kind: values it accepts (with what they become) and values it refuses. */
const cases: Record<FieldKind, { def?: Partial<FieldDef>; good: [unknown, unknown][]; bad: unknown[] }> = {
  textline: { good: [['a line', 'a line']], bad: ['two\nlines', 42, 'x'.repeat(1001), ['a']] },
  text: { good: [['two\nlines', 'two\nlines']], bad: [42, true, { data: 'x' }] },
  richtext: {
    good: [
      ['<p>x</p>', { 'content-type': 'text/html', data: '<p>x</p>', encoding: 'utf-8' }],
      [
        { data: 'x', 'content-type': 'text/plain', encoding: 'utf8' },
        { 'content-type': 'text/plain', data: 'x', encoding: 'utf-8' },
      ],
    ],
    bad: [42, { data: 'x', 'content-type': 'application/evil' }, { data: 'x', encoding: 'latin-1' }, { text: 'x' }],
  },
  boolean: { good: [[true, true]], bad: ['true', 1, 'yes'] },
  tristate: {
    good: [
      [true, true],
      ['False', false],
      ['True', true],
    ],
    bad: ['yes', 1],
  },
  int: { def: { min: 1, max: 10 }, good: [[3, 3]], bad: [3.5, '3', 0, 11] },
  float: { good: [[2.5, 2.5]], bad: ['2.5', Infinity, NaN] },
  datetime: {
    good: [
      ['2024-01-02T03:04:05', '2024-01-02T03:04:05.000Z'],
      ['2024-01-02T03:04:05+01:00', '2024-01-02T02:04:05.000Z'],
      ['2024-01-02T03:04:05.123Z', '2024-01-02T03:04:05.123Z'],
      ['2024-01-02T03:04', '2024-01-02T03:04:00.000Z'],
      ['2024-01-02', '2024-01-02T00:00:00.000Z'],
    ],
    bad: ['2024-13-01T00:00:00', '2024-02-30', 'tomorrow', '2024-01-02T25:00:00', 1704164645000],
  },
  date: { good: [['2024-02-29', '2024-02-29']], bad: ['2023-02-29', '2024-01-02T00:00:00', 'x'] },
  choice: {
    def: {
      choices: [
        ['a', 'A'],
        ['b', 'B'],
      ],
    },
    good: [
      ['a', 'a'],
      [{ token: 'b', title: 'B' }, 'b'],
      // A cleared select unsets the field.
      ['', null],
    ],
    bad: ['c', 1, { title: 'A' }],
  },
  multichoice: {
    def: {
      choices: [
        ['a', 'A'],
        ['b', 'B'],
      ],
    },
    good: [
      [
        ['a', 'b', 'a'],
        ['a', 'b'],
      ],
      [[{ token: 'a' }], ['a']],
    ],
    bad: [['c'], 'a'],
  },
  list: {
    good: [
      [
        ['x', 'y', 'x'],
        ['x', 'y'],
      ],
    ],
    bad: ['x', [1], [null]],
  },
  url: {
    good: [['https://example.org/a?b=c', 'https://example.org/a?b=c']],
    bad: ['javascript:alert(1)', 'not a url', 3],
  },
  email: { good: [['a@example.org', 'a@example.org']], bad: ['a@', 'example.org', 3] },
  file: {
    good: [[upload, upload]],
    bad: [{ ...upload, encoding: 'hex' }, { filename: 'a.txt' }, 'aGVsbG8=', { ...upload, size: 5 }],
  },
  image: {
    good: [
      [
        { ...upload, 'content-type': 'image/png' },
        { ...upload, 'content-type': 'image/png' },
      ],
    ],
    bad: [upload, { data: 3, encoding: 'base64' }],
  },
  relationlist: {
    good: [
      [
        ['0123456789abcdef0123456789abcdef', { UID: 'u2' }, { '@id': 'http://x/doc' }],
        ['0123456789abcdef0123456789abcdef', 'u2', 'http://x/doc'],
      ],
    ],
    bad: ['u1', [3], [{ title: 'no reference' }]],
  },
  json: { good: [[{ a: [1, { b: null }] }, { a: [1, { b: null }] }]], bad: [undefined] },
  querystring: {
    good: [
      [
        [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Document'] }],
        [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Document'] }],
      ],
    ],
    bad: [[{ i: 'portal_type' }], [{ i: 'a', o: 'b', v: 1, x: 2 }], { i: 'a', o: 'b' }],
  },
};

describe('field kinds', () => {
  it('covers every kind the JSON schemas know', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(KIND_INFO).sort());
  });

  for (const [kind, { def, good, bad }] of Object.entries(cases) as [FieldKind, (typeof cases)[FieldKind]][]) {
    it(`${kind}: accepts and normalizes valid values, refuses others`, () => {
      const optional = field(kind, def);
      for (const [input, output] of good) expect(accepts(optional, input)).toEqual(output);
      for (const value of bad) rejects(optional, value);
      // null unsets an optional field and is refused for a required one.
      expect(accepts(optional, null)).toBeNull();
      rejects(field(kind, { ...def, required: true }), null);
    });
  }

  it('a rich text takes the formats the Markup panel offers, its default alternative (textile) among them', () => {
    for (const format of ['text/x-web-textile', 'text/x-rst', 'text/structured', 'text/x-web-markdown']) {
      expect(accepts(field('richtext'), { data: 'x', 'content-type': format })).toMatchObject({
        'content-type': format,
      });
    }
  });

  it('refuses an over-long list by its length alone, without parsing its elements', () => {
    const lists: [FieldDef, number][] = [
      [field('list'), 1000],
      [field('multichoice', { choices: [['a', 'A']] }), 1000],
      [field('relationlist'), 1000],
      [field('querystring'), 100],
    ];
    for (const [def, max] of lists) {
      // Elements that are all wrong: only the length is reported, as one issue.
      const result = fieldSchema(def).safeParse(Array.from({ length: 20_000 }, () => 42));
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          code: 'too_big',
          maximum: max,
          message: `Array must contain at most ${max} element(s)`,
        }),
      ]);
      // At the limit, the elements are checked as before.
      const atLimit = fieldSchema(def).safeParse(Array.from({ length: max }, () => 42));
      expect(atLimit.success).toBe(false);
      expect(atLimit.error?.issues).toHaveLength(max);
    }
  });

  it('a required text field refuses the empty string', () => {
    rejects(field('textline', { required: true }), '');
    expect(accepts(field('textline'), '')).toBe('');
  });

  it('parses instants with and without a zone as UTC', () => {
    expect(parseInstant('2024-06-30T23:30:00-01:00')).toBe('2024-07-01T00:30:00.000Z');
    expect(parseInstant('2024-06-30T23:30:00+0130')).toBe('2024-06-30T22:00:00.000Z');
    expect(parseInstant('2024-06-31T00:00:00')).toBeNull();
  });
});

describe('type schemas', () => {
  const types = builtinTypeRegistry();
  const document = types.get('Document');

  it('every type is built from known behaviors, without a field defined twice', () => {
    for (const type of types.list()) {
      for (const behavior of type.behaviors) expect(BEHAVIORS[behavior]).toBeDefined();
      expect(new Set(type.fields.map((f) => f.name)).size).toBe(type.fields.length);
    }
    expect(types.get('File').field('title')?.required).toBe(false);
    expect(document.field('title')?.required).toBe(true);
    expect(types.get('File').workflow).toBe(false);
    expect(types.get('Image').workflow).toBe(false);
  });

  it('create: required fields enforced, unknown fields refused with their name, values normalized', () => {
    const create = types.createSchema(document);
    const missing = create.safeParse({ '@type': 'Document' });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['title']);

    const unknown = create.safeParse({ '@type': 'Document', title: 'x', colour: 'red', start: '2024-01-01' });
    expect(unknown.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['colour', 'start']);

    const parsed = create.parse({ '@type': 'Document', title: 'x', effective: '2024-01-01T10:00:00+02:00' });
    expect(parsed).toEqual({ '@type': 'Document', title: 'x', effective: '2024-01-01T08:00:00.000Z' });

    expect(types.createSchema(types.get('Link')).safeParse({ '@type': 'Link', title: 'l' }).success).toBe(false);
    expect(types.createSchema(types.get('File')).safeParse({ '@type': 'File', file: upload }).success).toBe(true);
    expect(create.safeParse({ '@type': 'Document', title: 'x', layout: 'listing_view' }).success).toBe(false);
  });

  it('patch: every field optional, the own @type tolerated, another refused, required fields not unset', () => {
    const patch = types.patchSchema(document);
    expect(patch.parse({})).toEqual({});
    expect(patch.parse({ '@type': 'Document', description: null })).toEqual({ '@type': 'Document', description: null });
    expect(patch.safeParse({ '@type': 'Folder' }).error?.issues[0].path).toEqual(['@type']);
    expect(patch.safeParse({ title: null }).error?.issues[0].path).toEqual(['title']);
    expect(patch.safeParse({ exclude_from_nav: 'yes' }).error?.issues[0].path).toEqual(['exclude_from_nav']);
  });
});

describe('the type registry', () => {
  const types = builtinTypeRegistry();

  it('finds types by name; get throws for a name that is none, find answers undefined', () => {
    expect(types.list().map((t) => t.name)).toEqual(BUILTIN_TYPES.map((d) => d.name));
    expect(types.find('Folder')?.folderish).toBe(true);
    expect(types.find('toString')).toBeUndefined();
    expect(() => types.get('Nope')).toThrow('unknown content type Nope');
  });

  it('allows every addable type in a folderish container and nothing elsewhere', () => {
    const inFolder = types.allowedIn(types.get('Folder')).map((t) => t.name);
    expect(inFolder).toContain('Document');
    expect(inFolder).not.toContain('Site Root');
    expect(types.allowedIn(types.get('Document'))).toEqual([]);
  });

  it('builds the schemas once per type object: a changed definition is a new type with its own schemas', () => {
    expect(types.patchSchema(types.get('Document'))).toBe(types.patchSchema(types.get('Document')));
    const edited = typeRegistryOf(
      BUILTIN_TYPES.map((def) => (def.name === 'Document' ? { ...def, title: 'Article' } : def)),
    );
    expect(edited.get('Document').title).toBe('Article');
    expect(edited.createSchema(edited.get('Document'))).not.toBe(types.createSchema(types.get('Document')));
  });

  it('refuses a definition naming an unknown behavior', () => {
    expect(() => typeRegistryOf([{ ...BUILTIN_TYPES[1], behaviors: ['cms.nope'] }])).toThrow(/unknown behavior/);
  });
});
