import {
  fieldDefinition,
  findRecord,
  RECORDS,
  valueSchema,
  type FieldSpec,
  type RecordDefinition,
} from '../src/domain/records';

const PUBLIC_URL = 'http://localhost:8080';

function record(name: string): RecordDefinition {
  const found = findRecord(name);
  if (!found) throw new Error(`no record ${name}`);
  return found;
}

const accepts = (spec: FieldSpec, value: unknown) => valueSchema(spec).safeParse(value).success;

describe('registry record definitions', () => {
  it('are sorted by name, each name once', () => {
    const names = RECORDS.map((r) => r.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(RECORDS.map((r) => [r.name, r] as const))('%s: its initial value and default match its schema', (_, r) => {
    expect(r.schema.safeParse(r.initial).success).toBe(true);
    if (r.field.default !== undefined) expect(r.schema.safeParse(r.field.default).success).toBe(true);
  });

  it.each([
    ['cms.use_email_as_login', false],
    ['cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled', false],
    ['cms.app.discussion.interfaces.IDiscussionSettings.moderation_enabled', false],
    ['cms.app.discussion.interfaces.IDiscussionSettings.anonymous_comments', false],
    ['cms.app.discussion.interfaces.IDiscussionSettings.edit_comment_enabled', true],
    ['cms.app.discussion.interfaces.IDiscussionSettings.delete_own_comment_enabled', false],
    ['cms.i18nl10n.override_dateformat.Enabled', false],
    ['cms.app.querystring.field.path.title', 'Location'],
    ['cms.app.layout.globals.bodyClass.depth', 4],
    ['cms.app.discussion.interfaces.IDiscussionSettings.moderator_email', null],
  ])('a new site has %s = %j', (name, value) => {
    expect(record(name).initial).toEqual(value);
  });

  it('serve field definitions in the recorded form', () => {
    expect(fieldDefinition(record('cms.i18nl10n.override_dateformat.Enabled').field, PUBLIC_URL)).toEqual({
      description: 'Override the translation machinery',
      factory: 'Yes/No',
      title: 'Enabled',
      type: 'boolean',
    });
    expect(fieldDefinition(record('cms.allowed_types').field, PUBLIC_URL)).toEqual({
      additionalItems: true,
      default: ['text/html', 'text/x-web-textile'],
      description: expect.stringMatching(/^Select which formats/),
      factory: 'Tuple',
      items: {
        description: '',
        factory: 'Choice',
        title: '',
        type: 'string',
        vocabulary: { '@id': `${PUBLIC_URL}/@vocabularies/cms.app.vocabularies.AllowableContentTypes` },
      },
      title: 'Alternative formats',
      type: 'array',
      uniqueItems: true,
    });
    expect(fieldDefinition(record('cms.alignment_styles').field, PUBLIC_URL)).toMatchObject({
      additionalItems: true,
      factory: 'List',
      items: { description: '', factory: 'Text line (String)', title: '', type: 'string' },
      type: 'array',
      uniqueItems: false,
    });
    expect(fieldDefinition(record('cms.app.querystring.field.Creator.description').field, PUBLIC_URL)).toEqual({
      description: '',
      factory: 'Text',
      title: 'Description',
      type: 'string',
      widget: 'textarea',
    });
    expect(
      Object.keys(
        fieldDefinition(record('cms.app.discussion.interfaces.IDiscussionSettings.captcha').field, PUBLIC_URL),
      ),
    ).toEqual(['default', 'description', 'factory', 'title', 'type', 'vocabulary']);
  });

  it('show inline choices as enum, enumNames and choices', () => {
    const spec: FieldSpec = {
      factory: 'Choice',
      title: 'Size',
      description: '',
      terms: [
        ['s', 'Small'],
        ['l', 'Large'],
      ],
    };
    expect(fieldDefinition(spec, PUBLIC_URL)).toEqual({
      choices: [
        ['s', 'Small'],
        ['l', 'Large'],
      ],
      description: '',
      enum: ['s', 'l'],
      enumNames: ['Small', 'Large'],
      factory: 'Choice',
      title: 'Size',
      type: 'string',
    });
    expect(accepts(spec, 'l')).toBe(true);
    expect(accepts(spec, 'Large')).toBe(false);
  });
});

describe('value validation by field kind', () => {
  const base = { title: 't', description: '' };

  it('Yes/No takes booleans only', () => {
    const spec: FieldSpec = { ...base, factory: 'Yes/No' };
    expect(accepts(spec, true)).toBe(true);
    expect(accepts(spec, false)).toBe(true);
    for (const wrong of ['true', 1, 0, null, [], {}]) expect(accepts(spec, wrong)).toBe(false);
  });

  it('Integer takes whole numbers within its bounds', () => {
    const spec: FieldSpec = { ...base, factory: 'Integer', min: 0, max: 10 };
    expect(accepts(spec, 0)).toBe(true);
    expect(accepts(spec, 10)).toBe(true);
    for (const wrong of [1.5, -1, 11, '4', null, true]) expect(accepts(spec, wrong)).toBe(false);
  });

  it('Text line takes one line of text', () => {
    const spec: FieldSpec = { ...base, factory: 'Text line (String)' };
    expect(accepts(spec, '%Y-%m-%d')).toBe(true);
    expect(accepts(spec, '')).toBe(true);
    for (const wrong of ['a\nb', 'a\rb', 3, null, ['x']]) expect(accepts(spec, wrong)).toBe(false);
  });

  it('Text takes several lines', () => {
    const spec: FieldSpec = { ...base, factory: 'Text' };
    expect(accepts(spec, 'a\nb')).toBe(true);
    expect(accepts(spec, false)).toBe(false);
  });

  it('Email takes an e-mail address', () => {
    const spec: FieldSpec = { ...base, factory: 'Email' };
    expect(accepts(spec, 'moderator@example.org')).toBe(true);
    expect(accepts(spec, 'not an address')).toBe(false);
  });

  it('a field that is not required also takes null', () => {
    expect(accepts({ ...base, factory: 'Text line (String)', required: false }, null)).toBe(true);
    expect(accepts({ ...base, factory: 'Text line (String)' }, null)).toBe(false);
    expect(
      record('cms.app.discussion.interfaces.IDiscussionSettings.moderator_email').schema.safeParse(null).success,
    ).toBe(true);
  });

  it('Choice takes a token of its vocabulary', () => {
    const captcha = record('cms.app.discussion.interfaces.IDiscussionSettings.captcha').schema;
    expect(captcha.safeParse('disabled').success).toBe(true);
    expect(captcha.safeParse('recaptcha').success).toBe(false);
    const transform = record('cms.app.discussion.interfaces.IDiscussionSettings.text_transform').schema;
    expect(transform.safeParse('text/x-web-intelligent').success).toBe(true);
    expect(transform.safeParse(1).success).toBe(false);
  });

  it('List takes an array of valid items, duplicates allowed', () => {
    const schema = record('cms.allowed_sizes').schema;
    expect(schema.safeParse(['thumb 128:128', 'thumb 128:128']).success).toBe(true);
    expect(schema.safeParse([]).success).toBe(true);
    expect(schema.safeParse(['thumb 128:128', 3]).success).toBe(false);
    expect(schema.safeParse('thumb 128:128').success).toBe(false);
  });

  it('Tuple takes distinct items', () => {
    const schema = record('cms.allow_external_login_sites').schema;
    expect(schema.safeParse(['https://a.example', 'https://b.example']).success).toBe(true);
    expect(schema.safeParse(['https://a.example', 'https://a.example']).success).toBe(false);
  });

  it('Tuple of choices takes tokens of the vocabulary only', () => {
    const schema = record('cms.allowed_types').schema;
    expect(schema.safeParse(['text/html', 'text/x-web-markdown']).success).toBe(true);
    expect(schema.safeParse(['text/html', 'application/x-unknown']).success).toBe(false);
  });

  it('Multiple Choice takes distinct tokens', () => {
    const spec: FieldSpec = {
      ...base,
      factory: 'Multiple Choice',
      items: { ...base, factory: 'Choice', vocabulary: 'v', tokens: ['a', 'b'] },
    };
    expect(fieldDefinition(spec, PUBLIC_URL)).toMatchObject({ type: 'array', uniqueItems: true });
    expect(accepts(spec, ['a', 'b'])).toBe(true);
    expect(accepts(spec, ['a', 'a'])).toBe(false);
    expect(accepts(spec, ['c'])).toBe(false);
  });
});
