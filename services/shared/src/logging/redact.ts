/** A broker URL fit for logs and messages: without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '[unparseable url]';
  }
}
