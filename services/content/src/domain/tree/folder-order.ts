/**
 * The order of a folder's items (PATCH with `ordering` / `sort`). A new order is worked out and checked
 * against the children first; the folder's own write records it (`order_pending`, with the folder's other
 * changes); then the children whose position changes are written, each with its `content.ordered` event,
 * and the record is cleared. A re-ordering cut short is finished by the sweep.
 */
import { badRequest } from '@cms/shared';
import { z } from 'zod';
import { orderedEvent } from '../content/content-events';
import type { ContentDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import type { ContentType } from '../types';
import { SYSTEM_WRITE, type ContentWriter } from '../content/write-path';

/** `ordering` of a folder PATCH: move one child by `delta` places (or to the top/bottom) among `subset_ids`. */
export const orderingSchema = z
  .object({
    obj_id: z.string().min(1),
    delta: z.union([z.literal('top'), z.literal('bottom'), z.number().int()]),
    subset_ids: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** `sort` of a folder PATCH: re-sort every child by one field. */
export const sortSchema = z
  .object({
    on: z.string().min(1),
    order: z.enum(['ascending', 'descending', 'reverse']).default('ascending'),
  })
  .strict();

export type OrderingInput = z.infer<typeof orderingSchema>;
export type SortInput = z.infer<typeof sortSchema>;

/** A folder PATCH's members that re-order its items. */
export interface OrderInput {
  ordering?: OrderingInput;
  sort?: SortInput;
}

/** Fields a folder can be re-sorted on; anything else is 400. */
const SORTABLE: Record<string, (doc: ContentDoc) => string | number> = {
  id: (d) => d.id,
  title: (d) => d.title.toLowerCase(),
  sortable_title: (d) => d.title.toLowerCase(),
  description: (d) => d.description,
  created: (d) => d.created,
  modified: (d) => d.modified,
  effective: (d) => d.effective ?? '',
  expires: (d) => d.expires ?? '',
  portal_type: (d) => d.portal_type,
  review_state: (d) => d.review_state ?? '',
  getObjPositionInParent: (d) => d.position,
};

export class FolderOrdering {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
  ) {}

  /**
   * The UIDs of the folder's children in the order `input` asks for, checked against the children as they
   * are (400 when it does not fit them); null when the order would not change. Writes nothing.
   */
  async plan(folder: ContentDoc, type: ContentType, input: OrderInput): Promise<string[] | null> {
    if (!type.folderish) {
      throw badRequest(`${folder.portal_type} "${folder.id}" is not a folder: it has no items to order`, [
        { field: input.ordering ? 'ordering' : 'sort', message: 'not a folder' },
      ]);
    }
    const current = await this.repo.allChildren(folder._id);
    let children = current;
    if (input.sort) children = sorted(children, input.sort);
    if (input.ordering) children = reordered(children, input.ordering);
    const order = children.map((c) => c._id);
    return order.some((uid, i) => uid !== current[i]._id) ? order : null;
  }

  /**
   * Follow-up of the folder's write: gives the children the order recorded in its `order_pending`, re-using
   * the positions they hold now (so the folder's next free position stays free) and writing only the
   * children whose position changes; then clears the record.
   */
  async apply(folderUid: string, requestId: string): Promise<void> {
    const folder = await this.repo.byUid(folderUid);
    if (!folder?.order_pending) return;
    const pending = folder.order_pending;
    const children = await this.repo.allChildren(folderUid);
    const byUid = new Map(children.map((c) => [c._id, c]));
    // Children added or removed since the order was recorded keep their place after the ordered ones.
    const ordered = [
      ...pending.flatMap((uid) => byUid.get(uid) ?? []),
      ...children.filter((c) => !pending.includes(c._id)),
    ];
    const positions = children.map((c) => c.position).sort((a, b) => a - b);
    const flushes = this.writer.deferFlushes();
    for (const [index, child] of ordered.entries()) {
      const position = positions[index];
      await this.writer.write(
        child,
        {
          kind: 'position',
          plan: (current) =>
            current.position === position
              ? null
              : { set: { position }, events: (next) => [orderedEvent(next, requestId)] },
        },
        SYSTEM_WRITE,
        flushes,
      );
    }
    await this.repo.clearOrderPending(folderUid, folder.version);
    await flushes.flush();
  }

  /** Finishes re-orderings a crash left half written. */
  async sweep(requestId: string): Promise<number> {
    const pending = await this.repo.pendingOrders();
    for (const folder of pending) await this.apply(folder._id, requestId);
    return pending.length;
  }
}

function sorted(children: ContentDoc[], sort: SortInput): ContentDoc[] {
  const key = SORTABLE[sort.on];
  if (!key) {
    throw badRequest(`Cannot sort on "${sort.on}"; use one of ${Object.keys(SORTABLE).join(', ')}`, [
      { field: 'sort.on', message: 'unknown sort field' },
    ]);
  }
  const direction = sort.order === 'ascending' ? 1 : -1;
  return [...children].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -1 : x > y ? 1 : 0) * direction;
  });
}

/**
 * Moves `obj_id` by `delta` places (a number, or `top`/`bottom`) among
 * `subset_ids` (the ids the client saw, in the order it saw them), or among
 * all children when there is no subset.
 */
function reordered(children: ContentDoc[], ordering: OrderingInput): ContentDoc[] {
  const ids = children.map((c) => c.id);
  if (!ids.includes(ordering.obj_id)) {
    throw badRequest(`No item "${ordering.obj_id}" in this folder`, [
      { field: 'ordering.obj_id', message: 'not in this folder' },
    ]);
  }
  const subset = ordering.subset_ids ?? ids;
  const missing = subset.filter((id) => !ids.includes(id));
  if (missing.length) {
    throw badRequest(`Not in this folder: ${missing.join(', ')}`, [
      { field: 'ordering.subset_ids', message: 'unknown ids' },
    ]);
  }
  if (!subset.includes(ordering.obj_id)) {
    throw badRequest(`"${ordering.obj_id}" is not in subset_ids`, [
      { field: 'ordering.subset_ids', message: 'must contain obj_id' },
    ]);
  }
  const current = ids.filter((id) => subset.includes(id));
  if (current.join('/') !== subset.join('/')) {
    throw badRequest('Client/server ordering mismatch: the folder changed since it was read', [
      { field: 'ordering.subset_ids', message: 'not the current order' },
    ]);
  }
  // `top` and `bottom` are the largest moves, within the subset as any other (as the original turns them into
  // a delta of the folder's size): the items outside the subset keep their places.
  const delta = ordering.delta === 'top' ? -ids.length : ordering.delta === 'bottom' ? ids.length : ordering.delta;
  const within = current.filter((id) => id !== ordering.obj_id);
  const from = current.indexOf(ordering.obj_id);
  const to = Math.max(0, Math.min(within.length, from + delta));
  within.splice(to, 0, ordering.obj_id);
  // The subset's slots in the whole list take the subset's new order.
  let next = 0;
  const order = ids.map((id) => (subset.includes(id) ? within[next++] : id));
  const byId = new Map(children.map((c) => [c.id, c]));
  return order.map((id) => byId.get(id) as ContentDoc);
}
