/**
 * The registry's records, defined in this one place: each has a name, a field
 * definition (what `GET @registry` shows as `schema.properties`), the value a
 * new site starts with, and a zod schema for its value derived from the field
 * definition (what `PATCH @registry` and every read check values against).
 *
 * Field definitions follow the specification's "Field definition attributes"
 * and the recorded transcripts; the texts are the reference platform's.
 */
import { DEFAULT_ALLOWED_SIZES, TEXT_FORMATS } from '@cms/shared';
import { z } from 'zod';
import type {
  BoolFieldSpec,
  CollectionFieldSpec,
  FieldSpec,
  InlineChoiceSpec,
  JsonValue,
  TextFieldSpec,
  VocabularyChoiceSpec,
} from './field-specs';
import { PANEL_RECORDS } from './panel-records';

export type { BoolFieldSpec, FieldSpec, IntegerFieldSpec, JsonValue, TextFieldSpec } from './field-specs';
export type { CollectionFieldSpec, InlineChoiceSpec, VocabularyChoiceSpec } from './field-specs';

export type FieldType = 'string' | 'boolean' | 'integer' | 'array';

export interface RecordDefinition {
  /** Fully qualified dotted name. */
  name: string;
  field: FieldSpec;
  /** The value of a new site (read while the record was never set). */
  initial: JsonValue;
  /** What a value of this record must match. */
  schema: z.ZodType<JsonValue>;
}

// ---------------------------------------------------------------------------
// Field definition → JSON (the `properties` of a registry item)

export function fieldType(field: FieldSpec): FieldType {
  switch (field.factory) {
    case 'Yes/No':
      return 'boolean';
    case 'Integer':
      return 'integer';
    case 'List':
    case 'Tuple':
    case 'Multiple Choice':
      return 'array';
    default:
      return 'string';
  }
}

function isChoice(field: FieldSpec): field is VocabularyChoiceSpec | InlineChoiceSpec {
  return field.factory === 'Choice';
}

function isCollection(field: FieldSpec): field is CollectionFieldSpec {
  return field.factory === 'List' || field.factory === 'Tuple' || field.factory === 'Multiple Choice';
}

/** Whether a collection's items must be distinct: tuples and sets always, lists of choices too. */
export function uniqueItems(field: CollectionFieldSpec): boolean {
  return field.factory !== 'List' || isChoice(field.items);
}

export function vocabularyUrl(publicUrl: string, name: string): string {
  return `${publicUrl}/@vocabularies/${encodeURIComponent(name)}`;
}

