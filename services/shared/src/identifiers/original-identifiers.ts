/**
 * The original platform's identifiers (addendum §8, convention 4). The specification writes them with the neutral
 * `cms` prefix; clients such as Volto hard-code the original ones (`plone.app.vocabularies.Keywords`, `Plone Site`,
 * `plone_setup`, `volto.blocks`). The service always takes the original names on input, as aliases, and emits them
 * when the setting `ORIGINAL_IDENTIFIERS` asks (the dispatcher applies both, services/shared/src/http).
 *
 * Identifiers only: user content is never rewritten. The walkers below change object keys and string values that
 * are identifiers by their place (the member they are the value of) and their form (a dotted name), and never
 * descend into the members that hold what users write (`blocks`, `text`, `title`, ...).
 */

/** Neutral names whose original is not the prefix rule's. */
const EXACT_ORIGINAL: Readonly<Record<string, string>> = {
  'Site Root': 'Plone Site',
  'cms-types': 'dexterity-types',
  cms_setup: 'plone_setup',
  'cms.ManagePortal': 'cmf.ManagePortal',
  'cms-type-info': 'Dexterity FTI',
};

/** Behaviors whose original name is not the prefix rule's. */
const BEHAVIOR_ORIGINAL: Readonly<Record<string, string>> = {
  blocks: 'volto.blocks',
  'blocks.editable.layout': 'volto.blocks.editable.layout',
  cms: 'plone',
};

/** Original names taken on input besides the reverse of the tables above (permission ids of the original). */
const EXTRA_NEUTRAL: Readonly<Record<string, string>> = {
  'cmf.ModifyPortalContent': 'Modify portal content',
  'cmf.AddPortalContent': 'Add portal content',
  'cmf.ReviewPortalContent': 'Review portal content',
  'zope2.View': 'View',
  'zope2.DeleteObjects': 'Delete objects',
  'cmf.ChangeLocalRoles': 'Change local roles',
  'cmf.ListUndoableChanges': 'List undoable changes',
  'zope2.Undo': 'Undo changes',
};

const invert = (table: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(table).map(([neutral, original]) => [original, neutral]));

const EXACT_NEUTRAL: Readonly<Record<string, string>> = { ...invert(EXACT_ORIGINAL), ...EXTRA_NEUTRAL };
const BEHAVIOR_NEUTRAL: Readonly<Record<string, string>> = invert(BEHAVIOR_ORIGINAL);

/** Neutral prefixes whose original is not `plone.`: the date formats are `Products.CMFPlone.i18nl10n.*` there. */
const PREFIX_ORIGINAL: readonly (readonly [neutral: string, original: string])[] = [
  ['cms.i18nl10n.', 'Products.CMFPlone.i18nl10n.'],
];

/** A dotted name with the neutral prefix (`cms.site_title`, `cms.app.vocabularies.Keywords`). */
const NEUTRAL_DOTTED = /^cms\.[A-Za-z_][\w]*(\.[\w]+)*$/;
const ORIGINAL_DOTTED = /^plone\.[A-Za-z_][\w]*(\.[\w]+)*$/;

const own = (table: Readonly<Record<string, string>>, key: string) =>
  Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/** The original name of a neutral identifier (`cms.x` → `plone.x`, the exceptions by table); others unchanged. */
export function originalName(name: string): string {
  const exact = own(EXACT_ORIGINAL, name);
  if (exact !== undefined) return exact;
  const prefixed = PREFIX_ORIGINAL.find(([neutral]) => name.startsWith(neutral));
  if (prefixed && NEUTRAL_DOTTED.test(name)) return prefixed[1] + name.slice(prefixed[0].length);
  return NEUTRAL_DOTTED.test(name) ? `plone.${name.slice('cms.'.length)}` : name;
}

