/**
 * JSON fields (blocks) are stored as text (field-values.ts). A write of a large page used to parse that text again
 * for each reader: the event's searchable text, the reference index, the links of every GET (about 100-190 ms
 * each for 2,000 blocks of 141 members). The write that makes the text remembers the value it came from, and the
 * readers here share one parse of each large text.
 *
 * What these give is shared: a caller reads it and never changes it (links.ts copies before it replaces a link).
 */

/** Shorter texts parse in well under a millisecond; not worth holding. */
const MIN_REMEMBERED_CHARS = 64 * 1024;
/**
 * The texts of the last writes: the write's own readers and the next reads of the same object find them. Each
 * costs its parsed value's memory (a 2,000-block page of 282,000 members: ~12 MB), so few are kept.
 */
const REMEMBERED_TEXTS = 2;

const remembered: { text: string; value: unknown }[] = [];

/** Keeps `value` as the parse of `text` (its JSON.stringify); a text of the same content is found by equality. */
export function rememberStoredJson(text: string, value: unknown): void {
  if (text.length < MIN_REMEMBERED_CHARS) return;
  const at = remembered.findIndex((entry) => entry.text === text);
  if (at >= 0) remembered.splice(at, 1);
  remembered.unshift({ text, value });
  remembered.length = Math.min(remembered.length, REMEMBERED_TEXTS);
}

/** The stored text as a value, to read only: parsed once while it is among the last few large ones. */
export function readStoredJson(text: string): unknown {
  if (text.length < MIN_REMEMBERED_CHARS) return JSON.parse(text);
  const found = remembered.find((entry) => entry.text === text);
  if (found) return found.value;
  const value: unknown = JSON.parse(text);
  rememberStoredJson(text, value);
  return value;
}

/** The stored text stringified from `value`, remembered so that the write's readers do not parse it again. */
export function storedJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  rememberStoredJson(text, value);
  return text;
}
