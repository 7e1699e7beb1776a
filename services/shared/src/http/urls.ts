/** An unpaired UTF-16 surrogate: JSON may decode one, and `encodeURI`/`encodeURIComponent` throw on it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with every lone surrogate replaced by U+FFFD, so that any percent-encoding or UTF-8 encoding accepts it. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** `encodeURIComponent` that never throws: a lone surrogate is encoded as U+FFFD (`%EF%BF%BD`). */
export function encodeComponent(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

/** The absolute URL of a site-relative path (`/` is the site root itself). */
export function urlOf(publicUrl: string, path: string): string {
  return path === '/' ? publicUrl : publicUrl + path.split('/').map(encodeComponent).join('/');
}
