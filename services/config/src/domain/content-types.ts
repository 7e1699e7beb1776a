/**
 * The content types of the site, owned here: the built-in ones seeded on first start, those created in the
 * `cms-types` panel, and every schema edit of `@types`. Each write is stored, then announced to the open
 * `WatchTypes` streams before it is answered, so content validates and serves the new definition on the very
 * next request (and search indexes the text content computes with it: `searchable` fields).
 */
import {
  badRequest,
  BEHAVIORS,
  BUILTIN_TYPES,
  buildType,
  clip,
  conflict,
  DEFAULT_RETRY,
  LOST_RACE,
  notFound,
  retryLostRaces,
  SITE_ROOT_TYPE,
  type ContentTypeDef,
  type WriteRetry,
} from '@cms/shared';
import type { RecordChanges } from './changes';
import {
  addToSchema,
  changeInSchema,
  changeSchema,
  nameFromTitle,
  removeFromSchema,
  replaceSchema,
  type SchemaEditResult,
} from './schema-edits';

export interface StoredType {
  definition: ContentTypeDef;
  version: number;
}

export interface TypeDefinitionStore {
  /** Every type, in listing order. */
  list(): Promise<StoredType[]>;
  find(name: string): Promise<StoredType | null>;
  /** Stores these when there are no types yet; whether it did. */
  seed(definitions: readonly ContentTypeDef[]): Promise<boolean>;
  /** Adds a type after the others; false when the name is taken. */
  insert(definition: ContentTypeDef): Promise<boolean>;
  /** Replaces a type if it is still at `version`; false when another write came first. */
  replace(definition: ContentTypeDef, version: number): Promise<boolean>;
  remove(name: string): Promise<boolean>;
}

/** How many objects of each type exist (content's `CountByType`). */
export type TypeCounter = (names: readonly string[], requestId: string) => Promise<Record<string, number>>;

export type SchemaEdit =
  | { change: 'add'; body: unknown }
  | { change: 'update'; target: string; body: unknown }
  | { change: 'replace'; body: unknown }
  | { change: 'remove'; target: string };

export class ContentTypes {
  constructor(
    private readonly store: TypeDefinitionStore,
    /** Told of every write, so that other services' type caches drop what changed. */
    private readonly changes: RecordChanges,
    /** How a read-modify-write that raced another write of the same type is tried again. */
    private readonly retry: WriteRetry = DEFAULT_RETRY,
  ) {}

  /** Stores the built-in types on a site that has none yet. */
  async seed(): Promise<void> {
    await this.store.seed(BUILTIN_TYPES);
  }

  async list(): Promise<ContentTypeDef[]> {
    return (await this.store.list()).map((t) => t.definition);
  }

  /** One type; 404 for an unknown name. */
  async get(name: string): Promise<ContentTypeDef> {
    const stored = await this.store.find(name);
    if (!stored) throw notFound(`No content type ${clip(name)}`);
    return stored.definition;
  }

  /** One edit of a type's generated schema (`@types`). */
  async editSchema(name: string, edit: SchemaEdit): Promise<SchemaEditResult> {
    return this.modify(name, (def) => {
      switch (edit.change) {
        case 'add':
          return addToSchema(def, edit.body);
        case 'update':
          return edit.target ? changeInSchema(def, edit.target, edit.body) : changeSchema(def, edit.body);
        case 'replace':
          return replaceSchema(def, edit.body);
        case 'remove':
          return removeFromSchema(def, edit.target);
      }
    });
  }

  /**
   * A new type from a title and description (the panel's POST): its id from the title, Dublin Core and name
   * from title on, nothing else; an addable item (not a folder) with the default view.
   */
  async create(title: string, description: string): Promise<ContentTypeDef> {
    const name = nameFromTitle(title);
    const definition: ContentTypeDef = {
      name,
      title,
      description,
      folderish: false,
      layout: 'view',
      layouts: ['view'],
      workflow: true,
      addable: true,
      behaviors: ['cms.dublincore', 'cms.namefromtitle'],
      schema: [],
      filterContentTypes: true,
      allowedContentTypes: [],
    };
    buildType(definition, BEHAVIORS);
    if (!(await this.store.insert(definition))) throw badRequest(`A content type ${name} exists already`);
    await this.changes.publish([name]);
    return definition;
  }

  /** Changes a type's settings and behaviors (the panel's PATCH). */
  async update(name: string, change: (def: ContentTypeDef) => ContentTypeDef): Promise<ContentTypeDef> {
    return (await this.modify(name, (def) => ({ definition: change(def) }))).definition;
  }

  /** Removes a type that has no objects left (the panel's DELETE). */
  async remove(name: string, count: TypeCounter, requestId: string): Promise<void> {
    if (name === SITE_ROOT_TYPE) throw badRequest('The site root’s type cannot be removed');
    await this.get(name);
    const objects = (await count([name], requestId))[name] ?? 0;
    if (objects > 0) {
      throw badRequest(`The content type ${clip(name)} still has ${objects} object(s); remove them first`);
    }
    await this.store.remove(name);
    await this.changes.publish([name]);
  }

  /** Read, change, write if nobody wrote in between (else again), announce. */
  private async modify(name: string, edit: (def: ContentTypeDef) => SchemaEditResult): Promise<SchemaEditResult> {
    return retryLostRaces(
      this.retry,
      async () => {
        const stored = await this.store.find(name);
        if (!stored) throw notFound(`No content type ${clip(name)}`);
        const result = edit(stored.definition);
        buildType(result.definition, BEHAVIORS);
        if (!(await this.store.replace(result.definition, stored.version))) return LOST_RACE;
        await this.changes.publish([name]);
        return result;
      },
      () => conflict(`The content type ${clip(name)} is being changed by others; try again`),
    );
  }
}