/** The neutral name of an identifier given in either form (`plone.x` → `cms.x`, `Plone Site` → `Site Root`). */
export function neutralName(name: string): string {
  const exact = own(EXACT_NEUTRAL, name) ?? own(BEHAVIOR_NEUTRAL, name);
  if (exact !== undefined && exact !== 'cms') return exact;
  const prefixed = PREFIX_ORIGINAL.find(([, original]) => name.startsWith(original));
  if (prefixed && /^[\w.]+$/.test(name)) return prefixed[0] + name.slice(prefixed[1].length);
  return ORIGINAL_DOTTED.test(name) ? `cms.${name.slice('plone.'.length)}` : name;
}

/** A behavior's original name (`blocks` → `volto.blocks`, `cms.richtext` → `plone.richtext`). */
export function originalBehavior(name: string): string {
  return own(BEHAVIOR_ORIGINAL, name) ?? originalName(name);
}

/** A behavior's neutral name from either form. */
export function neutralBehavior(name: string): string {
  return own(BEHAVIOR_NEUTRAL, name) ?? neutralName(name);
}

/** Members holding what users write, whatever their form: never rewritten, in either direction. */
const USER_CONTENT_ALWAYS = new Set(['blocks', 'blocks_layout', 'text']);
/**
 * Members holding what users write when their value is text or a list (in a type schema the same names hold field
 * definitions, objects, which are walked).
 */
const USER_CONTENT = new Set([
  'description',
  'title',
  'subjects',
  'Subject',
  'Title',
  'Description',
  'SearchableText',
  'comment',
  'comments',
  'changeNote',
  'fullname',
  'email',
  'home_page',
  'location',
]);

/** Members whose string value (or list of them) is an identifier. */
const NAME_MEMBERS = new Set([
  'name',
  'permission',
  'operation',
  'operations',
  'o',
  'vocabulary',
  'type',
  'interfaces',
]);
/** Members naming a type: only the site root's type is renamed (the others have one name). */
const TYPE_MEMBERS = new Set(['@type', 'portal_type', 'portal_types', 'type_title', 'Type', 'meta_type']);
const BEHAVIOR_MEMBERS = new Set(['behavior', 'behaviors']);

