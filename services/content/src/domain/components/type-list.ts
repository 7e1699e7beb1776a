import { BASIC_CHALLENGE, unauthorized } from '@cms/shared';
import { allowedTypesIn, CONTENT_TYPES, contentType, type ContentType } from '../types';
import type { ComponentScope } from './scope';

/** Type list entry of the specification (with `id`, as the reference sends it). */
export interface TypeListEntry {
  '@id': string;
  addable: boolean;
  id: string;
  immediately_addable: boolean;
  title: string;
}

/** The types users may create, by title; the type definitions are fixed while the service runs. */
let listed: readonly ContentType[] | undefined;
function listedTypes(): readonly ContentType[] {
  listed ??= Object.values(CONTENT_TYPES)
    .filter((type) => type.addable)
    .sort((a, b) => a.title.localeCompare(b.title));
  return listed;
}

/**
 * `@types` on a context: every type users may create, by title, each saying whether the caller may add it
 * here. Authenticated callers only, as in the specification.
 */
export function typeList(scope: ComponentScope): TypeListEntry[] {
  if (!scope.principal) throw unauthorized('Authentication required to list types', BASIC_CHALLENGE);
  const here = contentType(scope.doc.portal_type);
  const allowed = new Set(scope.may('Add portal content') ? allowedTypesIn(here).map((type) => type.name) : []);
  const site = scope.url({ path: '/' });
  return listedTypes().map((type) => {
    const addable = allowed.has(type.name);
    // The type name goes into the URL as it is (`@types/News Item`), as the reference writes it.
    return {
      '@id': `${site}/@types/${type.name}`,
      addable,
      id: type.name,
      immediately_addable: addable,
      title: type.title,
    };
  });
}
