/**
 * The `cms-types` control panel: the content types as a list (with how many objects each has) and, per type, a
 * form of its settings and one yes/no per behavior. Switching a behavior changes the type's fields, and with
 * them what content of the type accepts and serializes.
 */
import { badRequest, BEHAVIORS, clip, urlOf, type ContentTypeDef } from '@cms/shared';
import { z } from 'zod';
import { panelUrl } from './panels';

export const CMS_TYPES_PANEL = 'cms-types';

/** Every behavior, in the order of the panel's form: by title, as the original lists them. */
const PANEL_BEHAVIORS = Object.values(BEHAVIORS).sort((a, b) => a.title.localeCompare(b.title));

export const PANEL_BEHAVIOR_NAMES: readonly string[] = PANEL_BEHAVIORS.map((behavior) => behavior.name);

export function cmsTypesUrl(publicUrl: string, typeName?: string): string {
  // As the reference writes them: the type name as it is (`cms-types/News Item`).
  const panel = panelUrl(publicUrl, CMS_TYPES_PANEL);
  return typeName === undefined ? panel : `${panel}/${typeName}`;
}

/** One entry of the panel's list. */
export function typeEntry(def: ContentTypeDef, count: number, publicUrl: string) {
  return {
    '@id': cmsTypesUrl(publicUrl, def.name),
    '@type': def.name,
    count,
    description: def.description,
    id: def.name,
    meta_type: 'cms-type-info',
    title: def.title,
  };
}

/** The form of one type's settings (the same for every type). */
export function typeFormSchema(publicUrl: string) {
  const site = urlOf(publicUrl, '/');
  const behaviors = Object.fromEntries(
    PANEL_BEHAVIORS.map(({ name, title, description }) => [
      name,
      { description, factory: 'Yes/No', title, type: 'boolean' },
    ]),
  );
  return {
    fieldsets: [
      {
        behavior: 'cms',
        fields: ['title', 'description', 'allowed_content_types', 'filter_content_types'],
        id: 'default',
        title: 'Default',
      },
      { behavior: 'cms', fields: [...PANEL_BEHAVIOR_NAMES], id: 'behaviors', title: 'Behaviors' },
    ],
    properties: {
      allowed_content_types: {
        additionalItems: true,
        description: '',
        factory: 'Multiple Choice',
        items: {
          description: '',
          factory: 'Choice',
          title: '',
          type: 'string',
          vocabulary: { '@id': `${site}/@vocabularies/cms.app.vocabularies.ReallyUserFriendlyTypes` },
        },
        title: 'Allowed Content Types',
        type: 'array',
        uniqueItems: true,
      },
      description: { description: '', factory: 'Text', title: 'Description', type: 'string', widget: 'textarea' },
      filter_content_types: {
        choices: [
          ['none', null],
          ['all', null],
          ['some', null],
        ],
        default: 'none',
        description:
          'Items of this type can act as a folder containing other  items. What content types should be allowed inside?',
        enum: ['none', 'all', 'some'],
        enumNames: [null, null, null],
        factory: 'Choice',
        title: 'Filter Contained Types',
        type: 'string',
        vocabulary: { '@id': `${site}/@sources/filter_content_types` },
      },
      ...behaviors,
      title: { description: '', factory: 'Text line (String)', title: 'Type Name', type: 'string' },
    },
    required: ['title', 'filter_content_types'],
    type: 'object',
  };
}

/** One type's settings as the form shows them. */
export function typeData(def: ContentTypeDef): Record<string, unknown> {
  return {
    allowed_content_types: [...(def.allowedContentTypes ?? [])],
    description: def.description,
    filter_content_types: def.filterContentTypes ?? false,
    ...Object.fromEntries(PANEL_BEHAVIOR_NAMES.map((name) => [name, def.behaviors.includes(name)])),
    title: def.title,
  };
}

/** The panel's answer for one type (GET, and the POST that created it). */
export function typePanel(def: ContentTypeDef, publicUrl: string) {
  return {
    '@id': cmsTypesUrl(publicUrl, def.name),
    data: typeData(def),
    description: def.description,
    group: 'Content',
    items: [],
    schema: typeFormSchema(publicUrl),
    title: def.title,
  };
}

export const newTypeBody = z.object({
  title: z.string().trim().min(1).max(200),
  description: z.string().max(2000).default(''),
});

const baseSettings = z.object({
  title: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  allowed_content_types: z.array(z.string().min(1).max(200)).max(500).optional(),
  // The form's choice (`none`, `all`, `some`), or the yes/no its data shows.
  filter_content_types: z.union([z.boolean(), z.enum(['none', 'all', 'some'])]).optional(),
});
/** A type's settings as its panel writes them, with each panel behavior switched on or off by name. */
export const typeSettings = baseSettings
  .extend(Object.fromEntries(PANEL_BEHAVIOR_NAMES.map((name) => [name, z.boolean().optional()])))
  .strict();
export type TypeSettings = z.infer<typeof typeSettings>;

/**
 * A type with the panel's changes applied: settings, and behaviors switched on (added after the others) or off.
 * `known` says which type names may be allowed inside.
 */
export function changedType(def: ContentTypeDef, body: TypeSettings, known: ReadonlySet<string>): ContentTypeDef {
  const flags = body as Record<string, unknown>;
  const input = flags as z.infer<typeof baseSettings>;
  const unknown = (input.allowed_content_types ?? []).filter((name) => !known.has(name));
  if (unknown.length) {
    throw badRequest(`Unknown content types in allowed_content_types: ${clip(unknown.join(', '))}`, [
      { field: 'allowed_content_types', message: 'unknown content type' },
    ]);
  }
  let behaviors = [...def.behaviors];
  for (const name of PANEL_BEHAVIOR_NAMES) {
    const on = flags[name];
    if (on === true && !behaviors.includes(name)) behaviors = [...behaviors, name];
    if (on === false) behaviors = behaviors.filter((b) => b !== name);
  }
  const filter = input.filter_content_types;
  return {
    ...def,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.allowed_content_types !== undefined
      ? { allowedContentTypes: [...new Set(input.allowed_content_types)] }
      : {}),
    ...(filter !== undefined ? { filterContentTypes: filter === true || filter === 'some' } : {}),
    behaviors,
  };
}

/**
 * The list as a form as well, one field per type holding its title: a client that opens every panel with its
 * generic form (Volto, where the neutral panel id does not lead to its own content types screen) shows the types
 * and may rename them; each type's own settings stay at `cms-types/<type>`.
 */
export function typesListForm(types: readonly ContentTypeDef[], counts: Readonly<Record<string, number>>) {
  return {
    data: Object.fromEntries(types.map((t) => [t.name, t.title])),
    schema: {
      fieldsets: [{ behavior: 'cms', fields: types.map((t) => t.name), id: 'default', title: 'Default' }],
      properties: Object.fromEntries(
        types.map((t) => [
          t.name,
          {
            description: `${t.description ? `${t.description} ` : ''}(${t.name}: ${counts[t.name] ?? 0} objects)`,
            factory: 'Text line (String)',
            title: t.name,
            type: 'string',
          },
        ]),
      ),
      required: types.map((t) => t.name),
      type: 'object',
    },
  };
}

/** What that form writes back: type name to title. */
export const typeTitles = z.record(z.string().min(1).max(200), z.string().trim().min(1).max(200));
