import { neutralBehavior } from '@cms/shared';
import type { ContentDoc } from '../content/model';
import { LANGUAGE_ROOT_TYPE } from '../translations/translations';
import { BEHAVIORS, SITE_ROOT_TYPE } from '../types';
import type { ComponentScope } from './scope';

/** The navigation-root behavior: the site root and the language root folders are navigation roots whatever their type lists. */
const NAVIGATION_ROOT = 'cms.navigationroot';

/**
 * `@inherit?expand.inherit.behaviors=a,b`: for each behavior named, the values of its fields on the nearest object
 * that has it — the context itself, then its parents up to the site root — skipping those the caller may not view
 * (as the original does). A name that is no behavior, or that nothing on the path has, is left out; the keys are
 * the names as given (either identifier form), as the original echoes them.
 *
 * `render` is the object's serialization (its fields as GET shows them): the behavior's values are taken from it,
 * so an image or a link reads the same here as on the object itself.
 */
export async function inherit(
  scope: ComponentScope,
  names: readonly string[],
  render: (doc: ContentDoc) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  // Nothing named, nothing to show: the original answers an empty object.
  if (names.length === 0) return {};
  const query = names.map(encodeURIComponent).join(',');
  const result: Record<string, unknown> = {
    '@id': `${scope.url(scope.doc)}/@inherit?expand.inherit.behaviors=${query}`,
  };
  // Nearest first: the context, its parent, ... the site root.
  const path = (await scope.chain()).reverse();
  const rendered = new Map<string, Promise<Record<string, unknown>>>();
  for (const name of names) {
    const behavior = neutralBehavior(name);
    const def = Object.prototype.hasOwnProperty.call(BEHAVIORS, behavior) ? BEHAVIORS[behavior] : undefined;
    if (!def) continue;
    const closest = path.find((doc) => provides(scope, doc, behavior) && scope.may('View', doc));
    if (!closest) continue;
    // Several behaviors often come from the same object: it is serialized once.
    const serialized = rendered.get(closest._id) ?? render(closest);
    rendered.set(closest._id, serialized);
    const body = await serialized;
    const data = Object.fromEntries(def.fields.filter((f) => f.name in body).map((f) => [f.name, body[f.name]]));
    result[name] = { from: { '@id': scope.url(closest), title: closest.title }, data };
  }
  return result;
}

/** Whether an object has a behavior: its type lists it (a type removed from the site has none). */
function provides(scope: ComponentScope, doc: ContentDoc, behavior: string): boolean {
  if (behavior === NAVIGATION_ROOT && (doc.portal_type === SITE_ROOT_TYPE || doc.portal_type === LANGUAGE_ROOT_TYPE))
    return true;
  return scope.types.find(doc.portal_type)?.behaviors.includes(behavior) ?? false;
}
