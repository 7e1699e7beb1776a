/**
 * The vocabularies whose terms the config service knows itself (languages, time zones, editors), so that
 * records choosing from them are validated here and panels can show each choice as `{title, token}`.
 */

export const LANGUAGES_VOCABULARY = 'cms.app.vocabularies.AvailableContentLanguages';
export const COMMON_TIMEZONES_VOCABULARY = 'cms.app.vocabularies.CommonTimezones';
export const TIMEZONES_VOCABULARY = 'cms.app.vocabularies.Timezones';
export const EDITORS_VOCABULARY = 'cms.app.vocabularies.AvailableEditors';

/** ISO 639-1 codes, plus the country variants sites use most (`use_combined_language_codes`). */
export const LANGUAGE_CODES: readonly string[] = [
  ...'aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(
    ' ',
  ),
  ...'de-at de-ch en-au en-ca en-gb en-us es-ar es-es es-mx fr-be fr-ca fr-ch nl-be pt-br pt-pt zh-cn zh-tw'.split(' '),
];

/** Every IANA zone the runtime knows, with `UTC` (which `Intl` lists as `Etc/UTC` on some versions). */
export const TIMEZONES: readonly string[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort();

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** The title of a term of a vocabulary known here; the token itself when it has no other. */
export function termTitle(vocabulary: string, token: string): string {
  if (vocabulary === LANGUAGES_VOCABULARY) {
    try {
      return languageNames.of(token) ?? token;
    } catch {
      return token;
    }
  }
  return token;
}
