/**
 * The control panels: each shows a set of registry records as one form (`schema` + `data`) and writes them
 * back through the registry, so `@registry` and `@controlpanels/<id>` read and write the same settings.
 */
import { badRequest, clip, notFound, type FieldError } from '@cms/shared';
import { fieldDefinition, findRecord, type FieldSpec, type JsonValue, type RecordDefinition } from './records';
import type { Registry } from './registry';
import { termTitle } from './vocabularies';

export type PanelGroup = 'General' | 'Content' | 'Users' | 'Security' | 'Advanced' | 'Add-on Configuration';

export interface PanelDefinition {
  id: string;
  title: string;
  group: PanelGroup;
  /** Field name → record name, in the form's order. */
  fields: readonly (readonly [string, string])[];
  /** False for a panel reachable by its id but not in the listing. */
  listed?: boolean;
  /** Panels whose content is not registry records (`content-rules`, `cms-types`). */
  kind?: 'records' | 'content-rules' | 'cms-types';
}

const DISCUSSION = 'cms.app.discussion.interfaces.IDiscussionSettings';

/** Fields stored as `cms.<field>`. */
const own = (...names: string[]): [string, string][] => names.map((name) => [name, `cms.${name}`]);

/** In the order and with the ids, groups and titles of the specification. */
export const PANELS: readonly PanelDefinition[] = [
  {
    id: 'date-and-time',
    title: 'Date and Time',
    group: 'General',
    fields: own('portal_timezone', 'available_timezones', 'first_weekday'),
  },
  {
    id: 'language',
    title: 'Language',
    group: 'General',
    fields: own(
      'default_language',
      'available_languages',
      'use_combined_language_codes',
      'display_flags',
      'always_show_selector',
      'use_content_negotiation',
      'use_path_negotiation',
      'use_cookie_negotiation',
      'authenticated_users_only',
      'set_cookie_always',
      'use_subdomain',
      'use_cctld_negotiation',
      'use_request_negotiation',
    ),
  },
  {
    id: 'mail',
    title: 'Mail',
    group: 'General',
    fields: own(
      'smtp_host',
      'smtp_port',
      'smtp_userid',
      'smtp_pass',
      'email_from_name',
      'email_from_address',
      'email_charset',
    ),
  },
  {
    id: 'navigation',
    title: 'Navigation',
    group: 'General',
    fields: own(
      'navigation_depth',
      'generate_tabs',
      'nonfolderish_tabs',
      'sort_tabs_on',
      'sort_tabs_reversed',
      'displayed_types',
      'filter_on_workflow',
      'workflow_states_to_show',
      'show_excluded_items',
      'root',
      'sitemap_depth',
      'parent_types',
    ),
  },
  {
    id: 'search',
    title: 'Search',
    group: 'General',
    fields: own(
      'enable_livesearch',
      'types_not_searched',
      'search_results_description_length',
      'sort_on',
      'search_show_images',
      'search_image_scale',
    ),
  },
  {
    id: 'site',
    title: 'Site',
    group: 'General',
    fields: own(
      'site_title',
      'site_logo',
      'site_favicon_mimetype',
      'site_favicon',
      'exposeDCMetaTags',
      'enable_sitemap',
      'webstats_head_js',
      'webstats_js',
      'display_publication_date_in_byline',
      'icon_visibility',
      'thumb_visibility',
      'no_thumbs_portlet',
      'no_thumbs_lists',
      'no_thumbs_summary',
      'no_thumbs_tables',
      'thumb_scale_portlet',
      'thumb_scale_listing',
      'thumb_scale_table',
      'thumb_scale_summary',
      'toolbar_position',
      'toolbar_logo',
      'robots_txt',
      'default_page',
      'roles_allowed_to_add_keywords',
    ),
  },
  {
    id: 'socialmedia',
    title: 'Social Media',
    group: 'General',
    fields: own('share_social_data', 'twitter_username', 'facebook_app_id', 'facebook_username'),
  },
  { id: 'content-rules', title: 'Content Rules', group: 'Content', fields: [], kind: 'content-rules' },
  { id: 'cms-types', title: 'Content Types', group: 'Content', fields: [], kind: 'cms-types' },
  {
    id: 'editing',
    title: 'Editing',
    group: 'Content',
    fields: own(
      'available_editors',
      'default_editor',
      'ext_editor',
      'enable_link_integrity_checks',
      'lock_on_ttw_edit',
      'subjects_of_navigation_root',
    ),
  },
  {
    id: 'imaging',
    title: 'Image Handling',
    group: 'Content',
    fields: own('allowed_sizes', 'quality', 'highpixeldensity_scales', 'quality_2x', 'quality_3x', 'image_captioning'),
  },
  {
    id: 'markup',
    title: 'Markup',
    group: 'Content',
    fields: own('default_format', 'allowed_types', 'markdown_extensions'),
  },
  { id: 'usergroup', title: 'User and Group Settings', group: 'Users', fields: own('many_groups', 'many_users') },
  {
    id: 'security',
    title: 'Security',
    group: 'Security',
    fields: own(
      'enable_self_reg',
      'enable_user_pwd_choice',
      'enable_user_folders',
      'allow_anon_views_about',
      'use_email_as_login',
      'use_uuid_as_userid',
      'autologin_after_password_reset',
    ),
  },
  {
    // Beyond the specification's fourteen, listed as the original's discussion package lists it (Volto's tile).
    id: 'discussion',
    title: 'Discussion',
    group: 'Content',
    fields: [
      'globally_enabled',
      'anonymous_comments',
      'anonymous_email_enabled',
      'moderation_enabled',
      'edit_comment_enabled',
      'delete_own_comment_enabled',
      'text_transform',
      'captcha',
      'show_commenter_image',
      'moderator_notification_enabled',
      'moderator_email',
      'user_notification_enabled',
    ].map((name) => [name, `${DISCUSSION}.${name}`] as const),
  },
  {
    // Not among the specification's fourteen: reachable by id and through `@registry`.
    id: 'caching',
    title: 'Caching',
    group: 'Advanced',
    listed: false,
    fields: own(
      'caching_enabled',
      'caching_authenticated',
      'caching_content_max_age',
      'caching_content_s_maxage',
      'caching_listing_max_age',
      'caching_listing_s_maxage',
      'caching_site_max_age',
      'caching_site_s_maxage',
      'caching_files_max_age',
      'caching_files_s_maxage',
      'caching_must_revalidate',
      'caching_tag_header',
      'caching_purge_proxies',
    ),
  },
];

