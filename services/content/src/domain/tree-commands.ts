import { AppError } from '@cms/shared';
import { z } from 'zod';
import type { Caller } from './content-commands';
import type { ContentDoc } from './model';

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

/** Operations on the shape of the tree: order within a folder, rename, copy, move. */
export class TreeCommands {
  /** Applies a folder PATCH's `ordering` and/or `sort` to the children of `folder`. */
  async order(_folder: ContentDoc, _input: { ordering?: OrderingInput; sort?: SortInput }, _caller: Caller) {
    throw new AppError('InternalServerError', 'ordering: being built');
  }

  /** Changes an object's id (PATCH with `id`); its subtree moves with it. */
  async rename(_doc: ContentDoc, _newId: string, _caller: Caller): Promise<ContentDoc> {
    throw new AppError('InternalServerError', 'rename: being built');
  }
}
