/** Content and workflow dates: `YYYY-MM-DDTHH:MM:SS`, UTC, no zone (convention 5). */
export function contentDate(iso: string): string {
  return iso.slice(0, 19);
}
