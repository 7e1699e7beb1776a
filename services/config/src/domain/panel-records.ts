/**
 * The records behind the control panels (date and time, language, mail, navigation, search, site, social
 * media, editing, imaging, markup, users and groups, security), with the reference platform's titles,
 * descriptions and defaults. Records that other features defined first (discussion, `allowed_sizes`,
 * `allowed_types`, `use_email_as_login`, ...) stay in records.ts; panels.ts says which panel shows which.
 */
import { TEXT_FORMATS } from '@cms/shared';
import type { BoolFieldSpec, FieldSpec, IntegerFieldSpec, JsonValue, TextFieldSpec } from './field-specs';
import {
  COMMON_TIMEZONES_VOCABULARY,
  EDITORS_VOCABULARY,
  LANGUAGE_CODES,
  LANGUAGES_VOCABULARY,
  TIMEZONES,
  TIMEZONES_VOCABULARY,
} from './vocabularies';

/** `[name, field, initial value (the field's default when left out)]`. */
export type PanelRecord = readonly [string, FieldSpec, JsonValue?];

const bool = (title: string, description: string, value: boolean): BoolFieldSpec => ({
  factory: 'Yes/No',
  title,
  description,
  default: value,
});

const line = (title: string, description: string, extra: Partial<TextFieldSpec> = {}): TextFieldSpec => ({
  factory: 'Text line (String)',
  title,
  description,
  ...extra,
});

const text = (title: string, description: string, extra: Partial<TextFieldSpec> = {}): TextFieldSpec => ({
  factory: 'Text',
  title,
  description,
  ...extra,
});

const integer = (title: string, description: string, extra: Partial<IntegerFieldSpec> = {}): IntegerFieldSpec => ({
  factory: 'Integer',
  title,
  description,
  ...extra,
});

/** A choice from a vocabulary served elsewhere (types, states, scales): any single line is accepted. */
const openChoice = (vocabulary: string, title = '', description = '', value?: string): FieldSpec => ({
  factory: 'Choice',
  title,
  description,
  vocabulary,
  ...(value === undefined ? {} : { default: value }),
});

const LINE: TextFieldSpec = line('', '');
const lines = (title: string, description: string, value: string[], factory: 'List' | 'Tuple' = 'List'): FieldSpec => ({
  factory,
  title,
  description,
  items: LINE,
  default: value,
  required: false,
});

const V = 'cms.app.vocabularies.';

const ROBOTS_TXT = `Sitemap: {portal_url}/sitemap.xml.gz

# Define access-restrictions for robots/spiders
# http://www.robotstxt.org/wc/norobots.html



# By default we allow robots to access all areas of our site
# already accessible to anonymous users

User-agent: *
Disallow:



# Add Googlebot-specific syntax extension to exclude forms
# that are repeated for each piece of content in the site
# the wildcard is only supported by Googlebot
# http://www.google.com/support/webmasters/bin/answer.py?answer=40367&ctx=sibling

User-Agent: Googlebot
Disallow: /*?
Disallow: /*atct_album_view$
Disallow: /*folder_factories$
Disallow: /*folder_summary_view$
Disallow: /*login_form$
Disallow: /*mail_password_form$
Disallow: /@@search
Disallow: /*search_rss$
Disallow: /*sendto_form$
Disallow: /*summary_view$
Disallow: /*thumbnail_view$
Disallow: /*view$
`;

const DATE_AND_TIME: PanelRecord[] = [
  [
    'cms.portal_timezone',
    {
      factory: 'Choice',
      title: 'Portal default timezone',
      description:
        'The timezone setting of the portal. Users can set their own timezone, if available timezones are defined.',
      vocabulary: COMMON_TIMEZONES_VOCABULARY,
      tokens: TIMEZONES,
      default: 'UTC',
    },
  ],
  [
    'cms.available_timezones',
    {
      factory: 'List',
      title: 'Available timezones',
      description: 'The timezones, which should be available for the portal. Can be set for users and events',
      items: { factory: 'Choice', title: '', description: '', vocabulary: TIMEZONES_VOCABULARY, tokens: TIMEZONES },
      default: [],
      required: false,
    },
  ],
  [
    'cms.first_weekday',
    integer('First weekday', 'First day in the week (0: Monday ... 6: Sunday).', { min: 0, max: 6, default: 0 }),
  ],
];

