import type { FieldError } from '../errors/app-error';
import { BLOCKS_FIELDS, blocksInvariants } from './blocks';
import type { FieldDef } from './fields';
import { LANGUAGES } from './languages';

/** A reusable set of fields (and the feature they stand for) that types switch on by name. */
export interface BehaviorDef {
  name: string;
  title: string;
  description: string;
  fields: readonly FieldDef[];
  /** Rules across its fields, checked on the values an object would have after a write. */
  invariants?: (values: Readonly<Record<string, unknown>>) => FieldError[];
}

const USERS = 'cms.app.vocabularies.Users';

/** An event cannot end before it starts (unless it is open ended, when `end` is ignored). */
function eventDates(values: Readonly<Record<string, unknown>>): FieldError[] {
  const { start, end, open_end: openEnd } = values;
  if (typeof start !== 'string' || typeof end !== 'string' || openEnd === true) return [];
  return Date.parse(end) < Date.parse(start) ? [{ field: 'end', message: 'the event ends before it starts' }] : [];
}

/** Terms of the metadata columns a Collection can show (`customViewFields`). */
export const METADATA_FIELDS = [
  ['Title', 'Title'],
  ['Creator', 'Creator'],
  ['Type', 'Type'],
  ['ModificationDate', 'Last modified'],
  ['CreationDate', 'Created'],
  ['EffectiveDate', 'Effective'],
  ['ExpirationDate', 'Expiration date'],
  ['Description', 'Description'],
  ['Subject', 'Tags'],
  ['review_state', 'Review state'],
  ['getId', 'Short name'],
  ['location', 'Location'],
  ['start', 'Start date'],
  ['end', 'End date'],
  ['getObjSize', 'Size'],
] as const;

