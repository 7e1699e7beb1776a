import type { FieldError } from '../errors/app-error';
import type { BehaviorDef } from './behaviors';
import type { FieldDef, FieldsetId } from './fields';

/** A field as a type has it: with the behavior (or `cms`, the base schema) that defines it. */
export interface TypeField extends FieldDef {
  behavior: string;
}

/** What a type changes of a behavior's field: any of its members but the name. */
export type FieldOverrideDef = Partial<Omit<FieldDef, 'name'>>;

/** A fieldset added to a type through `@types` (the built-in ones are FIELDSETS). */
export interface FieldsetDef {
  id: FieldsetId;
  title: string;
  description: string;
}

/**
 * A content type as data: what the configuration service stores and hands to the other services
 * (`ListTypes`), so it holds nothing but JSON values. Rules in code belong to behaviors.
 */
export interface ContentTypeDef {
  name: string;
  /** Human-readable name (`type_title`). */
  title: string;
  description: string;
  folderish: boolean;
  /** Default view name (`layout`). */
  layout: string;
  /** Views that may be chosen (`layout` in a PATCH). */
  layouts: readonly string[];
  /** Whether the type has a workflow (`review_state` null otherwise). */
  workflow: boolean;
  /** Whether users may add it (the site root is created by the system). */
  addable: boolean;
  behaviors: readonly string[];
  /**
   * Whether objects of the type allow discussion where they leave `allow_discussion` unset (the type's setting of
   * addendum §3). Unset: no, as no built-in type of the reference platform does.
   */
  allowDiscussion?: boolean;
  /** Fields of the type's own schema. */
  schema: readonly FieldDef[];
  /** Changes the type makes to behavior fields (a File's title is optional). */
  overrides?: Readonly<Record<string, FieldOverrideDef>>;
  /** Fields added through `@types` (the generated schema), after the others. */
  generated?: readonly FieldDef[];
  /** Fieldsets added through `@types`, shown after the built-in ones. */
  fieldsets?: readonly FieldsetDef[];
  /** Whether only `allowedContentTypes` may be added inside (unset: every addable type). */
  filterContentTypes?: boolean;
  allowedContentTypes?: readonly string[];
}

export interface ContentType extends ContentTypeDef {
  /** Every field of the type: its own schema, then the behaviors' fields in behavior order, then the generated. */
  fields: readonly TypeField[];
  field(name: string): TypeField | undefined;
  /** Rules across fields (its behaviors'), checked on the values an object would have after a write. */
  invariants?: (values: Readonly<Record<string, unknown>>) => FieldError[];
}

/** The behavior name of the fields added through `@types` to a type (the reference's generated schema). */
export function generatedSchemaName(typeName: string): string {
  return `cms.dexterity.schema.generated.cms_0_${typeName.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** The behavior name of the fieldsets added through `@types`. */
export const GENERATED_FIELDSETS = 'cms.dexterity.schema.generated';

/**
 * A type from its definition: its own schema's fields, then those of its behaviors (looked up in `behaviors`)
 * in behavior order with the type's overrides applied, then the generated fields. A field two behaviors define
 * (`blocks` and `blocks.editable.layout`) is the first one's. Throws for an unknown behavior.
 */
export function buildType(def: ContentTypeDef, behaviors: Readonly<Record<string, BehaviorDef>>): ContentType {
  const generated = generatedSchemaName(def.name);
  const candidates: TypeField[] = [
    ...def.schema.map((f) => ({ ...f, behavior: 'cms' })),
    ...def.behaviors.flatMap((name) => {
      const behavior = Object.prototype.hasOwnProperty.call(behaviors, name) ? behaviors[name] : undefined;
      if (!behavior) throw new Error(`type ${def.name}: unknown behavior ${name}`);
      return behavior.fields.map((f) => ({ ...f, ...def.overrides?.[f.name], behavior: name }));
    }),
    ...(def.generated ?? []).map((f) => ({ ...f, behavior: generated })),
  ];
  const byName = new Map<string, TypeField>();
  for (const field of candidates) if (!byName.has(field.name)) byName.set(field.name, field);
  const fields = [...byName.values()];
  const rules = [...new Set(def.behaviors.map((name) => behaviors[name].invariants))].filter(
    (rule): rule is NonNullable<typeof rule> => rule !== undefined,
  );
  const invariants = rules.length
    ? (values: Readonly<Record<string, unknown>>) => rules.flatMap((rule) => rule(values))
    : undefined;
  return { ...def, fields, field: (name) => byName.get(name), invariants };
}

/** Whether the type has the behavior switched on. */
export function hasBehavior(type: ContentTypeDef, behavior: string): boolean {
  return type.behaviors.includes(behavior);
}
