/**
 * Blocks (Volto's page model): `blocks` maps a block id to its data, each with its `@type`; `blocks_layout.items`
 * orders the ids. The behavior `blocks` (and `blocks.editable.layout`, the same fields where the layout may be
 * edited per object) switches them on for a type.
 */
import type { FieldError } from '../errors/app-error';
import type { FieldDef } from './fields';

/** At most this many blocks on one object: a page of hundreds is already extreme. */
export const MAX_BLOCKS = 2_000;
const MAX_BLOCK_ID_LENGTH = 100;

export const BLOCKS_FIELDS: readonly FieldDef[] = [
  {
    name: 'blocks',
    kind: 'json',
    title: 'Blocks',
    description: 'The blocks of the page, by id.',
    default: {},
    fieldset: 'layout',
  },
  {
    name: 'blocks_layout',
    kind: 'json',
    title: 'Blocks Layout',
    description: 'The order of the blocks.',
    default: { items: [] },
    fieldset: 'layout',
  },
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `blocks` and `blocks_layout` as they would be stored: their shapes, and every laid-out id a block. */
export function blocksInvariants(values: Readonly<Record<string, unknown>>): FieldError[] {
  const { blocks, blocks_layout: layout } = values;
  const errors: FieldError[] = [];
  if (blocks !== undefined && blocks !== null) {
    if (!isObject(blocks)) {
      errors.push({ field: 'blocks', message: 'must be an object of block id to block' });
    } else {
      const ids = Object.keys(blocks);
      if (ids.length > MAX_BLOCKS) errors.push({ field: 'blocks', message: `at most ${MAX_BLOCKS} blocks` });
      for (const id of ids.slice(0, MAX_BLOCKS)) {
        const block = blocks[id];
        if (id.length === 0 || id.length > MAX_BLOCK_ID_LENGTH) {
          errors.push({ field: 'blocks', message: `block ids are 1 to ${MAX_BLOCK_ID_LENGTH} characters` });
        } else if (!isObject(block) || typeof block['@type'] !== 'string' || block['@type'] === '') {
          errors.push({ field: `blocks.${id}`, message: 'a block is an object with its "@type"' });
        }
        if (errors.length >= 10) break;
      }
    }
  }
  if (layout !== undefined && layout !== null) {
    const items = isObject(layout) ? layout.items : undefined;
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
      errors.push({ field: 'blocks_layout', message: 'must be {"items": [block ids]}' });
    } else if (isObject(blocks)) {
      const missing = items.find((id) => !Object.prototype.hasOwnProperty.call(blocks, id));
      if (missing !== undefined) {
        errors.push({ field: 'blocks_layout.items', message: `lays out a block that is not in "blocks"` });
      }
    } else if (items.length > 0) {
      errors.push({ field: 'blocks_layout.items', message: 'lays out blocks, but there are none' });
    }
  }
  return errors;
}

/** The words of a page's blocks, for full-text search: their plain text and titles, in layout order. */
export function blocksText(blocks: unknown, layout: unknown): string[] {
  if (!isObject(blocks)) return [];
  const order =
    isObject(layout) && Array.isArray(layout.items) ? (layout.items as unknown[]).map(String) : Object.keys(blocks);
  const parts: string[] = [];
  for (const id of order) {
    const block = blocks[id];
    if (!isObject(block)) continue;
    for (const key of ['plaintext', 'title', 'description', 'text']) {
      const value = block[key];
      if (typeof value === 'string') parts.push(value);
    }
  }
  return parts;
}

/** The front page of a new site: a title block and a text block, so that it renders as a page. */
export function siteRootBlocks(title: string): { blocks: Record<string, unknown>; blocks_layout: { items: string[] } } {
  const text = `Welcome to ${title}.`;
  return {
    blocks: {
      'c4a6c5cf-2c6a-4b73-9f69-1c5bb1a3a1d0': { '@type': 'title' },
      'e2b2b1c9-4c4e-4dcd-b0c8-6a1a2f3a9f11': {
        '@type': 'slate',
        plaintext: text,
        value: [{ type: 'p', children: [{ text }] }],
      },
    },
    blocks_layout: { items: ['c4a6c5cf-2c6a-4b73-9f69-1c5bb1a3a1d0', 'e2b2b1c9-4c4e-4dcd-b0c8-6a1a2f3a9f11'] },
  };
}
