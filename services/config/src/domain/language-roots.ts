import type { RecordsEffect } from './registry';
import { isMultilingual } from './site';

/** The language panel's record of the languages the site is translatable into. */
export const AVAILABLE_LANGUAGES = 'cms.available_languages';

/** The content service's language root folders. */
export interface LanguageRoots {
  /** Makes a root folder at `/<code>` for each language that has none; answers their paths. */
  ensure(languages: readonly string[], requestId: string): Promise<string[]>;
}

/**
 * Multilingual on (addendum §3, §8): a write making two or more languages available has their root folders
 * made by content before it is stored, so they exist once it has answered; if content cannot make them, the
 * write fails and nothing is stored. Fewer languages need nothing: removing a language keeps its content.
 */
export function languageRootsEffect(roots: LanguageRoots): RecordsEffect {
  return async (values, requestId) => {
    const languages = values.get(AVAILABLE_LANGUAGES);
    if (languages === undefined || !isMultilingual(languages) || !Array.isArray(languages)) return;
    await roots.ensure(languages.map(String), requestId);
  };
}
