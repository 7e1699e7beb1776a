/**
 * The platform's own words (type, workflow, action and control panel titles) in the caller's language: one
 * gettext catalogue per language, `locales/<language>/LC_MESSAGES/cms.po` beside this package's `src/` and
 * `dist/`, read once per process. A message without a translation is served as written (English).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { po } from 'gettext-parser';
import { negotiateLanguage } from './accept-language';

/** The language of the messages as written in the code. */
export const DEFAULT_LANGUAGE = 'en';
/** The gettext domain of the catalogues. */
const DOMAIN = 'cms';
/** Found the same from `src/i18n` (tests) and `dist/i18n` (the running services). */
export const LOCALES_DIR = join(__dirname, '..', '..', 'locales');

/** One message in the request's language. */
export type Translate = (message: string) => string;

/** The messages of one request: its language and the function that translates into it. */
export interface Translator {
  language: string;
  translate: Translate;
}

export type Catalogue = ReadonlyMap<string, string>;

/** Every catalogue found under `dir`, by language; the message ids with an empty translation are left out. */
export function loadCatalogues(dir: string = LOCALES_DIR): Map<string, Catalogue> {
  const catalogues = new Map<string, Catalogue>();
  if (!existsSync(dir)) return catalogues;
  for (const language of readdirSync(dir)) {
    const file = join(dir, language, 'LC_MESSAGES', `${DOMAIN}.po`);
    if (!existsSync(file)) continue;
    const parsed = po.parse(readFileSync(file));
    const messages = new Map<string, string>();
    // Messages without a context are kept under the empty context; the header entry has the empty id.
    for (const entry of Object.values(parsed.translations[''] ?? {})) {
      const text = entry.msgstr[0];
      if (entry.msgid && text) messages.set(entry.msgid, text);
    }
    catalogues.set(language, messages);
  }
  return catalogues;
}

let loaded: Map<string, Catalogue> | undefined;

/** The catalogues of this process, read on first use. */
export function messageCatalogues(): Map<string, Catalogue> {
  loaded ??= loadCatalogues();
  return loaded;
}

/** The languages messages are served in. */
export function messageLanguages(): string[] {
  return [...new Set([DEFAULT_LANGUAGE, ...messageCatalogues().keys()])].sort();
}

/** Translates into `language`; a message without a translation there is returned as it is. */
export function translatorFor(language: string, catalogues = messageCatalogues()): Translator {
  const catalogue = catalogues.get(language);
  return {
    language,
    translate: catalogue ? (message) => catalogue.get(message) ?? message : (message) => message,
  };
}

/** The translator for a request's `Accept-Language` header (English when it names no language there is). */
export function translatorForRequest(acceptLanguage: string | undefined): Translator {
  return translatorFor(negotiateLanguage(acceptLanguage, messageLanguages(), DEFAULT_LANGUAGE));
}

/** Messages as written: for callers outside a request (events, background work). */
export const UNTRANSLATED: Translator = { language: DEFAULT_LANGUAGE, translate: (message) => message };
