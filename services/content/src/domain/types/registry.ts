/**
 * The content types of the site as one registry object, handed to whatever reads types. Types are looked up
 * on every use, never kept: the registry's definitions are replaced when the configuration service changes them
 * (LiveTypeRegistry), and that is then seen at once everywhere.
 */
import {
  BEHAVIORS,
  BUILTIN_TYPES,
  buildType,
  type BehaviorDef,
  type ContentType,
  type ContentTypeDef,
} from '@cms/shared';
import type { z } from 'zod';
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
  return registryOf(definitions.map((def) => buildType(def, behaviors)));
}

function registryOf(types: readonly ContentType[]): TypeRegistry {
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
    // In a folderish type: every addable type, or those it allows when it filters them.
    allowedIn: (container) =>
      container.folderish
        ? types.filter(
            (type) =>
              type.addable &&
              (!container.filterContentTypes || (container.allowedContentTypes ?? []).includes(type.name)),
          )
        : [],
    createSchema,
    patchSchema,
  };
}

/** The registry of the built-in types (addendum §2): what every site starts with. */
export function builtinTypeRegistry(): TypeRegistry {
  return typeRegistryOf(BUILTIN_TYPES);
}

/**
 * A registry whose definitions are replaced while the service runs (by what the configuration service answers).
 * A type whose definition did not change stays the same object, so its write schemas are not built again.
 */
export class LiveTypeRegistry implements TypeRegistry {
  private current: TypeRegistry;
  private definitionsJson = new Map<string, string>();

  constructor(definitions: readonly ContentTypeDef[] = BUILTIN_TYPES) {
    this.current = registryOf([]);
    this.replace(definitions);
  }

  /** Uses these definitions from now on; throws (keeping the old ones) for a definition it cannot build. */
  replace(definitions: readonly ContentTypeDef[]): void {
    const json = new Map(definitions.map((def) => [def.name, JSON.stringify(def)]));
    const unchanged = (name: string) => this.definitionsJson.get(name) === json.get(name);
    const sameOrder = [...json.keys()].join('\n') === [...this.definitionsJson.keys()].join('\n');
    if (sameOrder && definitions.every((def) => unchanged(def.name))) return;
    const types = definitions.map((def) =>
      unchanged(def.name) ? this.current.get(def.name) : buildType(def, BEHAVIORS),
    );
    this.current = registryOf(types);
    this.definitionsJson = json;
  }

  get(name: string): ContentType {
    return this.current.get(name);
  }
  find(name: string): ContentType | undefined {
    return this.current.find(name);
  }
  list(): readonly ContentType[] {
    return this.current.list();
  }
  allowedIn(container: ContentType): ContentType[] {
    return this.current.allowedIn(container);
  }
  createSchema(type: ContentType): z.ZodType<Record<string, unknown>> {
    return createSchema(type);
  }
  patchSchema(type: ContentType): z.ZodType<Record<string, unknown>> {
    return patchSchema(type);
  }
}
