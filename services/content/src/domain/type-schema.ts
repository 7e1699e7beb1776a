/**
 * The JSON schema of a content type, as `GET @types/<type>` answers it (media type `application/json+schema`):
 * what clients draw add and edit forms from. Derived from the same field definitions that validate writes.
 */
import { urlOf } from '@cms/shared';
import { FIELDSETS, KIND_INFO, type ContentType, type TypeField } from './types';

export const SCHEMA_MEDIA_TYPE = 'application/json+schema';

/** The name a behavior's fields carry in a schema, where the reference names the interface rather than the behavior. */
const SCHEMA_BEHAVIOR_NAMES: Readonly<Record<string, string>> = {
  'cms.allowdiscussion': 'cms.app.discussion.behavior.IAllowDiscussion',
};

/**
 * Where a field sits in its fieldset when the form order differs from the behavior order (the reference's form
 * hints): the settings tab lists navigation before renaming, and the change note closes the default tab.
 */
const FORM_RANK: Readonly<Record<string, number>> = {
  exclude_from_nav: 1,
  id: 2,
  versioning_enabled: 3,
  table_of_contents: 4,
  allow_discussion: 5,
  nextPreviousEnabled: 6,
  changeNote: 100,
};
const DEFAULT_RANK = 50;

export interface SchemaFieldset {
  behavior: string;
  description?: string;
  fields: string[];
  id: string;
  title: string;
}

export interface TypeSchema {
  fieldsets: SchemaFieldset[];
  layouts: string[];
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  title: string;
  type: 'object';
}

export function schemaBehaviorName(field: Pick<TypeField, 'behavior'>): string {
  return SCHEMA_BEHAVIOR_NAMES[field.behavior] ?? field.behavior;
}

/** The schema of one type: its fields grouped into the form's fieldsets, each described for clients. */
export function typeSchema(type: ContentType, publicUrl: string): TypeSchema {
  const site = urlOf(publicUrl, '/');
  const ordered = type.fields
    .map((field, index) => ({ field, index }))
    .sort(
      (a, b) =>
        (FORM_RANK[a.field.name] ?? DEFAULT_RANK) - (FORM_RANK[b.field.name] ?? DEFAULT_RANK) || a.index - b.index,
    )
    .map(({ field }) => field);
  const fieldsets = FIELDSETS.flatMap(({ id, title }) => {
    const fields = ordered.filter((f) => f.fieldset === id).map((f) => f.name);
    if (fields.length === 0) return [];
    // The reference gives every tab but the first an (empty) description.
    return [
      id === 'default'
        ? { behavior: 'cms', fields, id, title }
        : { behavior: 'cms', description: '', fields, id, title },
    ];
  });
  const properties: TypeSchema['properties'] = {};
  for (const field of ordered) properties[field.name] = fieldProperty(field, site);
  return {
    fieldsets,
    layouts: [...type.layouts],
    properties,
    required: ordered.filter((f) => f.required).map((f) => f.name),
    title: type.title,
    type: 'object',
  };
}

/** The definition of one field (the specification's field definition attributes, plus `behavior`). */
export function fieldProperty(field: TypeField, site: string): Record<string, unknown> {
  const info = KIND_INFO[field.kind];
  const vocabulary = field.vocabulary ? { '@id': `${site}/@vocabularies/${field.vocabulary}` } : undefined;
  const property: Record<string, unknown> = {
    behavior: schemaBehaviorName(field),
    description: field.description,
    factory: info.factory,
    title: field.title,
    type: info.type,
  };
  if (info.widget) property.widget = info.widget;
  switch (field.kind) {
    case 'tristate':
    case 'choice':
      if (vocabulary) {
        property.vocabulary = vocabulary;
      } else if (field.choices) {
        // A fixed source: its terms inline, and where to enumerate them.
        property.choices = field.choices.map(([token, title]) => [token, title]);
        property.enum = field.choices.map(([token]) => token);
        property.enumNames = field.choices.map(([, title]) => title);
        property.vocabulary = { '@id': `${site}/@sources/${field.name}` };
      }
      break;
    case 'list':
      Object.assign(property, {
        additionalItems: true,
        items: { description: '', factory: 'Text line (String)', title: '', type: 'string' },
        uniqueItems: true,
      });
      if (vocabulary) property.widgetOptions = { vocabulary };
      break;
    case 'multichoice':
      Object.assign(property, {
        items: {
          description: '',
          factory: 'Choice',
          title: '',
          type: 'string',
          ...(vocabulary ? { vocabulary } : {}),
        },
        uniqueItems: true,
      });
      break;
    case 'relationlist':
      Object.assign(property, {
        additionalItems: true,
        items: {
          description: '',
          factory: 'Relation Choice',
          title: 'Related',
          type: 'string',
          ...(vocabulary ? { vocabulary } : {}),
        },
        uniqueItems: true,
      });
      if (vocabulary) property.widgetOptions = { pattern_options: { recentlyUsed: true }, vocabulary };
      break;
    case 'int':
    case 'float':
      if (field.min !== undefined) property.minimum = field.min;
      if (field.max !== undefined) property.maximum = field.max;
      break;
    default:
      break;
  }
  if (shownDefault(field)) property.default = field.default;
  return property;
}

/**
 * Whether the schema names the field's default: the reference leaves out empty text, unset values, the empty
 * lists of free-text fields and the default of a yes/no choice that may stay unset.
 */
function shownDefault(field: TypeField): boolean {
  const value = field.default;
  if (value === undefined || value === null || value === '') return false;
  if (field.kind === 'tristate') return false;
  if (field.kind === 'list' && Array.isArray(value) && value.length === 0) return false;
  return true;
}
