/**
 * The JSON schema of a content type, as `GET @types/<type>` answers it (media type `application/json+schema`):
 * what clients draw add and edit forms from. Derived from the same field definitions that validate writes.
 */
import { UNTRANSLATED, type Translate } from '@cms/shared';
import { FIELDSETS, GENERATED_FIELDSETS, KIND_INFO, type ContentType, type TypeField } from '../types';

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
  description: string;
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

/**
 * The schema of one type: its fields grouped into the form's fieldsets, each described for clients; `translate`
 * gives the platform's words (the type's, fieldsets' and built-in fields' titles) in the caller's language.
 */
export function typeSchema(
  type: ContentType,
  contextUrl: string,
  translate: Translate = UNTRANSLATED.translate,
  site: SchemaSite = {},
): TypeSchema {
  const ordered = formOrder(type);
  const builtin = FIELDSETS.flatMap(({ id }) => {
    const fieldset = fieldsetOf(type, id, translate, ordered);
    return fieldset && fieldset.fields.length ? [fieldset] : [];
  });
  // Fieldsets added through `@types` are listed even while empty (a client adds fields to them next).
  const added = (type.fieldsets ?? []).flatMap(({ id }) => fieldsetOf(type, id, translate, ordered) ?? []);
  const fieldsets = [...builtin, ...added];
  const properties: TypeSchema['properties'] = {};
  for (const field of ordered) {
    properties[field.name] = translatedProperty(fieldProperty(field, contextUrl, site), field, translate);
  }
  return {
    fieldsets,
    layouts: [...type.layouts],
    properties,
    required: ordered.filter((f) => f.required).map((f) => f.name),
    title: translate(type.title),
    type: 'object',
  };
}

/** A built-in field's words in the caller's language; fields added through `@types` keep the site's own words. */
function translatedProperty(
  property: Record<string, unknown>,
  field: TypeField,
  translate: Translate,
): Record<string, unknown> {
  if (field.behavior.startsWith(GENERATED_FIELDSETS)) return property;
  property.title = translate(field.title);
  if (field.description) property.description = translate(field.description);
  if (field.choices && Array.isArray(property.choices)) {
    property.choices = field.choices.map(([token, title]) => [token, translate(title)]);
    property.enumNames = field.choices.map(([, title]) => translate(title));
  }
  return property;
}

/** Fields in form order: by their form rank, then in the type's order. */
function formOrder(type: ContentType): TypeField[] {
  return type.fields
    .map((field, index) => ({ field, index }))
    .sort(
      (a, b) =>
        (FORM_RANK[a.field.name] ?? DEFAULT_RANK) - (FORM_RANK[b.field.name] ?? DEFAULT_RANK) || a.index - b.index,
    )
    .map(({ field }) => field);
}

/** One fieldset of the type (`GET @types/<type>/<fieldset>`): a built-in one or one added through `@types`. */
export function fieldsetOf(
  type: ContentType,
  id: string,
  translate: Translate = UNTRANSLATED.translate,
  ordered = formOrder(type),
): SchemaFieldset | undefined {
  const fields = ordered.filter((f) => f.fieldset === id).map((f) => f.name);
  const added = (type.fieldsets ?? []).find((f) => f.id === id);
  if (added)
    return { behavior: GENERATED_FIELDSETS, description: added.description ?? '', fields, id, title: added.title };
  const builtin = FIELDSETS.find((f) => f.id === id);
  if (!builtin) return undefined;
  // Every fieldset has a description, the first too (the reference omits it there; clients read it on each).
  return { behavior: 'cms', description: '', fields, id, title: translate(builtin.title) };
}

/** The definition of one field (the specification's field definition attributes, plus `behavior`). */
/** What of the site a schema shows: its language, the default of the `language` field (as the original's does). */
export interface SchemaSite {
  defaultLanguage?: string;
}

/**
 * `contextUrl` is where the schema was asked: its vocabularies and sources are linked there, as the original does,
 * so that a vocabulary that asks more than View (Users, Keywords: Modify) is checked where the editor may edit.
 */
export function fieldProperty(
  field: TypeField,
  contextUrl: string,
  { defaultLanguage }: SchemaSite = {},
): Record<string, unknown> {
  const info = KIND_INFO[field.kind];
  const vocabulary = field.vocabulary ? { '@id': `${contextUrl}/@vocabularies/${field.vocabulary}` } : undefined;
  const property: Record<string, unknown> = {
    behavior: schemaBehaviorName(field),
    description: field.description,
    factory: info.factory,
    title: field.title,
    type: info.type,
  };
  if (field.widget ?? info.widget) property.widget = field.widget ?? info.widget;
  // Fields added through `@types` show the limits set on them (the base schema's are not shown).
  if (field.behavior.startsWith(GENERATED_FIELDSETS)) {
    if (field.minLength !== undefined) property.minLength = field.minLength;
    if (field.maxLength !== undefined) property.maxLength = field.maxLength;
  }
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
        property.vocabulary = { '@id': `${contextUrl}/@sources/${field.name}` };
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
  // The built-in language field defaults to the site's language, as the original platform's schema shows.
  if (field.name === 'language' && !field.behavior.startsWith(GENERATED_FIELDSETS) && defaultLanguage)
    property.default = defaultLanguage;
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
