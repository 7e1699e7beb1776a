/**
 * The content types of the site as one registry object, handed to whatever reads types. Types are looked up
 * on every use, never kept: a registry whose types change while the service runs (edited through the
 * configuration service) is then seen at once everywhere.
 */
import type { z } from 'zod';
import { BEHAVIORS, type BehaviorDef } from './behaviors';
import { BUILTIN_TYPES } from './builtin';
import { buildType, type ContentType, type ContentTypeDef } from './content-type';
import { createSchema, patchSchema } from './schemas';

export interface TypeRegistry {
  /** The type of that name; throws for a name that is none (stored objects always have a known type). */
  get(name: string): ContentType;
  /** The type of that name, or undefined. */
  find(name: string): ContentType | undefined;
  /** Every type, in definition order. */
  list(): readonly ContentType[];
  /** The types that may be added inside an object of the `container` type. */
  allowedIn(container: ContentType): ContentType[];
  /** The body of a POST creating an object of this type (built once per type object). */
  createSchema(type: ContentType): z.ZodType<Record<string, unknown>>;
  /** The body of a PATCH of an object of this type (built once per type object). */
  patchSchema(type: ContentType): z.ZodType<Record<string, unknown>>;
}

/** A registry of fixed definitions; throws at once for a definition that names an unknown behavior. */
export function typeRegistryOf(
  definitions: readonly ContentTypeDef[],
  behaviors: Readonly<Record<string, BehaviorDef>> = BEHAVIORS,
): TypeRegistry {
  const types = definitions.map((def) => buildType(def, behaviors));
  const byName = new Map(types.map((type) => [type.name, type]));
  const find = (name: string) => byName.get(name);
  return {
    get(name) {
      const type = find(name);
      if (!type) throw new Error(`unknown content type ${name}`);
      return type;
    },
    find,
    list: () => types,
    // Every addable type in a folderish one (no per-type restrictions yet).
    allowedIn: (container) => (container.folderish ? types.filter((type) => type.addable) : []),
    createSchema,
    patchSchema,
  };
}

/** The registry of the built-in types (addendum §2): what every site has today. */
export function builtinTypeRegistry(): TypeRegistry {
  return typeRegistryOf(BUILTIN_TYPES);
}
