/**
 * A content type definition as the config contract's `TypeDefinition` message, and back. Config sends what it
 * stores; content and search check what arrives, so a malformed message fails the read with the member it gets
 * wrong instead of becoming a type that breaks later. Only a field's default stays JSON inside the message.
 */
import { z } from 'zod';
import type { FieldKind as FieldKindProto } from '../generated/cms/config/v1/FieldKind';
import type { FieldOverride } from '../generated/cms/config/v1/FieldOverride';
import type { TypeDefinition } from '../generated/cms/config/v1/TypeDefinition';
import type { ContentTypeDef, FieldOverrideDef } from '../types/content-type';
import { KIND_INFO, type Choice, type FieldDef, type FieldKind } from '../types/fields';

/** A message that does not make a type definition. */
export class MalformedTypeDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedTypeDefinitionError';
  }
}

const KIND_PREFIX = 'FIELD_KIND_';

function kindToProto(kind: FieldKind): FieldKindProto {
  return `${KIND_PREFIX}${kind.toUpperCase()}` as FieldKindProto;
}

function isFieldKind(name: string): name is FieldKind {
  return Object.prototype.hasOwnProperty.call(KIND_INFO, name);
}

/** Copies the members that are set: proto3 `optional` members and the model's optional properties both say "unset". */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The members a field and an override share, as the message has them; unset ones are left out. */
function fieldPropertiesToProto(field: Partial<FieldDef>): FieldOverride {
  return definedOnly({
    kind: field.kind === undefined ? undefined : kindToProto(field.kind),
    title: field.title,
    description: field.description,
    fieldset: field.fieldset,
    required: field.required,
    default_json: field.default === undefined ? undefined : JSON.stringify(field.default),
    choices:
      field.choices === undefined ? undefined : { terms: field.choices.map(([token, title]) => ({ token, title })) },
    vocabulary: field.vocabulary,
    max_length: field.maxLength,
    min_length: field.minLength,
    min: field.min,
    max: field.max,
    transient: field.transient,
    searchable: field.searchable,
    widget: field.widget,
  });
}

/** The message config answers `ListTypes` with, for one definition. */
export function typeDefinitionToProto(def: ContentTypeDef): TypeDefinition {
  const fieldToProto = (field: FieldDef) => ({ name: field.name, ...fieldPropertiesToProto(field) });
  return definedOnly({
    name: def.name,
    title: def.title,
    description: def.description,
    folderish: def.folderish,
    layout: def.layout,
    layouts: [...def.layouts],
    workflow: def.workflow,
    addable: def.addable,
    behaviors: [...def.behaviors],
    allow_discussion: def.allowDiscussion,
    schema: def.schema.map(fieldToProto),
    overrides: Object.fromEntries(
      Object.entries(def.overrides ?? {}).map(([name, override]) => [name, fieldPropertiesToProto(override)]),
    ),
    generated: (def.generated ?? []).map(fieldToProto),
    fieldsets: (def.fieldsets ?? []).map(({ id, title, description }) => ({ id, title, description })),
    filter_content_types: def.filterContentTypes,
    allowed_content_types: [...(def.allowedContentTypes ?? [])],
  });
}

// What arrives, as the loader decodes it (`enums: String`, `defaults: true`, `oneofs: true`): members outside a
// proto3 `optional` are always there, unset `optional` ones are absent, and an unset message member is null.
// Decoding tells a member's type; these check what the type model needs beyond it.

const name = z.string().min(1, 'is empty');
const kind = z.union([z.string(), z.number()]).transform((value, ctx): FieldKind => {
  const named = typeof value === 'string' && value.startsWith(KIND_PREFIX) ? value.slice(KIND_PREFIX.length) : '';
  const candidate = named.toLowerCase();
  if (!isFieldKind(candidate)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `is not a field kind: ${String(value)}` });
    return z.NEVER;
  }
  return candidate;
});
const defaultJson = z.string().transform((json, ctx): unknown => {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is not JSON' });
    return z.NEVER;
  }
});
const choices = z
  .object({ terms: z.array(z.object({ token: z.string(), title: z.string() })) })
  .nullish()
  .transform((value) => value?.terms.map(({ token, title }): Choice => [token, title]));
