/**
 * PostgreSQL's text and jsonb cannot hold the character U+0000, which MongoDB and the embedded engine store like
 * any other. The adapter stores it escaped, losslessly: U+0000 as U+E000 '0', and U+E000 itself (a private-use
 * character) as U+E000 '1'. Strings holding neither, nearly all of them, are stored as they are, so queries on
 * them are unaffected; filter values are escaped the same way, so equality on escaped strings holds too.
 */
const ESCAPE = '\uE000';

/** Escapes the JSON text of a document or a value (JSON.stringify's output: U+0000 appears as `\u0000`). */
export function escapeJson(json: string): string {
  if (!json.includes('\\u0000') && !json.includes(ESCAPE)) return json;
  // Escape sequences are read left to right, so `\\u0000` (a backslash, then "u0000") is left alone.
  return json.replace(/\\(?:u0000|[^])|\uE000/g, (match) => {
    if (match === ESCAPE) return `${ESCAPE}1`;
    return match === '\\u0000' ? `${ESCAPE}0` : match;
  });
}

/** Reverses escapeJson on JSON text read back (U+E000 never appears escaped in PostgreSQL's JSON output). */
export function unescapeJson(json: string): string {
  if (!json.includes(ESCAPE)) return json;
  return json.replace(/\uE000([01])/g, (_match, kind: string) => (kind === '0' ? '\\u0000' : ESCAPE));
}

/** Escapes a plain string (an `_id` in the text column). */
export function escapeText(text: string): string {
  if (!text.includes('\u0000') && !text.includes(ESCAPE)) return text;
  return text
    .split(ESCAPE)
    .map((part) => part.split('\u0000').join(`${ESCAPE}0`))
    .join(`${ESCAPE}1`);
}

/** Reverses escapeText. */
export function unescapeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\uE000([01])/g, (_match, kind: string) => (kind === '0' ? '\u0000' : ESCAPE));
}
