/**
 * Shortcuts past mingo in src/adapters/store/document-ops.ts, held to mingo's own answers: plain inclusion and
 * exclusion projections made directly (`project`), and filters matched with the query operators alone (`matcher`).
 */
import { isDeepStrictEqual } from 'node:util';
import { Query, find as mingoFind } from 'mingo';
import { excludedFields, idFirst, includedFields, matcher, project } from '../../src/adapters/store/document-ops';
import type { Document, Filter, Projection } from '../../src/ports/store';

const docs: Document[] = [
  { _id: 'a', title: 'T', n: 2, tags: ['x', 'y'], nested: { k: 1 }, none: null, gone: undefined },
  { _id: 'b', n: 5, tags: [], nested: { k: 2, deep: { z: [1, 2] } } },
  { title: 'no id', n: -1 },
];

const projections: Projection[] = [
  { _id: 1 },
  { title: 1 },
  { _id: 0, n: 1 },
  { n: 1, title: 1, missing: 1 },
  { none: 1, gone: 1 },
  { 'nested.k': 1 },
  { title: 0 },
  { _id: 0 },
  { tags: 0, nested: 0, missing: 0 },
  { _id: 0, none: 0, gone: 0 },
  { 'nested.k': 0 },
];

const filters: Filter[] = [
  { n: { $gt: 1 } },
  { $or: [{ title: { $exists: false } }, { n: { $lt: 0 } }] },
  { tags: { $size: 0 } },
  { 'nested.deep.z': 2 },
  { tags: { $elemMatch: { $eq: 'y' } } },
  { $nor: [{ n: 2 }] },
  { title: { $regex: '^t', $options: 'i' } },
  { $expr: { $gt: ['$n', 1] } },
];

const keyed = (doc: unknown) => JSON.stringify(Object.keys(doc as object));

describe('project', () => {
  it.each(projections)('gives mingo’s projection for %j', (projection) => {
    for (const doc of docs) {
      const expected = idFirst(mingoFind([doc], {}, projection).all()[0] as Document);
      const actual = project(doc, projection);
      expect(isDeepStrictEqual(actual, expected)).toBe(true);
      expect(keyed(actual)).toBe(keyed(expected));
    }
  });

  it('takes plain inclusions itself, and leaves exclusions and dotted paths to mingo', () => {
    expect(includedFields({ b: 1, a: 1, _id: 0 })).toEqual({ id: false, names: ['a', 'b'] });
    expect(includedFields({ a: 0 })).toBeUndefined();
    expect(includedFields({ 'a.b': 1 })).toBeUndefined();
    expect(includedFields({ _id: 0 })).toBeUndefined();
  });

  it('takes plain top-level exclusions itself, and leaves dotted paths and mixed projections to mingo', () => {
    expect(excludedFields({ words: 0, _id: 0 })).toEqual(new Set(['words', '_id']));
    expect(excludedFields({ 'a.b': 0 })).toBeUndefined();
    expect(excludedFields({ a: 0, b: 1 })).toBeUndefined();
  });
});

describe('matcher', () => {
  it.each(filters)('matches as mingo’s Query for %j', (filter) => {
    const ours = matcher(filter);
    const theirs = new Query(filter);
    expect(docs.map((doc) => ours.test(doc))).toEqual(docs.map((doc) => theirs.test(doc)));
  });
});
