/** ES2024 string methods (Node 20 has them; this project's lib is ES2023). */
interface WellFormedText {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * The text with every lone surrogate (JSON may decode one; `encodeURI`/`encodeURIComponent` throw on it)
 * replaced by U+FFFD, so that any percent-encoding or UTF-8 encoding accepts it.
 */
export function wellFormed(text: string): string {
  const checked = text as unknown as WellFormedText;
  return checked.isWellFormed() ? text : checked.toWellFormed();
}

/** `encodeURIComponent` that never throws: a lone surrogate is encoded as U+FFFD (`%EF%BF%BD`). */
export function encodeComponent(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // Only a lone surrogate makes it throw: the hot path (every @id) pays nothing for this.
    return encodeURIComponent(wellFormed(text));
  }
}

/** The absolute URL of a site-relative path (`/` is the site root itself). */
export function urlOf(publicUrl: string, path: string): string {
  return path === '/' ? publicUrl : publicUrl + path.split('/').map(encodeComponent).join('/');
}
