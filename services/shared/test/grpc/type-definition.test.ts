/**
 * Type definitions cross gRPC (`ConfigService.ListTypes`) as `TypeDefinition` messages: each one that config
 * sends comes back equal after the real loader's encoding and decoding, and a message that does not make a
 * definition is refused with what is wrong instead of being cast.
 */
import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import type { TypeDefinitions, TypeDefinitions__Output } from '../../src/generated/cms/config/v1/TypeDefinitions';
import { ConfigTypes } from '../../src/grpc/config-types';
import { protos } from '../../src/grpc/loader';
import {
  MalformedTypeDefinitionError,
  typeDefinitionFromProto,
  typeDefinitionToProto,
} from '../../src/grpc/type-definition';
import { BUILTIN_TYPES } from '../../src/types/builtin';
import type { ContentTypeDef } from '../../src/types/content-type';
import { KIND_INFO, type FieldDef, type FieldKind } from '../../src/types/fields';

const listTypes = () => protos().config.ConfigService.service.ListTypes;

/** What a `ListTypes` answer's message decodes to on the reading side (malformed ones too, as a peer may send). */
function decodedAnswer(types: unknown[]): TypeDefinitions__Output {
  const method = listTypes();
  return method.responseDeserialize(method.responseSerialize({ types } as TypeDefinitions)) as TypeDefinitions__Output;
}

function overTheWire(definitions: readonly ContentTypeDef[]): ContentTypeDef[] {
  return decodedAnswer(definitions.map(typeDefinitionToProto)).types.map(typeDefinitionFromProto);
}

const KINDS = Object.keys(KIND_INFO) as FieldKind[];

/** A type as `@types` edits leave it: generated fields of every kind, fieldsets, overrides, defaults. */
const EDITED: ContentTypeDef = {
  name: 'Lab Report',
  title: 'Lab report',
  description: 'A type with everything a definition may hold.',
  folderish: true,
  layout: 'report_view',
  layouts: ['report_view', 'listing_view'],
  workflow: true,
  addable: true,
  behaviors: ['cms.dublincore', 'cms.shortname', 'cms.allowdiscussion'],
  allowDiscussion: false,
  schema: [{ name: 'summary', kind: 'text', title: 'Summary', description: '', required: true, fieldset: 'default' }],
  overrides: {
    title: { required: false, default: '', maxLength: 120 },
    description: { title: 'Abstract', description: 'Shown in listings', fieldset: 'results', widget: 'textarea' },
    allow_discussion: { choices: [], default: null },
  },
  generated: [
    ...KINDS.map((kind): FieldDef => ({
      name: `a_${kind}`,
      kind,
      title: `A ${kind}`,
      description: '',
      fieldset: 'results',
    })),
    {
      name: 'grade',
      kind: 'choice',
      title: 'Grade',
      description: 'How it went',
      required: false,
      default: 'b',
      choices: [
        ['a', 'Excellent'],
        ['b', 'Good'],
      ],
      vocabulary: 'lab.grades',
      fieldset: 'default',
    },
    { name: 'none_yet', kind: 'multichoice', title: 'None', description: '', choices: [], fieldset: 'default' },
    {
      name: 'temperature',
      kind: 'float',
      title: 'Temperature',
      description: '',
      min: -273.15,
      max: 1e6,
      default: 21.5,
      fieldset: 'results',
    },
    {
      name: 'samples',
      kind: 'int',
      title: 'Samples',
      description: '',
      min: 0,
      max: 0,
      default: 0,
      fieldset: 'results',
    },
    {
      name: 'notes',
      kind: 'textline',
      title: 'Notes',
      description: '',
      minLength: 0,
      maxLength: 500,
      default: { nested: [1, 'two', null, { three: true }] },
      transient: true,
      searchable: false,
      fieldset: 'default',
    },
    { name: 'secret', kind: 'textline', title: 'Secret', description: '', widget: 'password', fieldset: 'default' },
    { name: 'flag', kind: 'boolean', title: 'Flag', description: '', default: false, searchable: true, fieldset: 'x' },
  ],
  fieldsets: [
    { id: 'results', title: 'Results', description: 'What was measured' },
    { id: 'x', title: '', description: '' },
  ],
  filterContentTypes: true,
  allowedContentTypes: ['Document', 'Image'],
};

