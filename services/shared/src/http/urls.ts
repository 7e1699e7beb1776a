/** The absolute URL of a site-relative path (`/` is the site root itself). */
export function urlOf(publicUrl: string, path: string): string {
  return path === '/' ? publicUrl : publicUrl + path.split('/').map(encodeURIComponent).join('/');
}