const BY_ID = new Map(PANELS.map((p) => [p.id, p]));

/** Every field's record exists: a typo here would otherwise surface as a 500 on the panel. */
for (const panel of PANELS) {
  for (const [field, name] of panel.fields) {
    if (!findRecord(name)) throw new Error(`control panel ${panel.id}: field ${field} has no record ${name}`);
  }
}

// The original platform's ids (`dexterity-types`) arrive renamed by the dispatcher (addendum §8, identifiers).
export function findPanel(id: string): PanelDefinition {
  const panel = BY_ID.get(id);
  if (!panel) throw notFound(`No control panel named "${clip(id)}"`);
  return panel;
}

function recordOf(name: string): RecordDefinition {
  return findRecord(name)!;
}

/** The listing entry; `searchable_text` lets a client filter panels by the titles of their fields. */
export function panelSummary(panel: PanelDefinition, publicUrl: string) {
  return {
    '@id': panelUrl(publicUrl, panel.id),
    group: panel.group,
    searchable_text: [panel.title, panel.group, ...panel.fields.map(([, name]) => recordOf(name).field.title)],
    title: panel.title,
  };
}

export function panelUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/@controlpanels/${id}`;
}

/** Fields a form must fill: those that cannot be empty, except yes/no ones (unticked is an answer). */
function isRequired(field: FieldSpec): boolean {
  return field.required !== false && field.factory !== 'Yes/No';
}

export function panelSchema(panel: PanelDefinition, publicUrl: string) {
  const fields = panel.fields.map(([field]) => field);
  return {
    fieldsets: [{ behavior: 'cms', fields, id: 'default', title: 'Default' }],
    properties: Object.fromEntries(
      panel.fields.map(([field, name]) => [field, fieldDefinition(recordOf(name).field, publicUrl)]),
    ),
    required: panel.fields.filter(([, name]) => isRequired(recordOf(name).field)).map(([field]) => field),
    type: 'object',
  };
}

/** A choice is read as its term `{title, token}` (as the reference platform serializes choices). */
function shownValue(field: FieldSpec, value: JsonValue): JsonValue {
  if (field.factory !== 'Choice' || typeof value !== 'string') return value;
  if ('terms' in field) {
    const term = field.terms.find(([token]) => token === value);
    return { title: term ? term[1] : value, token: value };
  }
  return { title: termTitle(field.vocabulary, value), token: value };
}

export async function panelData(panel: PanelDefinition, registry: Registry): Promise<Record<string, JsonValue>> {
  const values = await registry.values(panel.fields.map(([, name]) => name));
  return Object.fromEntries(
    panel.fields.map(([field, name]) => [field, shownValue(recordOf(name).field, values[name]!)]),
  );
}

/** A choice may be written as its token or as the term read from the panel; so may each choice of a list. */
function writtenValue(field: FieldSpec, value: unknown): unknown {
  if ('items' in field && Array.isArray(value)) return value.map((item) => writtenValue(field.items, item));
  if (field.factory !== 'Choice' || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const token = (value as Record<string, unknown>).token;
  return typeof token === 'string' ? token : value;
}

/**
 * Writes some of the panel's fields. Every field is checked first, under its panel name; if any is unknown
 * or invalid, nothing is written (400).
 */
export async function updatePanel(
  panel: PanelDefinition,
  body: unknown,
  registry: Registry,
  requestId?: string,
): Promise<void> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object mapping the panel’s field names to their new values', [
      { field: '(body)', message: 'Expected an object' },
    ]);
  }
  const fields = new Map(panel.fields);
  const errors: FieldError[] = [];
  const changes: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(body)) {
    const name = fields.get(field);
    if (!name) {
      errors.push({ field: clip(field), message: `No such field in the ${panel.id} panel` });
      continue;
    }
    const record = recordOf(name);
    const value = writtenValue(record.field, raw);
    const result = record.schema.safeParse(value);
    if (result.success) changes[name] = result.data;
    else
      errors.push(
        ...result.error.issues.map((issue) => ({
          field,
          message: issue.path.length ? `item ${issue.path.join('.')}: ${issue.message}` : issue.message,
        })),
      );
  }
  if (errors.length) {
    throw badRequest(
      clip(
        `Invalid values for the ${panel.id} panel; nothing was changed: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
        1000,
      ),
      errors,
    );
  }
  await registry.update(changes, requestId);
}
