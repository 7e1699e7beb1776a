/**
 * The check of base64 in the uploads of addendum §8 (content's files and images, identity's portraits): the
 * standard alphabet, whole groups of four, `=` padding at the end only. A loop, not a regular expression: a
 * backtracking pattern over the groups overflowed the stack on a few megabytes.
 */

/** 1 at the char codes of the standard base64 alphabet (`A-Z a-z 0-9 + /`). */
const ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') ALPHABET[c.charCodeAt(0)] = 1;

/**
 * Whether `text` is base64 in the standard alphabet with its padding (`xx==` or `xxx=` as the last group, or
 * none); the empty string is. No whitespace, no URL-safe alphabet. Time linear in the length, constant stack.
 */
export function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const end = text.length - padding;
  for (let i = 0; i < end; i++) {
    if (ALPHABET[text.charCodeAt(i)] !== 1) return false;
  }
  return true;
}
