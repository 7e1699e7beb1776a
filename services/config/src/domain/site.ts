import type { JsonValue } from './records';
import type { Registry } from './registry';

/** The settings `@site` shows every visitor, as the reference platform does: nothing secret among them. */
export const PUBLIC_SITE_RECORDS = [
  'cms.allowed_sizes',
  'cms.available_languages',
  'cms.default_language',
  'cms.portal_timezone',
  'cms.robots_txt',
  'cms.site_logo',
  'cms.site_title',
] as const;

export interface SiteInfo {
  features: { filter_aliases_by_date: boolean; multilingual: boolean };
  [setting: string]: JsonValue | SiteInfo['features'];
}

/** The site is multilingual once two or more languages are available (addendum §3). */
export function isMultilingual(availableLanguages: JsonValue): boolean {
  return Array.isArray(availableLanguages) && availableLanguages.length >= 2;
}

export async function siteInfo(registry: Registry): Promise<SiteInfo> {
  const values = await registry.values(PUBLIC_SITE_RECORDS);
  return {
    features: {
      // Aliases (redirects) are listed with the date they were made, so a client may filter them by it.
      filter_aliases_by_date: true,
      multilingual: isMultilingual(values['cms.available_languages']!),
    },
    ...values,
  };
}
