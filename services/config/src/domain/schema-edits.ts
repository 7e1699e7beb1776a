/**
 * The rules of schema editing (`@types/<type>`, served by content, decided here): what may be added, changed and
 * removed in a type's generated schema, each edit a pure function from a definition to the next one. Fields and
 * fieldsets of the base schema and of behaviors are read-only: behaviors are switched in the `cms-types` panel.
 */
import {
  badRequest,
  BEHAVIORS,
  buildType,
  clip,
  FIELD_FACTORIES,
  FIELDSETS,
  KIND_INFO,
  notFound,
  type Choice,
  type ContentTypeDef,
  type FieldDef,
  type FieldKind,
  type FieldsetDef,
} from '@cms/shared';
import { z } from 'zod';

const title = z.string().trim().min(1).max(200);
const description = z.string().max(2000);
const name = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,99}$/, 'lower-case letters, digits and _, starting with a letter (at most 100)');
/** The terms of a choice field, as plain values (token and title alike). */
const values = z.array(z.string().min(1).max(200)).max(500);
/** A default: any JSON value of bounded size (content checks values, not defaults). */
const defaultValue = z.unknown().refine((v) => v === undefined || JSON.stringify(v).length <= 10_000, {
  message: 'too large',
});

const addFieldset = z.object({
  factory: z.literal('fieldset'),
  title,
  description: description.default(''),
  id: name.optional(),
});
const addField = z.object({
  factory: z.string().min(1).max(100),
  title,
  description: description.default(''),
  required: z.boolean().default(false),
  id: name.optional(),
  values: values.optional(),
});
const fieldChanges = z.object({
  title: title.optional(),
  description: description.optional(),
  required: z.boolean().optional(),
  default: defaultValue.optional(),
  minLength: z.number().int().min(0).max(1_000_000).optional(),
  maxLength: z.number().int().min(0).max(1_000_000).optional(),
  values: values.optional(),
  /** Its words go into the full-text index (content computes an object's text with the current fields). */
  searchable: z.boolean().optional(),
});
const fieldsetChanges = z.object({
  title: title.optional(),
  description: description.optional(),
  fields: z.array(z.string().max(100)).max(500).optional(),
});
const schemaChanges = z.object({
  properties: z.record(z.string().max(100), fieldChanges).optional(),
  fieldsets: z
    .array(fieldsetChanges.extend({ id: z.string().min(1).max(100) }))
    .max(100)
    .optional(),
});
/** PUT: the whole schema as GET answers it; only the generated part is taken. */
const replacement = z.object({
  properties: z
    .record(
      z.string().max(100),
      fieldChanges.extend({ factory: z.string().max(100).optional(), behavior: z.string().max(300).optional() }),
    )
    .default({}),
  fieldsets: z
    .array(fieldsetChanges.extend({ id: z.string().min(1).max(100) }))
    .max(100)
    .default([]),
  required: z.array(z.string().max(100)).max(500).default([]),
});

/** A body validated by `schema`, or 400 naming what is wrong (never echoing the body). */
export function parsed<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = result.error.issues
    .slice(0, 10)
    .map((i) => ({ field: clip(i.path.join('.')), message: clip(i.message) }));
  throw badRequest(`Invalid ${what}: ${errors.map((e) => `${e.field || '(body)'}: ${e.message}`).join('; ')}`, errors);
}

/** A field or fieldset name from a title, as the reference makes them (`Author email` → `author_email`). */
export function nameFromTitle(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[_0-9]+|_+$/g, '')
    .slice(0, 100);
  if (!slug) throw badRequest('The title must contain a letter', [{ field: 'title', message: 'no letter' }]);
  return slug;
}

/** The kind a `factory` names: a token of `@vocabularies/Fields`, or the label a schema shows (`Text line (String)`). */
function kindOf(factory: string): { kind: FieldKind; widget?: string } {
  if (Object.hasOwn(FIELD_FACTORIES, factory)) {
    const { kind, widget } = FIELD_FACTORIES[factory];
    return widget ? { kind, widget } : { kind };
  }
  const kind = (Object.keys(KIND_INFO) as FieldKind[]).find((k) => KIND_INFO[k].factory === factory);
  if (kind) return { kind };
  throw badRequest(`Unknown field factory ${clip(factory)}; see @vocabularies/Fields`, [
    { field: 'factory', message: 'not a field kind' },
  ]);
}

const choicesOf = (terms: readonly string[]): Choice[] => terms.map((term) => [term, term]);