describe('type definitions as proto messages', () => {
  it.each(BUILTIN_TYPES.map((def) => [def.name, def] as const))('%s comes back equal', (_name, def) => {
    expect(overTheWire([def])).toEqual([def]);
  });

  it('a type with generated fields of every kind, fieldsets, overrides and defaults comes back equal', () => {
    const [back] = overTheWire([EDITED]);
    expect(back).toEqual(EDITED);
    // toEqual takes a missing member for an undefined one; the definition must not gain members either.
    expect(back.generated!.map((f) => Object.keys(f).sort())).toEqual(
      EDITED.generated!.map((f) => Object.keys(f).sort()),
    );
    expect(Object.keys(back).sort()).toEqual(Object.keys(EDITED).sort());
  });

  it('keeps unset apart from false, zero, null and an empty vocabulary', () => {
    const [back] = overTheWire([EDITED]);
    const field = (name: string) => back.generated!.find((f) => f.name === name)!;
    expect(back.allowDiscussion).toBe(false);
    expect(field('samples')).toMatchObject({ min: 0, max: 0, default: 0 });
    expect(field('none_yet').choices).toEqual([]);
    expect('choices' in field('a_textline')).toBe(false);
    expect('default' in field('a_textline')).toBe(false);
    expect('required' in field('a_textline')).toBe(false);
    expect(back.overrides!.allow_discussion).toEqual({ choices: [], default: null });
  });

  it('an empty list of generated fields, fieldsets, overrides or allowed types arrives as none', () => {
    const [back] = overTheWire([
      { ...BUILTIN_TYPES[1], generated: [], fieldsets: [], overrides: {}, allowedContentTypes: [] },
    ]);
    expect(back).toEqual(BUILTIN_TYPES[1]);
    expect(Object.keys(back).sort()).toEqual(Object.keys(BUILTIN_TYPES[1]).sort());
  });

  it('the proto FieldKind enum has exactly the model kinds', () => {
    const enumType = protos().config.FieldKind.type as { value: { name: string }[] };
    const names = enumType.value.map((v) => v.name).filter((n) => n !== 'FIELD_KIND_UNSPECIFIED');
    expect(names).toEqual(KINDS.map((kind) => `FIELD_KIND_${kind.toUpperCase()}`));
  });

  describe('a malformed message is refused', () => {
    const sent = () => typeDefinitionToProto(EDITED);
    const withField = (changes: Record<string, unknown>) => {
      const message = sent();
      return { ...message, generated: [{ ...message.generated![0], ...changes }] };
    };
    const refused = (message: unknown) => () => typeDefinitionFromProto(decodedAnswer([message]).types[0]);

    it('a kind the model does not know (a newer peer, or none)', () => {
      expect(refused(withField({ kind: 99 }))).toThrow(MalformedTypeDefinitionError);
      expect(refused(withField({ kind: 99 }))).toThrow(
        'Malformed type definition "Lab Report": generated.0.kind is not a field kind: 99',
      );
      expect(refused(withField({ kind: 'FIELD_KIND_UNSPECIFIED' }))).toThrow(
        'generated.0.kind is not a field kind: FIELD_KIND_UNSPECIFIED',
      );
    });

    it('a default that is not JSON', () => {
      expect(refused(withField({ default_json: '{nope' }))).toThrow('generated.0.default_json is not JSON');
      expect(refused({ ...sent(), overrides: { title: { default_json: 'undefined' } } })).toThrow(
        'overrides.title.default_json is not JSON',
      );
    });

    it('a field without a name or a fieldset, or a type without a name', () => {
      expect(refused(withField({ name: '' }))).toThrow('generated.0.name is empty');
      expect(refused(withField({ fieldset: '' }))).toThrow('generated.0.fieldset is empty');
      expect(refused({ ...sent(), name: '' })).toThrow('Malformed type definition: name is empty');
    });

    it('a bound that is not a number or a length that is not a count', () => {
      expect(refused(withField({ min: Number.NaN }))).toThrow('generated.0.min');
      expect(refused(withField({ max: Number.POSITIVE_INFINITY }))).toThrow('generated.0.max');
      expect(() =>
        typeDefinitionFromProto({ ...decodedAnswer([sent()]).types[0], schema: [{ max_length: 1.5 }] }),
      ).toThrow(MalformedTypeDefinitionError);
    });

    it('something that is not a message at all', () => {
      expect(() => typeDefinitionFromProto(null)).toThrow('Malformed type definition: (message)');
      expect(() => typeDefinitionFromProto({ name: 'Page' })).toThrow('Malformed type definition "Page": title');
    });
  });
});

describe('ConfigTypes reading from a config that answers a malformed definition', () => {
  let server: grpc.Server;
  let answer: unknown[] = [];
  let types: ConfigTypes;

  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(protos().config.ConfigService.service, {
      ListTypes: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { types: answer }),
      // Held open and silent: the cache is not what this is about.
      WatchTypes: () => undefined,
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    types = new ConfigTypes({
      address: `127.0.0.1:${port}`,
      timeoutMs: 5000,
      maxMessageBytes: 4 * 1024 * 1024,
      log: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    types.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  it('reads a well-formed answer and refuses a malformed one with what is wrong', async () => {
    answer = BUILTIN_TYPES.map(typeDefinitionToProto);
    await expect(types.definitions('well-formed')).resolves.toMatchObject({ definitions: BUILTIN_TYPES });
    types.invalidate();
    const link = typeDefinitionToProto(BUILTIN_TYPES[4]);
    answer = [{ ...link, schema: [{ ...link.schema![0], kind: 'FIELD_KIND_UNSPECIFIED' }] }];
    await expect(types.definitions('malformed')).rejects.toThrow(
      new MalformedTypeDefinitionError(
        'Malformed type definition "Link": schema.0.kind is not a field kind: FIELD_KIND_UNSPECIFIED',
      ),
    );
  });
});
