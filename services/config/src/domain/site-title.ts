import type { RecordsEffect } from './registry';

/** The site panel's record of the site's title. */
export const SITE_TITLE = 'cms.site_title';

/** The content service's site root. */
export interface SiteRootTitle {
  /** Gives the site root this title. */
  set(title: string, requestId: string): Promise<void>;
}

/**
 * The site title takes effect on the site root: a write of `cms.site_title` has content give the site root that
 * title before it is stored, so both name the site alike once it has answered; if content cannot, the write fails
 * and nothing is stored (as the reference platform keeps them in step).
 */
export function siteTitleEffect(root: SiteRootTitle): RecordsEffect {
  return async (values, requestId) => {
    const title = values.get(SITE_TITLE);
    if (typeof title === 'string') await root.set(title, requestId);
  };
}