const LANGUAGE: PanelRecord[] = [
  [
    'cms.default_language',
    {
      factory: 'Choice',
      title: 'Site language',
      description: 'The language used for the content and the UI of this site.',
      vocabulary: LANGUAGES_VOCABULARY,
      tokens: LANGUAGE_CODES,
      default: 'en',
    },
  ],
  [
    'cms.available_languages',
    {
      factory: 'List',
      title: 'Available languages',
      description: 'The languages in which the site should be translatable.',
      items: {
        factory: 'Choice',
        title: '',
        description: '',
        vocabulary: LANGUAGES_VOCABULARY,
        tokens: LANGUAGE_CODES,
      },
      default: ['en'],
      minItems: 1,
    },
  ],
  [
    'cms.use_combined_language_codes',
    bool(
      'Show country-specific language variants',
      'Languages indicating countries (e.g. pt-br) will be shown in the available languages list.',
      true,
    ),
  ],
  ['cms.display_flags', bool('Show language flags', '', false)],
  [
    'cms.use_content_negotiation',
    bool(
      'Use the language of the content item',
      'Use the language of the content item, if it is set, to set the language of the UI.',
      false,
    ),
  ],
  [
    'cms.use_path_negotiation',
    bool(
      'Use language codes in URL path for manual override',
      'Use language codes in the URL path to switch to a language, e.g. /en/ or /de/.',
      false,
    ),
  ],
  [
    'cms.use_cookie_negotiation',
    bool('Use cookie for manual override', 'Required for the language selector viewlet to be rendered.', false),
  ],
  [
    'cms.authenticated_users_only',
    bool('Authenticated users only', 'Related to Use cookie for manual override', false),
  ],
  [
    'cms.set_cookie_always',
    bool('Set the language cookie always', 'i.e. also when the ‘set_language’ request parameter is absent', false),
  ],
  ['cms.use_subdomain', bool('Use subdomain', 'e.g.: de.cms.org', false)],
  ['cms.use_cctld_negotiation', bool('Use top-level domain', 'e.g.: www.cms.de', false)],
  [
    'cms.use_request_negotiation',
    bool('Use browser language request negotiation', 'Use the language the browser is set to prefer.', false),
  ],
];

const MAIL: PanelRecord[] = [
  [
    'cms.smtp_host',
    line(
      'SMTP server',
      'The address of your local SMTP (outgoing e-mail) server. Usually ‘localhost’, unless you use an external server to send e-mail.',
      { default: 'localhost' },
    ),
  ],
  [
    'cms.smtp_port',
    integer('SMTP port', 'The port of your local SMTP (outgoing e-mail) server. Usually ‘25’.', {
      min: 1,
      max: 65535,
      default: 25,
    }),
  ],
  [
    'cms.smtp_userid',
    line(
      'ESMTP username',
      'Username for authentication to your e-mail server. Not required unless you are using ESMTP.',
      { required: false },
    ),
  ],
  ['cms.smtp_pass', line('ESMTP password', 'The password for the ESMTP user account.', { required: false })],
  [
    'cms.email_from_name',
    line("Site 'From' name", 'CMS generates e-mail using this name as the e-mail sender.', { required: false }),
  ],
  [
    'cms.email_from_address',
    line(
      "Site 'From' address",
      'CMS generates e-mail using this address as the e-mail return address. It is also used as the destination address for the site-wide contact form and the ‘Send test e-mail’ feature.',
      { required: false },
    ),
  ],
  ['cms.email_charset', line('E-mail characterset', 'Characterset to use when sending e-mails.', { default: 'utf-8' })],
];

