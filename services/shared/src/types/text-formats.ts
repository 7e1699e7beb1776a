/** The text formats a site offers for rich text: the `AllowableContentTypes` vocabulary of the Markup panel. */
export const TEXT_FORMATS = [
  'text/html',
  'text/plain',
  'text/restructured',
  'text/structured',
  'text/x-rst',
  'text/x-web-intelligent',
  'text/x-web-markdown',
  'text/x-web-textile',
] as const;

/**
 * What a RichText value may say it holds: an offered format, or the safe HTML the original serializes rich text
 * as (a client sends it back as it got it).
 */
export const RICHTEXT_CONTENT_TYPES = [...TEXT_FORMATS, 'text/x-html-safe'] as const;