const behaviorList: BehaviorDef[] = [
  {
    name: 'cms.dublincore',
    title: 'Dublin Core metadata',
    description: 'Adds standard metadata fields (equals Basic metadata + Categorization + Effective range + Ownership)',
    fields: [
      {
        name: 'title',
        kind: 'textline',
        title: 'Title',
        description: '',
        required: true,
        default: '',
        maxLength: 1000,
        fieldset: 'default',
      },
      {
        name: 'description',
        kind: 'text',
        title: 'Summary',
        description: 'Used in item listings and search results.',
        default: '',
        maxLength: 10_000,
        fieldset: 'default',
      },
      {
        name: 'subjects',
        kind: 'list',
        title: 'Tags',
        description: 'Tags are commonly used for ad-hoc organization of content.',
        default: [],
        vocabulary: 'cms.app.vocabularies.Keywords',
        maxLength: 200,
        searchable: true,
        fieldset: 'categorization',
      },
      {
        name: 'language',
        kind: 'choice',
        title: 'Language',
        description: '',
        default: '',
        choices: LANGUAGES,
        vocabulary: 'cms.app.vocabularies.SupportedContentLanguages',
        fieldset: 'categorization',
      },
      {
        name: 'effective',
        kind: 'datetime',
        title: 'Publishing Date',
        description:
          'If this date is in the future, the content will not show up in listings and searches until this date.',
        default: null,
        fieldset: 'dates',
      },
      {
        name: 'expires',
        kind: 'datetime',
        title: 'Expiration Date',
        description: 'When this date is reached, the content will no longer be visible in listings and searches.',
        default: null,
        fieldset: 'dates',
      },
      {
        name: 'creators',
        kind: 'list',
        title: 'Creators',
        description:
          'Persons responsible for creating the content of this item. Please enter a list of user names, one per line. The principal creator should come first.',
        default: [],
        vocabulary: USERS,
        maxLength: 200,
        fieldset: 'ownership',
      },
      {
        name: 'contributors',
        kind: 'list',
        title: 'Contributors',
        description:
          'The names of people that have contributed to this item. Each contributor should be on a separate line.',
        default: [],
        vocabulary: USERS,
        maxLength: 200,
        fieldset: 'ownership',
      },
      {
        name: 'rights',
        kind: 'text',
        title: 'Rights',
        description: 'Copyright statement or other rights information on this item.',
        default: '',
        maxLength: 10_000,
        fieldset: 'ownership',
      },
    ],
  },
  {
    name: 'cms.namefromtitle',
    title: 'Name from title',
    description: 'Automatically generate short URL name for content based on its initial title',
    fields: [],
  },
  {
    name: 'cms.namefromfilename',
    title: 'Name from file name',
    description: 'Automatically generate short URL name for content based on its primary field file name',
    fields: [],
  },
  {
    name: 'cms.shortname',
    title: 'Short name',
    description: 'Gives the ability to rename an item from its edit form.',
    fields: [
      {
        name: 'id',
        kind: 'textline',
        title: 'Short name',
        description: 'This name will be displayed in the URL.',
        maxLength: 100,
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.excludefromnavigation',
    title: 'Exclude From navigation',
    description: 'Allow items to be excluded from navigation',
    fields: [
      {
        name: 'exclude_from_nav',
        kind: 'boolean',
        title: 'Exclude from navigation',
        description: 'If selected, this item will not appear in the navigation tree',
        default: false,
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.allowdiscussion',
    title: 'Allow discussion',
    description: 'Allow discussion on this item',
    fields: [
      {
        name: 'allow_discussion',
        kind: 'tristate',
        title: 'Allow discussion',
        description: 'Allow discussion for this content object.',
        default: false,
        choices: [
          ['True', 'Yes'],
          ['False', 'No'],
        ],
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.relateditems',
    title: 'Related items',
    description: 'Adds the ability to assign related items',
    fields: [
      {
        name: 'relatedItems',
        kind: 'relationlist',
        title: 'Related Items',
        description: '',
        default: [],
        vocabulary: 'cms.app.vocabularies.Catalog',
        fieldset: 'categorization',
      },
    ],
  },
  {
    name: 'cms.versioning',
    title: 'Versioning',
    description: 'Versioning support with CMFEditions',
    fields: [
      {
        name: 'changeNote',
        kind: 'textline',
        title: 'Change Note',
        description: 'Enter a comment that describes the changes you made.',
        default: '',
        maxLength: 1000,
        transient: true,
        fieldset: 'default',
      },
      {
        name: 'versioning_enabled',
        kind: 'boolean',
        title: 'Versioning enabled',
        description: 'Enable/disable versioning for this document.',
        default: true,
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.tableofcontents',
    title: 'Table of contents',
    description: 'Adds a table of contents',
    fields: [
      {
        name: 'table_of_contents',
        kind: 'boolean',
        title: 'Table of contents',
        description: 'If selected, this will show a table of contents at the top of the page.',
        default: null,
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.leadimage',
    title: 'Lead Image',
    description: 'Adds image and image caption fields',
    fields: [
      { name: 'image', kind: 'image', title: 'Lead Image', description: '', default: null, fieldset: 'default' },
      {
        name: 'image_caption',
        kind: 'textline',
        title: 'Lead Image Caption',
        description: '',
        default: null,
        maxLength: 1000,
        searchable: true,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'cms.nextpreviousenabled',
    title: 'Next previous navigation',
    description: 'Enable next previous navigation for all items of this type',
    fields: [
      {
        name: 'nextPreviousEnabled',
        kind: 'boolean',
        title: 'Enable next previous navigation',
        description: 'This enables next/previous widget on content items contained in this folder.',
        default: false,
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.locking',
    title: 'Locking',
    description: 'Locking support for dexterity',
    fields: [],
  },
  {
    name: 'cms.richtext',
    title: 'RichText',
    description: 'Adds richtext behavior',
    fields: [
      {
        name: 'text',
        kind: 'richtext',
        title: 'Text',
        description: '',
        default: null,
        searchable: true,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'cms.eventbasic',
    title: 'Event Basic',
    description: 'Basic Event schema.',
    invariants: eventDates,
    fields: [
      {
        name: 'start',
        kind: 'datetime',
        title: 'Event Starts',
        description: 'Date and Time, when the event begins.',
        required: true,
        default: null,
        fieldset: 'default',
      },
      {
        name: 'end',
        kind: 'datetime',
        title: 'Event Ends',
        description: 'Date and Time, when the event ends.',
        required: true,
        default: null,
        fieldset: 'default',
      },
      {
        name: 'whole_day',
        kind: 'boolean',
        title: 'Whole Day',
        description: 'Event lasts whole day.',
        default: false,
        fieldset: 'default',
      },
      {
        name: 'open_end',
        kind: 'boolean',
        title: 'Open End',
        description: 'This event is open ended.',
        default: false,
        fieldset: 'default',
      },
      {
        name: 'sync_uid',
        kind: 'textline',
        title: 'Sync UID',
        description: 'Unique identifier of the event, for calendar synchronisation.',
        default: null,
        maxLength: 1000,
        fieldset: 'settings',
      },
    ],
  },
  {
    name: 'cms.eventrecurrence',
    title: 'Event Recurrence',
    description: 'Recurrence extension for Events.',
    fields: [
      {
        name: 'recurrence',
        kind: 'text',
        title: 'Recurrence',
        description: 'Define the event recurrence rule (RFC 5545 RRULE).',
        default: null,
        maxLength: 10_000,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'cms.eventlocation',
    title: 'Event Location',
    description: 'Location extension for Events.',
    fields: [
      {
        name: 'location',
        kind: 'textline',
        title: 'Location',
        description: 'Location of the event.',
        default: null,
        maxLength: 1000,
        searchable: true,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'cms.eventattendees',
    title: 'Event Attendees',
    description: 'Attendees extension for Events.',
    fields: [
      {
        name: 'attendees',
        kind: 'list',
        title: 'Attendees',
        description: 'List of attendees.',
        default: [],
        maxLength: 1000,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'cms.eventcontact',
    title: 'Event Contact',
    description: 'Contact extension for Events.',
    fields: [
      {
        name: 'contact_name',
        kind: 'textline',
        title: 'Contact Name',
        description: 'Name of a person to contact about this event.',
        default: null,
        maxLength: 1000,
        fieldset: 'default',
      },
      {
        name: 'contact_email',
        kind: 'email',
        title: 'Contact E-mail',
        description: 'Email address to contact about this event.',
        default: null,
        fieldset: 'default',
      },
      {
        name: 'contact_phone',
        kind: 'textline',
        title: 'Contact Phone',
        description: 'Phone number to contact about this event.',
        default: null,
        maxLength: 100,
        fieldset: 'default',
      },
      {
        name: 'event_url',
        kind: 'url',
        title: 'Event URL',
        description: 'Web address with more info about the event. Add http:// for external URLs.',
        default: null,
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'cms.collection',
    title: 'Collection',
    description: 'Adds collection behavior',
    fields: [
      {
        name: 'query',
        kind: 'querystring',
        title: 'Search terms',
        description:
          'Define the search terms for the items you want to list by choosing what to match on. The list of results will be dynamically updated.',
        default: null,
        fieldset: 'default',
      },
      {
        name: 'sort_on',
        kind: 'textline',
        title: 'Sort on',
        description: 'Sort the collection on this index',
        default: null,
        maxLength: 100,
        fieldset: 'default',
      },
      {
        name: 'sort_reversed',
        kind: 'boolean',
        title: 'Reversed order',
        description: 'Sort the results in reversed order',
        default: null,
        fieldset: 'default',
      },
      {
        name: 'limit',
        kind: 'int',
        title: 'Limit',
        description: 'Limit Search Results',
        default: 1000,
        min: 1,
        max: 10_000,
        fieldset: 'default',
      },
      {
        name: 'item_count',
        kind: 'int',
        title: 'Item count',
        description: 'Number of items that will show up in one batch.',
        default: 30,
        min: 1,
        max: 1000,
        fieldset: 'default',
      },
      {
        name: 'customViewFields',
        kind: 'multichoice',
        title: 'Table Columns',
        description: 'Select which fields to display when "Tabular view" is selected in the display menu.',
        default: ['Title', 'Creator', 'Type', 'ModificationDate'],
        choices: METADATA_FIELDS,
        vocabulary: 'cms.app.vocabularies.MetadataFields',
        fieldset: 'default',
      },
    ],
  },
  {
    name: 'blocks',
    title: 'Blocks',
    description: 'Enables Blocks support',
    fields: BLOCKS_FIELDS,
    invariants: blocksInvariants,
  },
  {
    name: 'blocks.editable.layout',
    title: 'Blocks (Editable Layout)',
    description: 'Enables Blocks (editable layout) support',
    fields: BLOCKS_FIELDS,
    invariants: blocksInvariants,
  },
];

/**
 * Behaviors the `cms-types` panel switches on and off that add no fields here: what they stand for is served
 * elsewhere (navigation roots, thumbnails) or by the fields of another behavior (`cms.basic` ⊂ Dublin Core).
 */
const MARKER_BEHAVIORS: readonly BehaviorDef[] = [
  ['cms.basic', 'Basic metadata', 'Adds title and description fields.'],
  ['cms.categorization', 'Categorization', 'Adds keywords and language fields.'],
  ['cms.publication', 'Date range', 'Adds effective date and expiration date fields.'],
  ['cms.ownership', 'Ownership', 'Adds creator, contributor, and rights fields.'],
  [
    'cms.constraintypes',
    'Folder Addable Constrains',
    'Restrict the content types that can be added to folderish content',
  ],
  ['cms.navigationroot', 'Navigation root', 'Make all items of this type a navigation root'],
  ['cms.nextprevioustoggle', 'Next previous navigation toggle', 'Allow items to have next previous navigation enabled'],
  [
    'cms.textindexer',
    'Full-Text Indexing',
    "Enables the enhanced full-text indexing for a content type ('cms.textindexer'). If a field is marked 'searchable', its content gets added to the 'SearchableText' index in the catalog.",
  ],
  [
    'cms.thumb_icon',
    'Thumbs and icon handling',
    'Options to suppress thumbs and/or icons and to override thumb size in listings, tables etc.',
  ],
  ['cms.translatable', 'Multilingual Support', 'Make this content type multilingual aware'],
].map(([name, title, description]) => ({ name, title, description, fields: [] }));

export const BEHAVIORS: Readonly<Record<string, BehaviorDef>> = Object.fromEntries(
  [...behaviorList, ...MARKER_BEHAVIORS].map((b) => [b.name, b]),
);