const NAVIGATION: PanelRecord[] = [
  [
    'cms.navigation_depth',
    integer('Navigation depth', 'Number of folder levels to show in the navigation.', { min: 1, default: 3 }),
  ],
  [
    'cms.generate_tabs',
    bool(
      'Automatically generate tabs',
      'By default, all items created at the root level will appear as tabs. You can turn this off if you prefer manually constructing this part of the navigation.',
      true,
    ),
  ],
  [
    'cms.nonfolderish_tabs',
    bool(
      'Generate tabs for items other than folders.',
      'By default, any content item in the root of the portal will appear as a tab. If you turn this option off, only folders will be shown. This only has an effect if ‘Automatically generate tabs’ is enabled.',
      true,
    ),
  ],
  [
    'cms.sort_tabs_on',
    {
      factory: 'Choice',
      title: 'Sort tabs on',
      description: 'Index used to sort the tabs',
      terms: [
        ['getObjPositionInParent', 'Position in Parent'],
        ['sortable_title', 'Title'],
        ['getId', 'Short Name (ID)'],
      ],
      default: 'getObjPositionInParent',
    },
  ],
  ['cms.sort_tabs_reversed', bool('Reversed sort order for tabs.', 'Sort tabs in descending order', false)],
  [
    'cms.displayed_types',
    {
      factory: 'Tuple',
      title: 'Displayed content types',
      description: 'The content types that should be shown in the navigation and site map.',
      items: openChoice(`${V}ReallyUserFriendlyTypes`),
      default: ['Image', 'File', 'Link', 'News Item', 'Folder', 'Document', 'Event'],
      required: false,
    },
  ],
  [
    'cms.filter_on_workflow',
    bool(
      'Filter on workflow state',
      'The workflow states that should be shown in the navigation and the site map.',
      false,
    ),
  ],
  [
    'cms.workflow_states_to_show',
    {
      factory: 'Tuple',
      title: '',
      description: '',
      items: openChoice(`${V}WorkflowStates`),
      default: [],
      required: false,
    },
  ],
  [
    'cms.show_excluded_items',
    bool(
      'Show items normally excluded from navigation if viewing their children.',
      'If an item has been excluded from navigation should we show it in navigation when viewing content contained within it or within a subfolder.',
      true,
    ),
  ],
  [
    'cms.root',
    line('Root', 'Path to be used as navigation root, relative to the site root. Starts with ‘/’', { default: '/' }),
  ],
  [
    'cms.sitemap_depth',
    integer('Sitemap depth', 'Number of folder levels to show in the site map.', { min: 1, default: 3 }),
  ],
  [
    'cms.parent_types',
    {
      factory: 'Tuple',
      title: 'Hide children of these types',
      description: 'Hide content inside the following types in Navigation.',
      items: openChoice(`${V}PortalTypes`),
      default: ['TempFolder'],
      required: false,
    },
  ],
];

const SEARCH: PanelRecord[] = [
  [
    'cms.enable_livesearch',
    bool(
      'Enable LiveSearch',
      'Enables the LiveSearch feature, which shows live results if the browser supports JavaScript.',
      true,
    ),
  ],
  [
    'cms.types_not_searched',
    {
      factory: 'Tuple',
      title: 'Select content types which should be excluded from search results',
      description: 'Content types that should not be found by a search that uses the site’s search settings.',
      items: openChoice(`${V}PortalTypes`),
      default: ['Discussion Item', 'Site Root', 'TempFolder'],
      required: false,
    },
  ],
  [
    'cms.search_results_description_length',
    integer('Crop the item description in search result listings after a number of characters.', '', {
      min: 0,
      default: 160,
    }),
  ],
  [
    'cms.sort_on',
    {
      factory: 'Choice',
      title: 'Sort on',
      description: 'Sort the default search on this index',
      terms: [
        ['relevance', 'relevance'],
        ['Date', 'date (newest first)'],
        ['sortable_title', 'alphabetically'],
      ],
      default: 'relevance',
    },
  ],
  ['cms.search_show_images', bool('Show images in results', 'Whether to show images in the search results', true)],
  [
    'cms.search_image_scale',
    openChoice(
      `${V}ImagesScales`,
      'Image scale for results',
      'Which image scale to use for the result images.',
      'thumb',
    ),
  ],
];