/** The field definition as served, with its attributes in alphabetical order (as recorded). */
export function fieldDefinition(field: FieldSpec, publicUrl: string): Record<string, JsonValue> {
  const def: Record<string, JsonValue> = {
    title: field.title,
    description: field.description,
    type: fieldType(field),
    factory: field.factory,
  };
  if (field.default !== undefined && field.default !== null) def.default = field.default;
  if (field.factory === 'Text') def.widget = 'textarea';
  if (field.factory === 'Email') def.widget = 'email';
  if (field.factory === 'Text line (String)' || field.factory === 'Text' || field.factory === 'Email') {
    if (field.minLength) def.minLength = field.minLength;
    if (field.maxLength) def.maxLength = field.maxLength;
  }
  if (field.factory === 'Integer') {
    if (field.min !== undefined) def.minimum = field.min;
    if (field.max !== undefined) def.maximum = field.max;
  }
  if (isChoice(field)) {
    if ('vocabulary' in field) {
      def.vocabulary = { '@id': vocabularyUrl(publicUrl, field.vocabulary) };
    } else {
      def.enum = field.terms.map(([token]) => token);
      def.enumNames = field.terms.map(([, title]) => title);
      def.choices = field.terms.map(([token, title]) => [token, title]);
    }
  }
  if (isCollection(field)) {
    def.additionalItems = true;
    if (field.minItems) def.minItems = field.minItems;
    if (field.maxItems) def.maxItems = field.maxItems;
    def.items = fieldDefinition(field.items, publicUrl);
    def.uniqueItems = uniqueItems(field);
  }
  return Object.fromEntries(Object.entries(def).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// ---------------------------------------------------------------------------
// Field definition → zod schema of its value

function oneOf(tokens: readonly string[]) {
  const allowed = new Set(tokens);
  // A long vocabulary (languages, time zones) is named, not listed, in the message.
  const message =
    tokens.length > 12
      ? 'Must be a term of the field’s vocabulary'
      : `Must be one of: ${tokens.map((t) => JSON.stringify(t)).join(', ')}`;
  return z.string().refine((value) => allowed.has(value), { message });
}

/** A token of a vocabulary known elsewhere: one non-empty line. */
const OPEN_TOKEN = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => !/[\r\n]/.test(value), { message: 'Must be a single line (no line breaks)' });

function withLength<S extends z.ZodString>(schema: S, field: TextFieldSpec): z.ZodString {
  let result: z.ZodString = schema;
  if (field.minLength) result = result.min(field.minLength);
  if (field.maxLength) result = result.max(field.maxLength);
  return result;
}

function baseSchema(field: FieldSpec): z.ZodType<JsonValue> {
  switch (field.factory) {
    case 'Yes/No':
      return z.boolean();
    case 'Integer': {
      let schema = z.number().int();
      if (field.min !== undefined) schema = schema.min(field.min);
      if (field.max !== undefined) schema = schema.max(field.max);
      return schema;
    }
    case 'Text line (String)':
      return withLength(z.string(), field).refine((value) => !/[\r\n]/.test(value), {
        message: 'Must be a single line (no line breaks)',
      });
    case 'Text':
      return withLength(z.string(), field);
    case 'Email':
      return withLength(z.string().email(), field);
    case 'Choice':
      if (!('vocabulary' in field)) return oneOf(field.terms.map(([token]) => token));
      return field.tokens ? oneOf(field.tokens) : OPEN_TOKEN;
    case 'List':
    case 'Tuple':
    case 'Multiple Choice': {
      let schema = z.array(valueSchema(field.items));
      if (field.minItems) schema = schema.min(field.minItems);
      if (field.maxItems) schema = schema.max(field.maxItems);
      if (!uniqueItems(field)) return schema;
      return schema.refine((items) => new Set(items.map((item) => JSON.stringify(item))).size === items.length, {
        message: 'Items must be unique',
      });
    }
  }
}

/** The schema a value of this field must match; null is accepted only when the field is not required. */
export function valueSchema(field: FieldSpec): z.ZodType<JsonValue> {
  const schema = baseSchema(field);
  return field.required === false ? schema.nullable() : schema;
}

function record(name: string, field: FieldSpec, initial: JsonValue = field.default ?? null): RecordDefinition {
  return { name, field, initial, schema: valueSchema(field) };
}

// ---------------------------------------------------------------------------
// The records

const yesNo = (title: string, description: string, defaultValue?: boolean): BoolFieldSpec => ({
  factory: 'Yes/No',
  title,
  description,
  ...(defaultValue === undefined ? {} : { default: defaultValue }),
});

const textLine = (title: string, description: string, extra: Partial<TextFieldSpec> = {}): TextFieldSpec => ({
  factory: 'Text line (String)',
  title,
  description,
  ...extra,
});

/** The element of a list of strings, as recorded: untitled. */
const LINE_ITEM: TextFieldSpec = textLine('', '');

const DISCUSSION = 'cms.app.discussion.interfaces.IDiscussionSettings';
const DATE_FORMAT = 'cms.i18nl10n.override_dateformat';

const DEFINITIONS: RecordDefinition[] = [
  record('cms.alignment_styles', {
    factory: 'List',
    title: 'Alignment styles',
    description: 'Name|format|icon',
    items: LINE_ITEM,
    default: [
      'Left|alignleft|align-left',
      'Center|aligncenter|align-center',
      'Right|alignright|align-right',
      'Justify|alignjustify|align-justify',
    ],
  }),
  record(
    'cms.allow_anon_views_about',
    yesNo(
      "Allow anyone to view 'about' information",
      'If not selected only logged-in users will be able to view information about who created an item and when it was modified.',
      false,
    ),
  ),
  record('cms.allow_external_login_sites', {
    factory: 'Tuple',
    title: 'Allow external login sites',
    description: '',
    items: LINE_ITEM,
    default: [],
  }),
  record('cms.allowed_sizes', {
    factory: 'List',
    title: 'Allowed image sizes',
    description:
      'Specify all allowed maximum image dimensions, one per line. The required format is &lt;name&gt; &lt;width&gt;:&lt;height&gt;.',
    items: LINE_ITEM,
    default: [...DEFAULT_ALLOWED_SIZES],
  }),
  record('cms.allowed_types', {
    factory: 'Tuple',
    title: 'Alternative formats',
    description:
      'Select which formats are available for users as alternative to the default format. Note that if new formats are installed, they will be enabled for text fields by default unless explicitly turned off here or by the relevant installer.',
    items: {
      factory: 'Choice',
      title: '',
      description: '',
      vocabulary: 'cms.app.vocabularies.AllowableContentTypes',
      tokens: TEXT_FORMATS,
    },
    default: ['text/html', 'text/x-web-textile'],
  }),
  record('cms.always_show_selector', yesNo('Always show language selector', '', false)),
  record(
    `${DISCUSSION}.anonymous_comments`,
    yesNo(
      'Enable anonymous comments',
      'If selected, anonymous users are able to post comments without logging in. It is highly recommended to use a captcha solution to prevent spam if this setting is enabled.',
      false,
    ),
  ),
  record(
    `${DISCUSSION}.anonymous_email_enabled`,
    yesNo('Enable anonymous email field', 'If selected, anonymous user will have to give their email.', false),
  ),
  record(`${DISCUSSION}.captcha`, {
    factory: 'Choice',
    title: 'Captcha',
    description:
      'Use this setting to enable or disable Captcha validation for comments. Install cms.formwidget.captcha, cms.formwidget.recaptcha, cms.formwidget.hcaptcha, collective.akismet, or collective.z3cform.norobots if there are no options available.',
    vocabulary: 'cms.app.discussion.vocabularies.CaptchaVocabulary',
    // No captcha solution is installed: the vocabulary offers only this.
    tokens: ['disabled'],
    default: 'disabled',
  }),
  record(
    `${DISCUSSION}.delete_own_comment_enabled`,
    yesNo(
      'Enable deleting own comments',
      'If selected, supports deleting of own comments for users with the "Delete own comments" permission.',
      false,
    ),
  ),
  record(
    `${DISCUSSION}.edit_comment_enabled`,
    yesNo(
      'Enable editing of comments',
      'If selected, supports editing of comments for users with the "Edit comments" permission.',
      false,
    ),
    // A new site lets authors edit their comments (addendum §8).
    true,
  ),
  record(
    `${DISCUSSION}.globally_enabled`,
    yesNo(
      'Globally enable comments',
      'If selected, users are able to post comments on the site. However, you will still need to enable comments for specific content types, folders or content objects before users will be able to post comments.',
      true,
    ),
    // A new site has comments off until this record is set (addendum §3).
    false,
  ),
  record(
    `${DISCUSSION}.moderation_enabled`,
    yesNo(
      'Enable comment moderation',
      'If selected, comments will enter a "Pending" state in which they are invisible to the public. A user with the "Review comments" permission ("Reviewer" or "Manager") can approve comments to make them visible to the public. If you want to enable a custom comment workflow, you have to go to the types control panel.',
      false,
    ),
  ),
  record(
    `${DISCUSSION}.moderator_email`,
    textLine('Moderator Email Address', 'Address to which moderator notifications will be sent.', {
      required: false,
    }),
  ),
  record(
    `${DISCUSSION}.moderator_notification_enabled`,
    yesNo(
      'Enable moderator email notification',
      'If selected, the moderator is notified if a comment needs attention. The moderator email address can be set below.',
      false,
    ),
  ),
  record(
    `${DISCUSSION}.show_commenter_image`,
    yesNo('Show commenter image', 'If selected, an image of the user is shown next to the comment.', true),
  ),
  record(`${DISCUSSION}.text_transform`, {
    factory: 'Choice',
    title: 'Comment text transform',
    description:
      'Use this setting to choose if the comment text should be transformed in any way. You can choose between "Plain text" and "Intelligent text". "Intelligent text" converts plain text into HTML where line breaks and indentation is preserved, and web and email addresses are made into clickable links.',
    vocabulary: 'cms.app.discussion.vocabularies.TextTransformVocabulary',
    tokens: ['text/plain', 'text/x-web-intelligent'],
    default: 'text/plain',
  }),
  // Not a record of the reference platform: the longest comment text the discussion service accepts (issue 14).
  record(`${DISCUSSION}.max_comment_length`, {
    factory: 'Integer',
    title: 'Maximum comment length',
    description: 'The longest comment text, in characters, that users may post.',
    min: 1,
    max: 100000,
    default: 10000,
  }),
  record(
    `${DISCUSSION}.user_notification_enabled`,
    yesNo(
      'Enable user email notification',
      'If selected, users can choose to be notified of new comments by email.',
      false,
    ),
  ),
  record(
    'cms.app.layout.globals.bodyClass.depth',
    {
      factory: 'Integer',
      title: 'Body class path depth',
      description: 'Depth relative the site root that body class are generated for.\n      ',
    },
    4,
  ),
  record(
    'cms.app.portlets.PortletManagerBlacklist',
    {
      factory: 'List',
      title: 'Toolbar Portlet Manager Blacklist',
      description: 'A list of portlet manager names that will not be shown in the toolbar dropdown',
      items: LINE_ITEM,
    },
    ['cms.dashboard1', 'cms.dashboard2', 'cms.dashboard3', 'cms.dashboard4'],
  ),
  record(
    'cms.app.querystring.field.Creator.description',
    { factory: 'Text', title: 'Description', description: '' },
    'The person that created an item',
  ),
  record('cms.app.querystring.field.path.title', textLine('Title', ''), 'Location'),
  record(`${DATE_FORMAT}.Enabled`, yesNo('Enabled', 'Override the translation machinery'), false),
  record(
    `${DATE_FORMAT}.date_format_long`,
    textLine('old ZMI property: localLongTimeFormat', 'Default value: %Y-%m-%d %H:%M (2038-01-19 03:14)'),
    '%Y-%m-%d %H:%M',
  ),
  record(
    `${DATE_FORMAT}.date_format_short`,
    textLine('old ZMI property: localTimeFormat', 'Default value: %Y-%m-%d (2038-01-19)'),
    '%Y-%m-%d',
  ),
  record(
    `${DATE_FORMAT}.time_format`,
    textLine('old ZMI property: localTimeOnlyFormat', 'Default value: %H:%M (03:14)'),
    '%H:%M',
  ),
  record(
    'cms.use_email_as_login',
    yesNo(
      'Use email address as login name',
      'Allows users to log in with their email address instead of a separate login name. Existing users get their email address as login name; the login name is compared without regard to case.',
      false,
    ),
  ),
];

/** Every record, sorted by name; the control panels' records are defined in panel-records.ts. */
export const RECORDS: readonly RecordDefinition[] = [
  ...DEFINITIONS,
  ...PANEL_RECORDS.map(([name, field, initial]) => record(name, field, initial)),
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const BY_NAME = new Map(RECORDS.map((r) => [r.name, r]));
if (BY_NAME.size !== RECORDS.length) throw new Error('registry: a record name is defined twice');

export function findRecord(name: string): RecordDefinition | undefined {
  return BY_NAME.get(name);
}