/** `@`-endpoints whose next path segment is an identifier, in URLs the service writes. */
const NAMED_ENDPOINT = /\/@(vocabularies|controlpanels|types|registry|querysources|sources)\/([^/?#]+)/g;

type Json = unknown;
type Rename = (name: string) => string;

interface Direction {
  name: Rename;
  behavior: Rename;
  type: Rename;
  /** Rewrites identifiers in a URL of the service; undefined: URLs are left as they are. */
  url?: (url: string) => string;
  /** Rewrites the identifiers a help text of the platform names; undefined: help texts are left as they are. */
  help?: (text: string) => string;
}

/** A neutral dotted package name inside running text (`... extension cms.app.multilingual to ...`). */
const NEUTRAL_DOTTED_IN_TEXT = /\bcms(\.[A-Za-z_]\w*)+/g;

/**
 * Whether an object is a control panel other than the types panel: the field descriptions in its schema are the
 * platform's help texts (the types panel's hold what site managers wrote about their types).
 */
const isPanelWithHelp = (selfId: string) =>
  selfId.includes('/@controlpanels/') && !selfId.includes('/@controlpanels/cms-types');

function mapValue(value: Json, rename: Rename): Json {
  if (typeof value === 'string') return rename(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? rename(v) : v));
  return undefined;
}

/** Walks a JSON value and returns a copy with its identifiers renamed; the input is not changed. */
function walk(value: Json, direction: Direction, behaviorScope: boolean, typeTitle = false, helpScope = false): Json {
  if (typeof value === 'string') return direction.url ? direction.url(value) : value;
  if (Array.isArray(value)) return value.map((item) => walk(item, direction, behaviorScope, false, helpScope));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, Json>;
  const selfId = typeof source['@id'] === 'string' ? source['@id'] : '';
  // The per-type form of the types panel: its members and field lists name behaviors (`blocks` among them).
  const behaviors = behaviorScope || /\/@controlpanels\/cms-types\/[^/]+$/.test(selfId);
  const described = 'icon' in source || 'meta_type' in source || selfId.includes('/@controlpanels/');
  const help = helpScope || isPanelWithHelp(selfId);
  const result: Record<string, Json> = {};
  for (const [key, member] of Object.entries(source)) {
    const renamedKey = behaviors && key in BEHAVIOR_ORIGINAL ? direction.behavior(key) : direction.name(key);
    let renamed: Json;
    if (key === 'description' && help && direction.help && typeof member === 'string') {
      renamed = direction.help(member);
    } else if (USER_CONTENT_ALWAYS.has(key) || (USER_CONTENT.has(key) && !isPlainObject(member))) {
      renamed = key === 'title' ? titleOf(member, selfId, typeTitle, direction) : member;
    } else if (TYPE_MEMBERS.has(key)) {
      renamed = mapValue(member, direction.type) ?? walk(member, direction, behaviors, false, help);
    } else if (BEHAVIOR_MEMBERS.has(key) || (behaviors && key === 'fields')) {
      renamed = mapValue(member, direction.behavior) ?? walk(member, direction, behaviors, false, help);
    } else if (NAME_MEMBERS.has(key)) {
      renamed = mapValue(member, direction.name) ?? walk(member, direction, behaviors, false, help);
    } else if (key === 'id' && described && typeof member === 'string') {
      renamed = direction.type(direction.name(member));
    } else if (key === 'icon' && typeof member === 'string') {
      renamed = direction.url ? member.replace(/^cms-/, 'plone-') : member.replace(/^plone-/, 'cms-');
    } else {
      renamed = walk(member, direction, behaviors, false, help);
    }
    result[renamedKey] = renamed;
  }
  return result;
}

/**
 * A `title` is user content, except the name of a vocabulary or a type in their listings, and the title of a type's
 * schema (`typeTitle`: the body is one).
 */
function titleOf(title: Json, selfId: string, typeTitle: boolean, direction: Direction): Json {
  if (typeof title !== 'string') return title;
  if (selfId.includes('/@vocabularies/')) return direction.name(title);
  if (typeTitle || selfId.includes('/@types/') || selfId.includes('/@controlpanels/cms-types/'))
    return direction.type(title);
  return title;
}

const isPlainObject = (value: Json): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A response body with the original identifiers in place of the neutral ones. `publicUrl` bounds the URL rule: only
 * the service's own URLs have their endpoint's identifier segment renamed. `typeSchema`: the body is a type's
 * schema (`@types/<type>`), whose `title` is the type's name.
 */
export function toOriginalIdentifiers(body: Json, publicUrl: string, options: { typeSchema?: boolean } = {}): Json {
  const prefix = `${publicUrl}/`;
  const url = (value: string) =>
    value.startsWith(prefix) && value.includes('/@')
      ? value.replace(NAMED_ENDPOINT, (_all, endpoint: string, segment: string) => {
          const decoded = safeDecode(segment);
          const renamed = originalName(decoded);
          return `/@${endpoint}/${renamed === decoded ? segment : encodeURIComponent(renamed)}`;
        })
      : value;
  const help = (text: string) => text.replace(NEUTRAL_DOTTED_IN_TEXT, (name) => originalName(name));
  return walk(
    body,
    { name: originalName, behavior: originalBehavior, type: originalName, url, help },
    false,
    options.typeSchema,
  );
}

/**
 * A request body with the neutral identifiers in place of original ones given as aliases (object keys such as
 * registry records, operators, behaviors, rule elements, permissions). Not applied to content bodies, whose
 * members are the user's (the dispatcher renames only their `@type`).
 */
export function toNeutralIdentifiers(body: Json): Json {
  return walk(body, { name: neutralName, behavior: neutralBehavior, type: neutralName }, false);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