/** Where a name sits in a type: a generated field or fieldset, or one the type has otherwise (read-only). */
function locate(def: ContentTypeDef, target: string) {
  const generatedField = (def.generated ?? []).find((f) => f.name === target);
  const generatedFieldset = (def.fieldsets ?? []).find((f) => f.id === target);
  const fixedField = generatedField ? undefined : buildType(def, BEHAVIORS).field(target);
  const fixedFieldset = FIELDSETS.find((f) => f.id === target);
  return { generatedField, generatedFieldset, fixedField, fixedFieldset };
}

function readOnly(what: string, owner: string): never {
  throw badRequest(
    `${clip(what)} is defined by ${clip(owner)} and cannot be changed here; switch behaviors in the cms-types panel`,
  );
}

/** Checks that a definition still makes a type (no field twice in the generated schema, known fieldsets). */
function checked(def: ContentTypeDef): ContentTypeDef {
  const fieldsets = new Set([...FIELDSETS.map((f) => f.id), ...(def.fieldsets ?? []).map((f) => f.id)]);
  for (const field of def.generated ?? []) {
    if (!fieldsets.has(field.fieldset)) throw badRequest(`No fieldset ${clip(field.fieldset)} in ${def.name}`);
  }
  buildType(def, BEHAVIORS);
  return def;
}

export interface SchemaEditResult {
  definition: ContentTypeDef;
  created?: { name: string; fieldset: boolean };
}

/** POST: adds a fieldset (`factory: "fieldset"`) or a field to the generated schema. */
export function addToSchema(def: ContentTypeDef, body: unknown): SchemaEditResult {
  const factory = (body as { factory?: unknown } | null)?.factory;
  if (factory === 'fieldset') {
    const input = parsed(addFieldset, body, 'fieldset');
    const id = input.id ?? nameFromTitle(input.title);
    const taken = locate(def, id);
    if (taken.generatedFieldset || taken.fixedFieldset) throw badRequest(`The fieldset ${id} exists already`);
    const fieldset: FieldsetDef = { id, title: input.title, description: input.description };
    return {
      definition: checked({ ...def, fieldsets: [...(def.fieldsets ?? []), fieldset] }),
      created: { name: id, fieldset: true },
    };
  }
  const input = parsed(addField, body, 'field');
  const { kind, widget } = kindOf(input.factory);
  const fieldName = input.id ?? nameFromTitle(input.title);
  const taken = locate(def, fieldName);
  if (taken.generatedField || taken.fixedField) throw badRequest(`The field ${fieldName} exists already`);
  const field: FieldDef = {
    name: fieldName,
    kind,
    title: input.title,
    description: input.description,
    ...(input.required ? { required: true } : {}),
    ...(widget ? { widget } : {}),
    ...(kind === 'choice' || kind === 'multichoice' ? { choices: choicesOf(input.values ?? []) } : {}),
    fieldset: 'default',
  };
  return {
    definition: checked({ ...def, generated: [...(def.generated ?? []), field] }),
    created: { name: fieldName, fieldset: false },
  };
}

function changedField(field: FieldDef, changes: z.infer<typeof fieldChanges>): FieldDef {
  const next: FieldDef = { ...field };
  if (changes.title !== undefined) next.title = changes.title;
  if (changes.description !== undefined) next.description = changes.description;
  if (changes.required !== undefined) {
    if (changes.required) next.required = true;
    else delete next.required;
  }
  if (changes.default !== undefined) next.default = changes.default;
  if (changes.minLength !== undefined) next.minLength = changes.minLength;
  if (changes.maxLength !== undefined) next.maxLength = changes.maxLength;
  if (changes.values !== undefined) next.choices = choicesOf(changes.values);
  if (changes.searchable !== undefined) {
    if (changes.searchable) next.searchable = true;
    else delete next.searchable;
  }
  return next;
}

/** Moves the generated fields a fieldset lists into it, in that order (after the other generated fields). */
function withFieldsetFields(def: ContentTypeDef, fieldset: string, names: readonly string[]): ContentTypeDef {
  const generated = [...(def.generated ?? [])];
  for (const fieldName of names) {
    const found = locate(def, fieldName);
    if (found.fixedField && found.fixedField.fieldset !== fieldset) readOnly(fieldName, found.fixedField.behavior);
    if (!found.generatedField && !found.fixedField) throw notFound(`No field ${clip(fieldName)} in ${def.name}`);
  }
  const moved = names.flatMap((n) => generated.filter((f) => f.name === n)).map((f) => ({ ...f, fieldset }));
  const rest = generated.filter((f) => !names.includes(f.name));
  return { ...def, generated: [...rest, ...moved] };
}

