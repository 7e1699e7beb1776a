/** The content types every site has, as definitions (the registry builds the types from them). */
import type { FieldError } from '@cms/shared';
import type { ContentTypeDef } from './content-type';

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

/** The nine built-in types (addendum §2), in the order they are listed. */
export const BUILTIN_TYPES: readonly ContentTypeDef[] = [
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
      'blocks',
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
    behaviors: [
      ...COMMON,
      'cms.relateditems',
      'cms.versioning',
      'cms.tableofcontents',
      'cms.locking',
      'cms.richtext',
      'blocks',
    ],
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
    behaviors: [
      ...COMMON,
      'cms.relateditems',
      'cms.leadimage',
      'cms.versioning',
      'cms.locking',
      'cms.richtext',
      'blocks',
    ],
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
      'blocks',
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