const SITE: PanelRecord[] = [
  [
    'cms.site_title',
    line('Site title', 'This shows up in the title bar of browsers and in syndication feeds.', { default: 'CMS site' }),
  ],
  ['cms.site_logo', line('Site Logo', 'This shows a custom logo on your site.', { required: false })],
  [
    'cms.site_favicon_mimetype',
    line('MIME type of the site favicon', 'This shows the MIME type of the custom favicon.', {
      required: false,
      default: 'image/vnd.microsoft.icon',
    }),
  ],
  ['cms.site_favicon', line('Site Favicon', 'This shows a custom favicon on your site.', { required: false })],
  [
    'cms.exposeDCMetaTags',
    bool('Expose Dublin Core metadata', 'Exposes the Dublin Core properties as metatags.', false),
  ],
  [
    'cms.enable_sitemap',
    bool(
      'Expose sitemap.xml.gz',
      'Exposes your content as a file according to the sitemaps.org standard. You can submit this to compliant search engines like Google, Yahoo and Microsoft. It allows these search engines to more intelligently crawl your site.',
      false,
    ),
  ],
  [
    'cms.webstats_head_js',
    text(
      'JavaScript integrations included in head section',
      'For enabling third-party JavaScript integrations from external providers (e.g. Google Analytics). Paste the provided code snippet here. It will be rendered as entered in the head section of the site.',
      { required: false },
    ),
  ],
  [
    'cms.webstats_js',
    text(
      'JavaScript integrations included after the footer',
      'For enabling third-party JavaScript integrations from external providers (e.g. Google Analytics). Paste the provided code snippet here. It will be rendered as entered near the end of the page.',
      { required: false },
    ),
  ],
  [
    'cms.display_publication_date_in_byline',
    bool('Display publication date', 'Show the date a content item was published in the byline.', false),
  ],
  ...(['icon_visibility', 'thumb_visibility'] as const).map((name): PanelRecord => [
    `cms.${name}`,
    {
      factory: 'Choice',
      title: name === 'icon_visibility' ? 'Icon visibility' : 'Thumb visibility',
      description: `Show ${name === 'icon_visibility' ? 'icons' : 'thumbs'} in listings`,
      terms: [
        ['false', 'Never'],
        ['enabled', 'Always'],
        ['authenticated', 'For authenticated users only'],
      ],
      default: 'enabled',
    },
  ]),
  [
    'cms.no_thumbs_portlet',
    bool(
      'No Thumbs in portlets',
      'Suppress thumbs in all portlets; this default can be overridden individually in selected portlets',
      false,
    ),
  ],
  [
    'cms.no_thumbs_lists',
    bool(
      'No thumbs in list views',
      'Suppress thumbs in all list views; this default can be overriden individually',
      false,
    ),
  ],
  [
    'cms.no_thumbs_summary',
    bool(
      'No thumbs in summary views',
      'Suppress thumbs in all summary views; this default can be overriden individually',
      false,
    ),
  ],
  [
    'cms.no_thumbs_tables',
    bool(
      'No thumbs in table views',
      'Suppress thumbs in all table views and content views; this default can be overriden individually',
      false,
    ),
  ],
  [
    'cms.thumb_scale_portlet',
    openChoice(`${V}ImagesScales`, 'Thumb scale for portlets', 'This scale is used for the thumbs in portlets', 'icon'),
  ],
  [
    'cms.thumb_scale_listing',
    openChoice(`${V}ImagesScales`, 'Thumb scale for listings', 'E.g. standard view;', 'thumb'),
  ],
  [
    'cms.thumb_scale_table',
    openChoice(`${V}ImagesScales`, 'Thumb scale for tables', 'E.g., tabular view, folder content listing;', 'tile'),
  ],
  ['cms.thumb_scale_summary', openChoice(`${V}ImagesScales`, 'Thumb scale for summary view', '', 'mini')],
  [
    'cms.toolbar_position',
    {
      factory: 'Choice',
      title: 'Toolbar position',
      description: 'It can be on the side (vertical mode) or on the top (horizontal mode)',
      terms: [
        ['side', 'Side'],
        ['top', 'Top'],
      ],
      default: 'side',
    },
  ],
  [
    'cms.toolbar_logo',
    line(
      'Relative URL for the toolbar logo',
      'This must be a URL relative to the site root. By default it is /++plone++static/plone-toolbarlogo.svg',
      { default: '/++plone++static/plone-toolbarlogo.svg', required: false },
    ),
  ],
  [
    'cms.robots_txt',
    text(
      'robots.txt',
      'Use this form to define the content of robots.txt. The value ‘{portal_url}’ is replaced with the URL of the site.',
      { default: ROBOTS_TXT },
    ),
  ],
  [
    'cms.default_page',
    lines('Default page IDs', 'Select which IDs (short names) can act as fallback default pages for a container.', [
      'index_html',
      'index.html',
      'index.htm',
      'FrontPage',
    ]),
  ],
  [
    'cms.roles_allowed_to_add_keywords',
    {
      factory: 'List',
      title: 'Roles that can add keywords',
      description: 'Only these roles may add new keywords; others choose among the existing ones.',
      items: openChoice(`${V}Roles`),
      default: ['Manager', 'Site Administrator', 'Reviewer'],
      required: false,
    },
  ],
];

const SOCIAL_MEDIA: PanelRecord[] = [
  [
    'cms.share_social_data',
    bool(
      'Share social data',
      'Include meta tags on pages to give hints to social media on how to better render your pages when shared',
      true,
    ),
  ],
  [
    'cms.twitter_username',
    line('Twitter username', 'To idenitify things like Twitter Cards', { required: false, default: '' }),
  ],
  [
    'cms.facebook_app_id',
    line('Facebook App ID', 'To be used with some integrations like Open Graph data', { required: false, default: '' }),
  ],
  [
    'cms.facebook_username',
    line('Facebook username', 'For linking Open Graph data to a Facebook account', { required: false, default: '' }),
  ],
];

