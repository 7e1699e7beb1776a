/**
 * The field kinds content type schemas are made of. A field definition holds
 * everything a client needs to know about it (title, description, required,
 * default, choices), so `@types` JSON schemas and the write validation
 * (schemas.ts) are derived from the same data.
 */

export type FieldKind =
  | 'textline'
  | 'text'
  | 'richtext'
  | 'boolean'
  /** A yes/no choice that may be left unset (`allow_discussion`): true, false or null. */
  | 'tristate'
  | 'int'
  | 'float'
  | 'datetime'
  | 'date'
  | 'choice'
  /** A list of tokens from `choices`. */
  | 'multichoice'
  /** A list of free strings (tags, user ids). */
  | 'list'
  | 'url'
  | 'email'
  | 'file'
  | 'image'
  /** References to other content objects, kept as UIDs. */
  | 'relationlist'
  | 'json'
  /** A query-builder query: a list of `{i, o, v}` criteria (Collection). */
  | 'querystring';

/** One term of a fixed vocabulary: token and title. */
export type Choice = readonly [token: string, title: string];

export interface FieldDef {
  name: string;
  kind: FieldKind;
  title: string;
  description: string;
  required?: boolean;
  /** The value an object shows while the field is unset. */
  default?: unknown;
  /** The allowed values (choice, multichoice, tristate). */
  choices?: readonly Choice[];
  /** Name of the vocabulary the choices come from, for clients. */
  vocabulary?: string;
  /** For text kinds: longest value accepted. */
  maxLength?: number;
  /** For number kinds: smallest and largest value accepted. */
  min?: number;
  max?: number;
  /** Accepted on a write but not kept on the object (`changeNote` belongs to the version history). */
  transient?: boolean;
  /** Its words go into the full-text index. */
  searchable?: boolean;
  /** For text kinds added through `@types`: shortest value accepted. */
  minLength?: number;
  /** The widget a client draws it with, where the kind alone does not say (`password`). */
  widget?: string;
  /** The edit form tab it is shown on: one of FIELDSETS, or a fieldset the type added (`ContentTypeDef.fieldsets`). */
  fieldset: FieldsetId;
}

export type FieldsetId = string;

/** The fieldsets every type has (the base schema's and the behaviors'), in form order. */
export const FIELDSETS: readonly { id: FieldsetId; title: string }[] = [
  { id: 'default', title: 'Default' },
  { id: 'settings', title: 'Settings' },
  { id: 'categorization', title: 'Categorization' },
  { id: 'dates', title: 'Dates' },
  { id: 'ownership', title: 'Ownership' },
  { id: 'layout', title: 'Layout' },
];

/** How each kind presents itself in a JSON schema (`factory` is the label of the Fields vocabulary). */
export const KIND_INFO: Readonly<Record<FieldKind, { factory: string; type: string; widget?: string }>> = {
  textline: { factory: 'Text line (String)', type: 'string' },
  text: { factory: 'Text', type: 'string', widget: 'textarea' },
  richtext: { factory: 'Rich Text', type: 'string', widget: 'richtext' },
  boolean: { factory: 'Yes/No', type: 'boolean' },
  tristate: { factory: 'Choice', type: 'string' },
  int: { factory: 'Integer', type: 'integer' },
  float: { factory: 'Floating-point number', type: 'number' },
  datetime: { factory: 'Date/Time', type: 'string', widget: 'datetime' },
  date: { factory: 'Date', type: 'string', widget: 'date' },
  choice: { factory: 'Choice', type: 'string' },
  multichoice: { factory: 'Multiple Choice', type: 'array' },
  list: { factory: 'Tuple', type: 'array' },
  url: { factory: 'URL', type: 'string', widget: 'url' },
  email: { factory: 'Email', type: 'string', widget: 'email' },
  file: { factory: 'File Upload', type: 'object', widget: 'file' },
  image: { factory: 'Image', type: 'object', widget: 'image' },
  relationlist: { factory: 'Relation List', type: 'array' },
  // As the original's JSONField: Volto's history diff shows these values through the json widget.
  json: { factory: 'JSONField', type: 'dict', widget: 'json' },
  querystring: { factory: 'List', type: 'array', widget: 'querystring' },
};

/** The kinds whose value is a stored blob. */
export function isFileKind(kind: FieldKind): kind is 'file' | 'image' {
  return kind === 'file' || kind === 'image';
}

/**
 * The 20 field kinds `@types` adds (`factory` tokens of `@vocabularies/Fields`): the kind each token makes and
 * the widget it needs beyond its kind's. Relation Choice is kept as a relation list (limit: of any length).
 */
export const FIELD_FACTORIES: Readonly<Record<string, { kind: FieldKind; title: string; widget?: string }>> = {
  label_choice_field: { kind: 'choice', title: 'Choice' },
  label_date_field: { kind: 'date', title: 'Date' },
  label_datetime_field: { kind: 'datetime', title: 'Date/Time' },
  Email: { kind: 'email', title: 'Email' },
  label_email: { kind: 'email', title: 'Email' },
  'File Upload': { kind: 'file', title: 'File Upload' },
  label_float_field: { kind: 'float', title: 'Floating-point number' },
  label_full_name: { kind: 'textline', title: 'Full Name' },
  Image: { kind: 'image', title: 'Image' },
  label_integer_field: { kind: 'int', title: 'Integer' },
  JSONField: { kind: 'json', title: 'JSONField' },
  label_multi_choice_field: { kind: 'multichoice', title: 'Multiple Choice' },
  label_password_field: { kind: 'textline', title: 'Password', widget: 'password' },
  'Relation Choice': { kind: 'relationlist', title: 'Relation Choice' },
  'Relation List': { kind: 'relationlist', title: 'Relation List' },
  'Rich Text': { kind: 'richtext', title: 'Rich Text' },
  label_text_field: { kind: 'text', title: 'Text' },
  label_textline_field: { kind: 'textline', title: 'Text line (String)' },
  URL: { kind: 'url', title: 'URL' },
  label_boolean_field: { kind: 'boolean', title: 'Yes/No' },
};