function changeFieldset(def: ContentTypeDef, id: string, changes: z.infer<typeof fieldsetChanges>): ContentTypeDef {
  const found = locate(def, id);
  let next = def;
  if (found.generatedFieldset) {
    next = {
      ...def,
      fieldsets: (def.fieldsets ?? []).map((f) =>
        f.id === id
          ? {
              ...f,
              ...(changes.title !== undefined ? { title: changes.title } : {}),
              ...(changes.description !== undefined ? { description: changes.description } : {}),
            }
          : f,
      ),
    };
  } else if (found.fixedFieldset) {
    // A built-in fieldset's title is the behaviors'; its generated fields may still be placed in it.
    if (changes.title !== undefined || changes.description !== undefined)
      readOnly(`The fieldset ${id}`, 'the base schema');
  } else {
    throw notFound(`No fieldset ${clip(id)} in ${def.name}`);
  }
  return changes.fields ? withFieldsetFields(next, id, changes.fields) : next;
}

/** PATCH @types/<type>/<target>: changes one generated field or fieldset. */
export function changeInSchema(def: ContentTypeDef, target: string, body: unknown): SchemaEditResult {
  const found = locate(def, target);
  if (found.generatedField) {
    const changes = parsed(fieldChanges, body, 'field changes');
    return {
      definition: checked({
        ...def,
        generated: (def.generated ?? []).map((f) => (f.name === target ? changedField(f, changes) : f)),
      }),
    };
  }
  if (found.fixedField) readOnly(`The field ${target}`, found.fixedField.behavior);
  if (found.generatedFieldset || found.fixedFieldset) {
    return { definition: checked(changeFieldset(def, target, parsed(fieldsetChanges, body, 'fieldset changes'))) };
  }
  throw notFound(`No field or fieldset ${clip(target)} in ${def.name}`);
}

/** PATCH @types/<type>: changes properties of generated fields and the fieldsets' titles and fields. */
export function changeSchema(def: ContentTypeDef, body: unknown): SchemaEditResult {
  const changes = parsed(schemaChanges, body, 'schema changes');
  let next = def;
  for (const [fieldName, fieldChange] of Object.entries(changes.properties ?? {})) {
    next = changeInSchema(next, fieldName, fieldChange).definition;
  }
  for (const { id, ...fieldsetChange } of changes.fieldsets ?? []) next = changeFieldset(next, id, fieldsetChange);
  return { definition: checked(next) };
}

/** PUT @types/<type>: the generated fields and fieldsets become those of the body (the rest is the behaviors'). */
export function replaceSchema(def: ContentTypeDef, body: unknown): SchemaEditResult {
  const input = parsed(replacement, body, 'schema');
  const fixed = buildType({ ...def, generated: [], fieldsets: [] }, BEHAVIORS);
  const builtinFieldsets = new Set(FIELDSETS.map((f) => f.id));
  const fieldsets: FieldsetDef[] = input.fieldsets
    .filter((f) => !builtinFieldsets.has(f.id))
    .map((f) => ({ id: parsed(name, f.id, 'fieldset id'), title: f.title ?? f.id, description: f.description ?? '' }));
  const placed = new Map<string, string>();
  for (const fieldset of input.fieldsets) for (const n of fieldset.fields ?? []) placed.set(n, fieldset.id);
  const generated: FieldDef[] = [];
  for (const [fieldName, property] of Object.entries(input.properties)) {
    if (fixed.field(fieldName)) continue;
    const { kind, widget } = kindOf(property.factory ?? 'Text line (String)');
    const field = changedField(
      {
        name: parsed(name, fieldName, 'field name'),
        kind,
        title: property.title ?? fieldName,
        description: '',
        ...(widget ? { widget } : {}),
        fieldset: placed.get(fieldName) ?? 'default',
      },
      property,
    );
    if (input.required.includes(fieldName)) field.required = true;
    generated.push(field);
  }
  return { definition: checked({ ...def, generated, fieldsets }) };
}

/** DELETE @types/<type>/<target>: removes a generated field, or a generated fieldset (its fields go to Default). */
export function removeFromSchema(def: ContentTypeDef, target: string): SchemaEditResult {
  const found = locate(def, target);
  if (found.generatedField) {
    return { definition: checked({ ...def, generated: (def.generated ?? []).filter((f) => f.name !== target) }) };
  }
  if (found.generatedFieldset) {
    return {
      definition: checked({
        ...def,
        fieldsets: (def.fieldsets ?? []).filter((f) => f.id !== target),
        generated: (def.generated ?? []).map((f) => (f.fieldset === target ? { ...f, fieldset: 'default' } : f)),
      }),
    };
  }
  if (found.fixedField) readOnly(`The field ${target}`, found.fixedField.behavior);
  if (found.fixedFieldset) readOnly(`The fieldset ${target}`, 'the base schema');
  throw notFound(`No field or fieldset ${clip(target)} in ${def.name}`);
}