const EDITING: PanelRecord[] = [
  [
    'cms.available_editors',
    {
      factory: 'List',
      title: 'Available editors',
      description: 'Available editors in the portal.',
      items: LINE,
      default: ['TinyMCE', 'None'],
    },
  ],
  [
    'cms.default_editor',
    {
      factory: 'Choice',
      title: 'Default editor',
      description:
        'Select the default wysiwyg editor. Users will be able to choose their own or select to use the site default.',
      // Its terms are the `available_editors`, which a site manager changes: any one line is accepted.
      vocabulary: EDITORS_VOCABULARY,
      default: 'TinyMCE',
    },
  ],
  [
    'cms.ext_editor',
    bool(
      'Enable External Editor feature',
      'Determines if the external editor feature is enabled. This feature requires a special client-side application installed. The users also have to enable this in their preferences.',
      false,
    ),
  ],
  [
    'cms.enable_link_integrity_checks',
    bool(
      'Enable link integrity checks',
      'Determines if the users should get warnings when they delete or move content that is linked from inside the site.',
      true,
    ),
  ],
  [
    'cms.lock_on_ttw_edit',
    bool(
      'Enable locking for through-the-web edits',
      'Disabling locking here will only affect users editing content through the CMS web UI.  Content edited via WebDAV clients will still be subject to locking.',
      true,
    ),
  ],
  [
    'cms.subjects_of_navigation_root',
    bool(
      'Limit tags/keywords to the current navigation root',
      "Limit tags aka keywords vocabulary used for Tags field and in searches to the terms used inside the subtree of the current navigation root. This can be used together with CMS's multilingual extension cms.app.multilingual to only offer keywords of the current selected language. Other addons may utilize this feature for its specific purposes.",
      false,
    ),
  ],
];

const IMAGING: PanelRecord[] = [
  [
    'cms.quality',
    integer(
      'Scaled image quality',
      'A value for the quality of scaled images, from 1 (lowest) to 95 (highest). A value of 0 will mean the default quality of the image library.',
      { min: 0, max: 95, default: 88 },
    ),
  ],
  [
    'cms.highpixeldensity_scales',
    {
      factory: 'Choice',
      title: 'High pixel density mode',
      description: '',
      terms: [
        ['disabled', 'Disabled'],
        ['2x', 'Enabled (2x)'],
        ['3x', 'Enabled (2x, 3x)'],
      ],
      default: 'disabled',
    },
  ],
  [
    'cms.quality_2x',
    integer(
      'Image quality at 2x',
      'A value for the quality of 2x high pixel density images, from 1 (lowest) to 95 (highest). A value of 0 will mean the default quality of the image library.',
      { min: 0, max: 95, default: 62 },
    ),
  ],
  [
    'cms.quality_3x',
    integer(
      'Image quality at 3x',
      'A value for the quality of 3x high pixel density images, from 1 (lowest) to 95 (highest). A value of 0 will mean the default quality of the image library.',
      { min: 0, max: 95, default: 51 },
    ),
  ],
  [
    'cms.image_captioning',
    bool(
      'Enable image captioning',
      'Enable automatic image captioning for images set in the richtext editor based on the description of images.',
      true,
    ),
  ],
];

const MARKUP: PanelRecord[] = [
  [
    'cms.default_format',
    {
      factory: 'Choice',
      title: 'Default format',
      description: 'Select the default format of textfields for newly created content objects.',
      vocabulary: `${V}AllowableContentTypes`,
      tokens: TEXT_FORMATS,
      default: 'text/html',
    },
  ],
  [
    'cms.markdown_extensions',
    lines(
      'Enabled markdown extensions',
      'Look for available extensions at https://python-markdown.github.io/extensions/ or write your own (see https://python-markdown.github.io/extensions/api/). This field can contain a list of extension names, one per line.',
      ['markdown.extensions.fenced_code', 'markdown.extensions.nl2br', 'markdown.extensions.extra'],
    ),
  ],
];

