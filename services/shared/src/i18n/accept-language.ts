/**
 * Content negotiation of the language (RFC 9110 §12.5.4, with the "lookup" matching of RFC 4647 §3.4): the
 * ranges of an `Accept-Language` header by preference (`q`), each matched to the languages there is a
 * catalogue for, a region dropped when only the language has one (`es-ES` → `es`).
 */

/** Longest header read; what follows is ignored (a client never needs more to state its preferences). */
const MAX_HEADER_LENGTH = 1000;
/** Most ranges read from one header. */
const MAX_RANGES = 50;

interface LanguageRange {
  tag: string;
  quality: number;
}

/** The ranges of the header the caller accepts (q > 0), most preferred first; ties keep the header's order. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranges: LanguageRange[] = [];
  for (const part of header.slice(0, MAX_HEADER_LENGTH).split(',').slice(0, MAX_RANGES)) {
    const [rawTag, ...parameters] = part.split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) continue;
    let quality = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match) quality = Math.min(1, Number(match[1]));
    }
    if (quality > 0) ranges.push({ tag, quality });
  }
  // Array.prototype.sort is stable: equal weights keep the order the client wrote them in.
  return ranges.sort((a, b) => b.quality - a.quality).map((range) => range.tag);
}

/**
 * The language to answer in: the first accepted range that names (or whose language names) one of `available`,
 * else `fallback` (also for `*` and for a header naming nothing available).
 */
export function negotiateLanguage(header: string | undefined, available: readonly string[], fallback: string): string {
  const known = new Map(available.map((language) => [language.toLowerCase(), language]));
  for (const tag of acceptedLanguages(header)) {
    if (tag === '*') return fallback;
    const subtags = tag.split('-');
    for (let length = subtags.length; length > 0; length--) {
      const candidate = subtags.slice(0, length).join('-');
      const language = known.get(candidate);
      if (language) return language;
    }
  }
  return fallback;
}
