import type { FieldError } from '../errors/app-error';
import { BEHAVIORS } from './behaviors';
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

export const SITE_ROOT_TYPE = 'Site Root';

/** The state new content starts in (simple_publication_workflow). */
export const INITIAL_STATE = 'private';

const LISTING_VIEWS = ['listing_view', 'summary_view', 'tabular_view', 'full_view', 'album_view', 'event_listing'];

/** File and Image: named from the uploaded file's name, no rich text, no workflow. */
const FILE_BEHAVIORS = [
  'cms.dublincore',
  'cms.namefromfilename',
  'cms.shortname',
  'cms.excludefromnavigation',
  'cms.allowdiscussion',
  'cms.relateditems',
];
const COMMON = [
  'cms.dublincore',
  'cms.namefromtitle',
  'cms.shortname',
  'cms.excludefromnavigation',
  'cms.allowdiscussion',
];

/** An event cannot end before it starts (unless it is open ended, when `end` is ignored). */
function eventDates(values: Readonly<Record<string, unknown>>): FieldError[] {
  const { start, end, open_end: openEnd } = values;
  if (typeof start !== 'string' || typeof end !== 'string' || openEnd === true) return [];
  return Date.parse(end) < Date.parse(start) ? [{ field: 'end', message: 'the event ends before it starts' }] : [];
}

const definitions: ContentTypeDef[] = [
  {
    name: SITE_ROOT_TYPE,
    title: 'Site Root',
    description: 'The root of the site.',
    folderish: true,
    layout: 'document_view',
    layouts: ['document_view', ...LISTING_VIEWS],
    workflow: false,
    addable: false,
    behaviors: [
      'cms.dublincore',
      'cms.excludefromnavigation',
      'cms.allowdiscussion',
      'cms.relateditems',
      'cms.tableofcontents',
      'cms.locking',
      'cms.richtext',
    ],
    schema: [],
  },
  {
    name: 'Document',
    title: 'Page',
    description: 'A page in the site. Can contain rich text.',
    folderish: false,
    layout: 'document_view',
    layouts: ['document_view'],
    workflow: true,
    addable: true,
    behaviors: [...COMMON, 'cms.relateditems', 'cms.versioning', 'cms.tableofcontents', 'cms.locking', 'cms.richtext'],
    schema: [],
  },
  {
    name: 'News Item',
    title: 'News Item',
    description: 'An announcement that will show up in news listings.',
    folderish: false,
    layout: 'newsitem_view',
    layouts: ['newsitem_view'],
    workflow: true,
    addable: true,
    behaviors: [...COMMON, 'cms.relateditems', 'cms.leadimage', 'cms.versioning', 'cms.locking', 'cms.richtext'],
    schema: [],
  },
  {
    name: 'Event',
    title: 'Event',
    description: 'Information about an upcoming event, which can be displayed in the calendar.',
    folderish: false,
    layout: 'event_view',
    layouts: ['event_view'],
    workflow: true,
    addable: true,
    behaviors: [
      ...COMMON,
      'cms.relateditems',
      'cms.versioning',
      'cms.locking',
      'cms.richtext',
      'cms.eventbasic',
      'cms.eventrecurrence',
      'cms.eventlocation',
      'cms.eventattendees',
      'cms.eventcontact',
    ],
    schema: [],
    invariants: eventDates,
  },
  {
    name: 'Link',
    title: 'Link',
    description: 'A link to another web site or to an item in this site.',
    folderish: false,
    layout: 'link_redirect_view',
    layouts: ['link_redirect_view'],
    workflow: true,
    addable: true,
    behaviors: [...COMMON, 'cms.versioning'],
    schema: [
      {
        // A text line, not a URL: internal links are written `${portal_url}/path`.
        name: 'remoteUrl',
        kind: 'textline',
        title: 'URL',
        description: '',
        required: true,
        default: 'http://',
        maxLength: 2000,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'File',
    title: 'File',
    description: 'Lets you upload a file to the site.',
    folderish: false,
    layout: 'file_view',
    layouts: ['file_view'],
    workflow: false,
    addable: true,
    behaviors: FILE_BEHAVIORS,
    schema: [{ name: 'file', kind: 'file', title: 'File', description: '', required: true, fieldset: 'default' }],
    overrides: { title: { required: false } },
  },
  {
    name: 'Image',
    title: 'Image',
    description: 'Images can be referenced in pages or displayed in an album.',
    folderish: false,
    layout: 'image_view',
    layouts: ['image_view'],
    workflow: false,
    addable: true,
    behaviors: FILE_BEHAVIORS,
    schema: [{ name: 'image', kind: 'image', title: 'Image', description: '', required: true, fieldset: 'default' }],
    overrides: { title: { required: false } },
  },
  {
    name: 'Collection',
    title: 'Collection',
    description: 'Collection',
    folderish: false,
    layout: 'listing_view',
    layouts: LISTING_VIEWS,
    workflow: true,
    addable: true,
    behaviors: [...COMMON, 'cms.relateditems', 'cms.locking', 'cms.richtext', 'cms.collection'],
    schema: [],
  },
  {
    name: 'Folder',
    title: 'Folder',
    description: 'A folder which can contain other items.',
    folderish: true,
    layout: 'listing_view',
    layouts: LISTING_VIEWS,
    workflow: true,
    addable: true,
    behaviors: [...COMMON, 'cms.relateditems', 'cms.nextpreviousenabled'],
    schema: [],
  },
];

function build(def: ContentTypeDef): ContentType {
  const fields: TypeField[] = [
    ...def.schema.map((f) => ({ ...f, behavior: 'cms' })),
    ...def.behaviors.flatMap((name) => {
      const behavior = BEHAVIORS[name];
      if (!behavior) throw new Error(`type ${def.name}: unknown behavior ${name}`);
      return behavior.fields.map((f) => ({ ...f, ...def.overrides?.[f.name], behavior: name }));
    }),
  ];
  const byName = new Map(fields.map((f) => [f.name, f]));
  if (byName.size !== fields.length) throw new Error(`type ${def.name}: a field is defined twice`);
  return { ...def, fields, field: (name) => byName.get(name) };
}

/** Every content type of the site, by name. */
export const CONTENT_TYPES: Readonly<Record<string, ContentType>> = Object.fromEntries(
  definitions.map((d) => [d.name, build(d)]),
);

/** Names of the types users may add. */
export const ADDABLE_TYPES = Object.values(CONTENT_TYPES)
  .filter((t) => t.addable)
  .map((t) => t.name) as [string, ...string[]];

/** The type of that name; throws for a name that is not one (stored objects always have a known type). */
export function contentType(name: string): ContentType {
  const type = Object.prototype.hasOwnProperty.call(CONTENT_TYPES, name) ? CONTENT_TYPES[name] : undefined;
  if (!type) throw new Error(`unknown content type ${name}`);
  return type;
}

/** The type of that name, or undefined. */
export function findContentType(name: string): ContentType | undefined {
  return Object.prototype.hasOwnProperty.call(CONTENT_TYPES, name) ? CONTENT_TYPES[name] : undefined;
}

/** The types that may be added inside an object of `container` type: every addable type in a folderish one. */
export function allowedTypesIn(container: ContentType): ContentType[] {
  return container.folderish ? Object.values(CONTENT_TYPES).filter((t) => t.addable) : [];
}

/** Whether the type has the behavior switched on. */
export function hasBehavior(type: ContentTypeDef, behavior: string): boolean {
  return type.behaviors.includes(behavior);
}