const USERS_AND_SECURITY: PanelRecord[] = [
  [
    'cms.many_groups',
    bool(
      'Many groups?',
      'Determines if your CMS is optimized for small or large sites. In environments with a lot of groups it can be very slow or impossible to build a list all groups. This option tunes the user interface and behaviour of CMS for this case by allowing you to search for groups instead of listing all of them.',
      false,
    ),
  ],
  [
    'cms.many_users',
    bool(
      'Many users?',
      'Determines if your CMS is optimized for small or large sites. In environments with a lot of users it can be very slow or impossible to build a list all users. This option tunes the user interface and behaviour of CMS for this case by allowing you to search for users instead of listing all of them.',
      false,
    ),
  ],
  [
    'cms.enable_self_reg',
    bool(
      'Enable self-registration',
      'Allows users to register themselves on the site. If not selected, only site managers can add new users.',
      false,
    ),
  ],
  [
    'cms.enable_user_pwd_choice',
    bool(
      'Let users select their own passwords',
      'If not selected, a URL will be generated and e-mailed. Users are instructed to follow the link to reach a page where they can change their password and complete the registration process; this also verifies that they have entered a valid email address.',
      false,
    ),
  ],
  [
    'cms.enable_user_folders',
    bool(
      'Enable User Folders',
      'If selected, home folders where users can create content will be created when they log in.',
      false,
    ),
  ],
  [
    'cms.use_uuid_as_userid',
    bool(
      'Use UUID user ids',
      'Use automatically generated UUIDs as user id for new users. When not turned on, the default is to use the same as the login name, or when using the email address as login name we generate a user id based on the fullname.',
      false,
    ),
  ],
  [
    'cms.autologin_after_password_reset',
    bool(
      'Login user after password reset',
      'After successful password reset the user will be logged in automatically.',
      false,
    ),
  ],
];

const seconds = (title: string, description: string): IntegerFieldSpec =>
  integer(title, description, { min: 0, max: 31_536_000, default: 0 });

/**
 * HTTP caching (the gateway reads these; gateway/src/cache-rules.ts): `max-age` for browsers and `s-maxage` for
 * shared caches per kind of answer, sent to anonymous callers only; a logged-in caller always gets
 * `private, no-cache`. 0 everywhere: every cache revalidates (cheap, with ETags) and nothing goes stale.
 */
const CACHING: PanelRecord[] = [
  ['cms.caching_enabled', bool('Enable caching', 'The gateway keeps anonymous answers in memory.', true)],
  [
    'cms.caching_authenticated',
    bool(
      'Cache answers for logged-in users',
      "The gateway also keeps each logged-in user's answers, for that user only (browsers still get them private).",
      false,
    ),
  ],
  ['cms.caching_content_max_age', seconds('Content: browser max age', 'Seconds a browser may reuse an object.')],
  [
    'cms.caching_content_s_maxage',
    seconds('Content: proxy max age', 'Seconds a shared cache (caching proxy, CDN) may reuse an object.'),
  ],
  [
    'cms.caching_listing_max_age',
    seconds('Listings: browser max age', 'Seconds a browser may reuse a search, navigation or listing.'),
  ],
  ['cms.caching_listing_s_maxage', seconds('Listings: proxy max age', 'The same for shared caches.')],
  ['cms.caching_site_max_age', seconds('Site: browser max age', 'Seconds a browser may reuse site settings.')],
  ['cms.caching_site_s_maxage', seconds('Site: proxy max age', 'The same for shared caches.')],
  ['cms.caching_files_max_age', seconds('Files: browser max age', 'Seconds a browser may reuse a file or image.')],
  ['cms.caching_files_s_maxage', seconds('Files: proxy max age', 'The same for shared caches.')],
  [
    'cms.caching_must_revalidate',
    bool('Must revalidate', 'Caches must not serve an expired answer without asking again.', true),
  ],
  [
    'cms.caching_tag_header',
    line('Tag header', 'Response header naming the UIDs an answer depends on (Cache-Tag, Surrogate-Key, xkey).', {
      default: 'Cache-Tag',
      minLength: 1,
      maxLength: 64,
    }),
  ],
  [
    'cms.caching_purge_proxies',
    lines(
      'Caching proxies',
      'URLs of caching proxies (Varnish, ...) sent a PURGE of the changed paths, with the tag header, on every change.',
      [],
    ),
  ],
];

export const PANEL_RECORDS: readonly PanelRecord[] = [
  ...DATE_AND_TIME,
  ...LANGUAGE,
  ...MAIL,
  ...NAVIGATION,
  ...SEARCH,
  ...SITE,
  ...SOCIAL_MEDIA,
  ...EDITING,
  ...IMAGING,
  ...MARKUP,
  ...USERS_AND_SECURITY,
  ...CACHING,
];
