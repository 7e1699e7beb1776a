/**
 * The append log's record of a document (src/adapters/store/embedded/append-log.ts) is NeDB's serialisation, taken
 * as plain JSON when the document holds no date: the same line for documents with and without dates at any depth.
 */
import { createRequire } from 'node:module';
import { documentRecord } from '../../src/adapters/store/embedded/append-log';
import type { Document } from '../../src/ports/store';

const nedbModel = createRequire(__filename)('@seald-io/nedb/lib/model.js') as { serialize(doc: unknown): string };

const when = new Date(Date.UTC(2026, 10, 28, 6, 0, 0));

describe('documentRecord', () => {
  it.each<[string, Document]>([
    ['flat, no date', { _id: 'a', title: 'T', n: 1.5, ok: true, none: null }],
    ['nested objects and arrays, no date', { _id: 'b', a: { b: [1, 'x', { c: null }], d: {} }, e: [] }],
    ['undefined values', { _id: 'c', gone: undefined, list: [undefined, 1] }],
    ['a date at the top', { _id: 'd', created: when }],
    ['a date deep in an array', { _id: 'e', history: [{ at: 'x' }, { at: when }] }],
    ['non-ASCII text', { _id: 'f', title: 'é ✓ 𝄞', quote: '"\\\n' }],
  ])('%s: the line NeDB writes', (_name, doc) => {
    expect(documentRecord(doc)).toBe(nedbModel.serialize(doc));
  });

  it('writes dates as NeDB does, so they are dates again when the file is read', () => {
    expect(documentRecord({ _id: 'g', at: [when] })).toBe(`{"_id":"g","at":[{"$$date":${when.getTime()}}]}`);
  });
});
