/** The `items` of a search answer, in the form asked for: summaries with columns, or full objects. */
import type { Principal__Output } from '@cms/shared';
import type { FullObjects } from '../clients/content-render';
import type { CatalogEntry } from '../domain/catalog-entry';
import { resultItem } from '../domain/metadata';

export interface ItemsForm {
  fullobjects: boolean;
  columns: readonly string[];
  principal: Principal__Output | null;
  publicUrl: string;
  requestId: string;
}

export async function resultItems(entries: CatalogEntry[], form: ItemsForm, content: FullObjects) {
  if (!form.fullobjects) return entries.map((e) => resultItem(e, form.publicUrl, form.columns));
  // One call for the batch; content leaves out what the caller may no longer view.
  const rendered = await content.render(
    entries.map((e) => e._id),
    form.principal,
    form.publicUrl,
    form.requestId,
  );
  return entries.flatMap((e) => {
    const full = rendered.get(e._id);
    return full ? [full] : [];
  });
}
