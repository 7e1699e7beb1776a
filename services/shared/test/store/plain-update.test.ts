/**
 * applyUpdate (src/adapters/store/document-ops.ts) applies the common plain updates ($set, $unset, $inc on plain
 * field paths) itself and leaves the rest to mingo: random documents and random updates, each applied by
 * applyUpdate and by mingo's update to two copies of the document, must leave the same document (key order
 * included), report the same change, and throw alike.
 */
import { isDeepStrictEqual } from 'node:util';
import { update as mingoUpdate } from 'mingo';
import { applyUpdate, deepClone } from '../../src/adapters/store/document-ops';
import type { Document, Update } from '../../src/ports/store';
import { seededRandom } from '../../../../test/support/seeded-random';

function pick<T>(rand: () => number, values: readonly T[]): T {
  return values[Math.floor(rand() * values.length)]!;
}

const KEYS = ['a', 'b', 'c'];
const PATHS = ['a', 'b', 'c', 'a.b', 'a.c', 'b.a', 'a.b.c', 'c.0', 'c.1', 'a.$', '_id', '_id.x', 'd'];

function value(rand: () => number, depth: number): unknown {
  const r = rand();
  if (r < 0.15) return pick(rand, ['', 'x', 'y']);
  if (r < 0.35) return pick(rand, [0, 1, -2, 1.5]);
  if (r < 0.42) return rand() < 0.5;
  if (r < 0.5) return null;
  if (r < 0.55) return new Date(pick(rand, [0, 86_400_000]));
  if (r < 0.7 && depth < 2) return [value(rand, depth + 1), value(rand, depth + 1)].slice(0, Math.floor(rand() * 3));
  if (depth < 2) {
    const obj: Record<string, unknown> = {};
    for (const key of KEYS) if (rand() < 0.5) obj[key] = value(rand, depth + 1);
    return obj;
  }
  return 'z';
}

function document(rand: () => number): Document {
  const doc: Document = { _id: 'id' };
  for (const key of KEYS) if (rand() < 0.7) doc[key] = value(rand, 0);
  return doc;
}

function update(rand: () => number): Update {
  const ops = ['$set', '$unset', '$inc'];
  if (rand() < 0.1) ops.push('$push');
  const result: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    if (rand() < 0.5) continue;
    const fields: Record<string, unknown> = {};
    const count = 1 + Math.floor(rand() * 2);
    for (let i = 0; i < count; i++) {
      const path = pick(rand, PATHS);
      if (op === '$inc') fields[path] = rand() < 0.9 ? pick(rand, [1, -1, 0, 2.5]) : 'one';
      else if (op === '$unset') fields[path] = '';
      else fields[path] = rand() < 0.1 ? undefined : value(rand, 1);
    }
    result[op] = fields;
  }
  if (Object.keys(result).length === 0) result.$set = { a: value(rand, 1) };
  return result as Update;
}

type Outcome = { changed: boolean; doc: Document } | { error: true };

function byApplyUpdate(doc: Document, change: Update): Outcome {
  const copy = deepClone(doc);
  try {
    return { changed: applyUpdate(copy, change), doc: copy };
  } catch {
    return { error: true };
  }
}

/** mingo alone, after the same checks applyUpdate makes first (those throw before either path runs). */
function byMingo(doc: Document, change: Update, checked: Outcome): Outcome {
  if ('error' in checked) return checked;
  const copy = deepClone(doc);
  try {
    const fields = mingoUpdate(copy, change as Parameters<typeof mingoUpdate>[1], undefined, undefined, {
      cloneMode: 'deep',
    });
    return { changed: fields.length > 0, doc: copy };
  } catch {
    return { error: true };
  }
}

/** Same outcome, the documents compared with their key order. */
function same(a: Outcome, b: Outcome): boolean {
  if ('error' in a || 'error' in b) return 'error' in a && 'error' in b;
  return a.changed === b.changed && isDeepStrictEqual(a.doc, b.doc) && isDeepStrictEqual(keys(a.doc), keys(b.doc));
}

function keys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.entries(value).map(([k, v]) => [k, keys(v)]);
  }
  return null;
}

describe('applyUpdate against mingo', () => {
  it('gives mingo’s result for random documents and updates', () => {
    const rand = seededRandom(27);
    let changed = 0;
    for (let i = 0; i < 5000; i++) {
      const doc = document(rand);
      const change = update(rand);
      const ours = byApplyUpdate(doc, change);
      const theirs = byMingo(doc, change, ours);
      if (!same(ours, theirs)) {
        throw new Error(
          `case ${i}: ${JSON.stringify(doc)} with ${JSON.stringify(change)}: ` +
            `applyUpdate ${JSON.stringify(ours)}, mingo ${JSON.stringify(theirs)}`,
        );
      }
      if (!('error' in ours) && ours.changed) changed += 1;
    }
    // The cases are not all refusals or no-ops.
    expect(changed).toBeGreaterThan(1000);
  });

  it.each<[string, Document, Update, Document, boolean]>([
    ['sets a new nested field', { _id: '1' }, { $set: { 'a.b': 1 } }, { _id: '1', a: { b: 1 } }, true],
    [
      'leaves an equal value',
      { _id: '1', a: { b: [1] } },
      { $set: { a: { b: [1] } } },
      { _id: '1', a: { b: [1] } },
      false,
    ],
    [
      'unsets, then increments a missing field',
      { _id: '1', a: 1 },
      { $unset: { a: '' }, $inc: { n: 2 } },
      { _id: '1', n: 2 },
      true,
    ],
    ['unsets a missing path', { _id: '1', a: 1 }, { $unset: { 'b.c': '' } }, { _id: '1', a: 1 }, false],
  ])('%s', (_name, doc, change, expected, changed) => {
    const copy = deepClone(doc);
    expect(applyUpdate(copy, change)).toBe(changed);
    expect(copy).toEqual(expected);
  });

  it('copies the values it sets, so the caller’s update stays apart from the document', () => {
    const doc: Document = { _id: '1' };
    const list = [{ x: 1 }];
    applyUpdate(doc, { $set: { list } });
    list[0].x = 2;
    expect(doc.list).toEqual([{ x: 1 }]);
  });
});