const length = z.number().int().nonnegative();
const bound = z.number().finite();

const fieldProperties = {
  required: z.boolean().optional(),
  default_json: defaultJson.optional(),
  choices,
  vocabulary: z.string().optional(),
  max_length: length.optional(),
  min_length: length.optional(),
  min: bound.optional(),
  max: bound.optional(),
  transient: z.boolean().optional(),
  searchable: z.boolean().optional(),
  widget: z.string().optional(),
};

/** The model's names for the members a field and an override share. */
function fieldPropertiesFromProto(message: {
  required?: boolean;
  default_json?: unknown;
  choices?: readonly Choice[];
  vocabulary?: string;
  max_length?: number;
  min_length?: number;
  min?: number;
  max?: number;
  transient?: boolean;
  searchable?: boolean;
  widget?: string;
}): Partial<FieldDef> {
  return definedOnly({
    required: message.required,
    default: message.default_json,
    choices: message.choices,
    vocabulary: message.vocabulary,
    maxLength: message.max_length,
    minLength: message.min_length,
    min: message.min,
    max: message.max,
    transient: message.transient,
    searchable: message.searchable,
    widget: message.widget,
  });
}

const field = z
  .object({ name, kind, title: z.string(), description: z.string(), fieldset: name, ...fieldProperties })
  .transform((f): FieldDef => ({
    name: f.name,
    kind: f.kind,
    title: f.title,
    description: f.description,
    ...fieldPropertiesFromProto(f),
    fieldset: f.fieldset,
  }));

const override = z
  .object({
    kind: kind.optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    fieldset: name.optional(),
    ...fieldProperties,
  })
  .transform((o): FieldOverrideDef =>
    definedOnly({
      kind: o.kind,
      title: o.title,
      description: o.description,
      ...fieldPropertiesFromProto(o),
      fieldset: o.fieldset,
    }),
  );

const fieldset = z.object({ id: name, title: z.string(), description: z.string() });

/** An empty list arrives for an absent one; the model leaves it out (every reader takes absent as empty). */
const unlessEmpty = <T>(list: readonly T[]): readonly T[] | undefined => (list.length ? list : undefined);

const typeDefinition = z
  .object({
    name,
    title: z.string(),
    description: z.string(),
    folderish: z.boolean(),
    layout: z.string(),
    layouts: z.array(z.string()),
    workflow: z.boolean(),
    addable: z.boolean(),
    behaviors: z.array(name),
    allow_discussion: z.boolean().optional(),
    schema: z.array(field),
    overrides: z.record(name, override),
    generated: z.array(field),
    fieldsets: z.array(fieldset),
    filter_content_types: z.boolean().optional(),
    allowed_content_types: z.array(name),
  })
  .transform((t): ContentTypeDef =>
    definedOnly({
      name: t.name,
      title: t.title,
      description: t.description,
      folderish: t.folderish,
      layout: t.layout,
      layouts: t.layouts,
      workflow: t.workflow,
      addable: t.addable,
      behaviors: t.behaviors,
      allowDiscussion: t.allow_discussion,
      schema: t.schema,
      overrides: Object.keys(t.overrides).length ? t.overrides : undefined,
      generated: unlessEmpty(t.generated),
      fieldsets: unlessEmpty(t.fieldsets),
      filterContentTypes: t.filter_content_types,
      allowedContentTypes: unlessEmpty(t.allowed_content_types),
    }),
  );

/**
 * The definition a `TypeDefinition` message (as the loader decodes it) carries. Throws
 * MalformedTypeDefinitionError naming the type and the first members it gets wrong.
 */
export function typeDefinitionFromProto(message: unknown): ContentTypeDef {
  const parsed = typeDefinition.safeParse(message);
  if (parsed.success) return parsed.data;
  const typeName = (message as { name?: unknown } | null)?.name;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(message)'} ${issue.message}`)
    .join('; ');
  throw new MalformedTypeDefinitionError(
    `Malformed type definition${typeof typeName === 'string' && typeName ? ` ${JSON.stringify(typeName)}` : ''}: ${problems}`,
  );
}
