/** Vocabularies whose terms are fixed: what the site offers regardless of its content and users. */
import type { Term } from './terms';
import { RULE_EVENTS } from '@cms/shared';
import { pairs } from './terms';

/** The 20 field kinds a type's schema can add (`factory` tokens), as the specification lists them. */
export const FIELD_KINDS: Term[] = pairs([
  ['label_choice_field', 'Choice'],
  ['label_date_field', 'Date'],
  ['label_datetime_field', 'Date/Time'],
  ['Email', 'Email'],
  ['label_email', 'Email'],
  ['File Upload', 'File Upload'],
  ['label_float_field', 'Floating-point number'],
  ['label_full_name', 'Full Name'],
  ['Image', 'Image'],
  ['label_integer_field', 'Integer'],
  ['JSONField', 'JSONField'],
  ['label_multi_choice_field', 'Multiple Choice'],
  ['label_password_field', 'Password'],
  ['Relation Choice', 'Relation Choice'],
  ['Relation List', 'Relation List'],
  ['Rich Text', 'Rich Text'],
  ['label_text_field', 'Text'],
  ['label_textline_field', 'Text line (String)'],
  ['URL', 'URL'],
  ['label_boolean_field', 'Yes/No'],
]);

/** Events content rules can be triggered by (tokens are the event interfaces' names). */
export const CONTENT_RULE_EVENTS: Term[] = pairs(RULE_EVENTS);

export const SKINS: Term[] = pairs([['Default', 'Default']]);

export const AVAILABLE_EDITORS: Term[] = pairs([
  ['TinyMCE', 'TinyMCE'],
  ['None', 'None'],
]);

export const SYNDICATION_FEED_TYPES: Term[] = pairs([
  ['RSS', 'RSS 1.0'],
  ['rss.xml', 'RSS 2.0'],
  ['atom.xml', 'Atom'],
  ['itunes.xml', 'iTunes'],
]);

/** Actions of the site's action categories (`<category>/<id>` is how the reference's menus name them). */
export const ACTIONS: Term[] = pairs([
  ['object_buttons/copy', 'Copy'],
  ['object_buttons/cut', 'Cut'],
  ['object_buttons/delete', 'Delete'],
  ['object_buttons/paste', 'Paste'],
  ['object_buttons/rename', 'Rename'],
  ['object/view', 'View'],
  ['object/edit', 'Edit'],
  ['object/folderContents', 'Contents'],
  ['object/history', 'History'],
  ['object/local_roles', 'Sharing'],
  ['portal_tabs/index_html', 'Home'],
  ['site_actions/sitemap', 'Site Map'],
  ['site_actions/accessibility', 'Accessibility'],
  ['site_actions/contact', 'Contact'],
  ['user/preferences', 'Preferences'],
  ['user/dashboard', 'Dashboard'],
  ['user/plone_setup', 'Site Setup'],
  ['user/login', 'Log in'],
  ['user/logout', 'Log out'],
  ['user/join', 'Register'],
  ['document_actions/print', 'Print this'],
]);

export const ACTION_CATEGORIES: Term[] = pairs([
  ['document_actions', 'document_actions'],
  ['object', 'object'],
  ['object_buttons', 'object_buttons'],
  ['portal_tabs', 'portal_tabs'],
  ['site_actions', 'site_actions'],
  ['user', 'user'],
]);

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Tokens are the positions (Monday `0`, January `0`), as the reference's calendars number them. */
export const WEEKDAYS: Term[] = WEEKDAY_NAMES.map((title, i) => ({ token: String(i), title }));
export const WEEKDAYS_ABBR: Term[] = WEEKDAY_NAMES.map((title, i) => ({ token: String(i), title: title.slice(0, 3) }));
export const WEEKDAYS_SHORT: Term[] = WEEKDAY_NAMES.map((title, i) => ({ token: String(i), title: title.slice(0, 2) }));
export const MONTHS: Term[] = MONTH_NAMES.map((title, i) => ({ token: String(i), title }));
export const MONTHS_ABBR: Term[] = MONTH_NAMES.map((title, i) => ({ token: String(i), title: title.slice(0, 3) }));

/** The image scales of a new site, `name (width x height)`. */
export const IMAGE_SCALES: Term[] = (
  [
    ['huge', 1600],
    ['great', 1200],
    ['larger', 1000],
    ['large', 800],
    ['teaser', 600],
    ['preview', 400],
    ['mini', 200],
    ['thumb', 128],
    ['tile', 64],
    ['icon', 32],
    ['listing', 16],
  ] as const
).map(([token, width]) => ({ token, title: `${token} ${width}:65536` }));

/** Every IANA time zone the runtime knows, with `UTC`. */
export const TIMEZONES: Term[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])]
  .sort()
  .map((token) => ({ token, title: token }));

export const SYNCHRONIZATION_STRATEGIES: Term[] = pairs([
  ['sync_keep_newer', 'Keep newer'],
  ['sync_keep_mine', 'Keep mine'],
  ['sync_keep_theirs', 'Keep theirs'],
  ['sync_none', 'No syncing'],
]);

export const CAPTCHAS: Term[] = pairs([['disabled', 'Disabled']]);

export const TEXT_TRANSFORMS: Term[] = pairs([
  ['text/plain', 'Plain text'],
  ['text/x-web-intelligent', 'Intelligent text'],
  ['text/x-web-markdown', 'Markdown'],
]);

/** Fields a registration form may ask for. */
export const USER_REGISTRATION_FIELDS: Term[] = pairs([
  ['fullname', 'Full Name'],
  ['email', 'Email'],
  ['username', 'User Name'],
  ['password', 'Password'],
  ['description', 'Biography'],
  ['home_page', 'Home page'],
  ['location', 'Location'],
  ['portrait', 'Portrait'],
]);

/** Interfaces content can provide, for the schema editor. */
export const INTERFACES: Term[] = pairs([
  ['cms.dexterity.interfaces.IDexterityContent', 'IDexterityContent'],
  ['cms.dexterity.interfaces.IDexterityContainer', 'IDexterityContainer'],
  ['cms.dexterity.interfaces.IDexterityItem', 'IDexterityItem'],
]);
