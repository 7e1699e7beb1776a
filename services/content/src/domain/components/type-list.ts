import { BASIC_CHALLENGE, unauthorized } from '@cms/shared';
import type { ComponentScope } from './scope';

/** Type list entry of the specification (with `id`, as the reference sends it). */
export interface TypeListEntry {
  '@id': string;
  addable: boolean;
  id: string;
  immediately_addable: boolean;
  title: string;
}

/**
 * `@types` on a context: every type users may create, by title, each saying whether the caller may add it
 * here. Authenticated callers only, as in the specification.
 */
export function typeList(scope: ComponentScope): TypeListEntry[] {
  if (!scope.principal) throw unauthorized('Authentication required to list types', BASIC_CHALLENGE);
  const here = scope.types.get(scope.doc.portal_type);
  const allowed = new Set(scope.may('Add portal content') ? scope.types.allowedIn(here).map((type) => type.name) : []);
  const site = scope.url({ path: '/' });
  // The types users may create, by title in the caller's language.
  const listed = scope.types
    .list()
    .filter((type) => type.addable)
    .map((type) => ({ type, title: scope.translate(type.title) }))
    .sort((a, b) => a.title.localeCompare(b.title));
  return listed.map(({ type, title }) => {
    const addable = allowed.has(type.name);
    // The type name goes into the URL as it is (`@types/News Item`), as the reference writes it.
    return {
      '@id': `${site}/@types/${type.name}`,
      addable,
      id: type.name,
      immediately_addable: addable,
      title,
    };
  });
}
