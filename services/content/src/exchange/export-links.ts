/**
 * translations.json and redirects.json, gathered from the objects of an export as they pass (each carries its
 * aliases, translation group and language), so both files hold the same objects as the content tree written
 * beside them. Only a few bytes per linked object are kept until the end.
 */
import type { ObjectOfExport } from './export-rpc';
import { SITE_ROOT_TYPE, type ExportRedirects, type ExportTranslations } from './plone-export';

/** What of an exported object the two files need. */
type LinksOfObject = Pick<
  ObjectOfExport<unknown>,
  'item_json' | 'aliases' | 'translation_group' | 'language' | 'default_language'
>;

export interface ExportLinks<T> {
  /** The objects as given, read through. */
  objects: AsyncIterable<T>;
  /** The two files, once `objects` has been read to its end (before that, what has passed). */
  translations(): Promise<ExportTranslations>;
  redirects(): Promise<ExportRedirects>;
}

export function linksOfExport<T extends LinksOfObject>(source: AsyncIterable<T>): ExportLinks<T> {
  let defaultLanguage = '';
  // Translation group → language → UID; alias → the path it leads to.
  const groups = new Map<string, Map<string, string>>();
  const redirects: ExportRedirects = {};
  async function* objects(): AsyncGenerator<T> {
    for await (const object of source) {
      if (object.default_language) defaultLanguage = object.default_language;
      if (object.aliases.length || object.translation_group) {
        const item = JSON.parse(object.item_json.toString('utf8')) as { '@id': string; '@type': string; UID: string };
        // The site root's `@id` is its id (plone.exportimport's), its path is `/`.
        const path = item['@type'] === SITE_ROOT_TYPE ? '/' : item['@id'];
        for (const alias of object.aliases) redirects[alias] = path;
        if (object.translation_group && object.language) {
          const members = groups.get(object.translation_group) ?? new Map<string, string>();
          members.set(object.language, item.UID);
          groups.set(object.translation_group, members);
        }
      }
      yield object;
    }
  }
  return {
    objects: objects(),
    translations: async () => translationsOf(groups, defaultLanguage),
    redirects: async () => redirects,
  };
}

/**
 * As plone.exportimport writes them: a group of two or more, its member in the site's default language as the
 * canonical (else the first met), the others by language; sorted by canonical.
 */
function translationsOf(groups: Map<string, Map<string, string>>, defaultLanguage: string): ExportTranslations {
  const written: ExportTranslations = [];
  for (const members of groups.values()) {
    if (members.size < 2) continue;
    const canonicalLanguage = members.has(defaultLanguage) ? defaultLanguage : [...members.keys()][0];
    const translations = Object.fromEntries([...members].filter(([language]) => language !== canonicalLanguage));
    written.push({ canonical: members.get(canonicalLanguage)!, translations });
  }
  return written.sort((a, b) => (a.canonical < b.canonical ? -1 : a.canonical > b.canonical ? 1 : 0));
}
