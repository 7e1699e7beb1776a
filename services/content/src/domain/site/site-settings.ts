/**
 * The site's settings that content applies, read from the registry (owned by the config service) on each request
 * that needs them: the site title the site root shows, the types `@navigation` lists, the image scales
 * (`allowed_sizes`), whether editors lock what they edit (`lock_on_ttw_edit`) and the site's language.
 */
import { DEFAULT_SIZES, type ScaleSize } from '../files/image-scales';

export interface SiteSettings {
  /** The site panel's title, which the site root shows as its own; null: the root keeps its stored title. */
  siteTitle: string | null;
  /** The types the navigation lists. */
  displayedTypes: readonly string[];
  /** The image scales, by name. */
  scaleSizes: readonly ScaleSize[];
  /** Whether `POST @lock` takes a lock (the editing panel's `lock_on_ttw_edit`). */
  lockOnEdit: boolean;
  /** The site's language (`default_language`): the default of a type schema's `language` field. */
  defaultLanguage: string;
  /** Whether comments are on for the site (the discussion panel's `globally_enabled`). */
  discussionEnabled: boolean;
}

export interface SiteSettingsSource {
  current(requestId: string): Promise<SiteSettings>;
}

/** The settings of a new site (the registry's defaults), for tests and while the registry cannot be read. */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  siteTitle: null,
  displayedTypes: ['Image', 'File', 'Link', 'News Item', 'Folder', 'Document', 'Event'],
  scaleSizes: DEFAULT_SIZES,
  lockOnEdit: true,
  defaultLanguage: 'en',
  discussionEnabled: false,
};
