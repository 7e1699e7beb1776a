import type { FieldError } from '@cms/shared';
import type { BehaviorDef } from './behaviors';
import type { FieldDef } from './fields';

/** A field as a type has it: with the behavior (or `cms`, the base schema) that defines it. */
export interface TypeField extends FieldDef {
  behavior: string;
}

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
  overrides?: Readonly<Record<string, Partial<FieldDef>>>;
  /** Rules across fields, checked on the values an object would have after a write. */
  invariants?: (values: Readonly<Record<string, unknown>>) => FieldError[];
}

export interface ContentType extends ContentTypeDef {
  /** Every field of the type: its own schema, then the behaviors' fields in behavior order. */
  fields: readonly TypeField[];
  field(name: string): TypeField | undefined;
}

/**
 * A type from its definition: its own schema's fields, then those of its behaviors (looked up in `behaviors`)
 * in behavior order, with the type's overrides applied. Throws for an unknown behavior or a field defined twice.
 */
export function buildType(def: ContentTypeDef, behaviors: Readonly<Record<string, BehaviorDef>>): ContentType {
  const fields: TypeField[] = [
    ...def.schema.map((f) => ({ ...f, behavior: 'cms' })),
    ...def.behaviors.flatMap((name) => {
      const behavior = Object.prototype.hasOwnProperty.call(behaviors, name) ? behaviors[name] : undefined;
      if (!behavior) throw new Error(`type ${def.name}: unknown behavior ${name}`);
      return behavior.fields.map((f) => ({ ...f, ...def.overrides?.[f.name], behavior: name }));
    }),
  ];
  const byName = new Map(fields.map((f) => [f.name, f]));
  if (byName.size !== fields.length) throw new Error(`type ${def.name}: a field is defined twice`);
  // The type's own rules, then those of its behaviors.
  const rules = [def.invariants, ...def.behaviors.map((name) => behaviors[name].invariants)].filter(
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
