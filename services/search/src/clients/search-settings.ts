import type { RegistrySettings } from '@cms/shared';

/** The search control panel's settings that `use_site_search_settings=1` applies. */
export interface SiteSearchSettings {
  /** Types a search using the site's settings does not find. */
  typesNotSearched: string[];
  /** The default order: `relevance`, `Date` (newest first) or a sort index. */
  sortOn: string;
}

export interface SiteSearchSource {
  current(requestId: string): Promise<SiteSearchSettings>;
}

const TYPES_NOT_SEARCHED = 'cms.types_not_searched';
const SORT_ON = 'cms.sort_on';

/** Read through the registry cache (RegistrySettings), made on first use; a value of another shape is the default. */
export function registrySearchSettings(registry: () => RegistrySettings): SiteSearchSource {
  return {
    async current(requestId) {
      const values = await registry().get([TYPES_NOT_SEARCHED, SORT_ON], requestId);
      const types = values[TYPES_NOT_SEARCHED];
      const sortOn = values[SORT_ON];
      return {
        typesNotSearched: Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [],
        sortOn: typeof sortOn === 'string' && sortOn ? sortOn : 'relevance',
      };
    },
  };
}
