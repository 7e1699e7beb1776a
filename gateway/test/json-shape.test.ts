/**
 * The JSON shape guard (json-shape.ts) measures a body as JSON.parse would build it, from its bytes in any
 * chunking, and refuses at the first byte past a limit.
 */
import fc from 'fast-check';
import { JsonShapeGuard, type JsonShapeLimits } from '../src/json-shape';

const UNBOUNDED: JsonShapeLimits = {
  depth: Infinity,
  objectMembers: Infinity,
  arrayElements: Infinity,
  totalMembers: Infinity,
  keyBytes: Infinity,
  stringBytes: Infinity,
};

/** The shape of a parsed value, measured on the value (string bytes as JSON.stringify writes them). */
function measure(value: unknown): JsonShapeLimits {
  const shape = { depth: 0, objectMembers: 0, arrayElements: 0, totalMembers: 0, keyBytes: 0, stringBytes: 0 };
  const bytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
  const walk = (node: unknown, depth: number) => {
    if (typeof node === 'string') shape.stringBytes = Math.max(shape.stringBytes, bytes(node));
    if (node === null || typeof node !== 'object') return;
    shape.depth = Math.max(shape.depth, depth);
    const entries = Array.isArray(node) ? node.map((v) => ['', v] as const) : Object.entries(node);
    if (Array.isArray(node)) shape.arrayElements = Math.max(shape.arrayElements, entries.length);
    else shape.objectMembers = Math.max(shape.objectMembers, entries.length);
    shape.totalMembers += entries.length;
    for (const [key, child] of entries) {
      if (!Array.isArray(node)) shape.keyBytes = Math.max(shape.keyBytes, bytes(key));
      walk(child, depth + 1);
    }
  };
  walk(value, 1);
  return shape;
}

/** Feeds `text` in chunks cut at `cuts`; the error thrown, or undefined. */
function scan(
  text: string,
  limits: JsonShapeLimits,
  cuts: number[] = [],
): { status: number; message: string } | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const guard = new JsonShapeGuard(limits);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  try {
    for (const to of [...points, bytes.length]) {
      guard.write(bytes.subarray(from, to));
      from = to;
    }
  } catch (error) {
    return { status: (error as { httpStatus: number }).httpStatus, message: (error as Error).message };
  }
  return undefined;
}

const spaced = (value: unknown) => JSON.stringify(value, null, 1).replace(/\n/g, '\r\n\t');

describe('JsonShapeGuard', () => {
  it('passes any JSON within exactly its measured shape, however it is cut and spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat()), fc.boolean(), (value, cuts, space) => {
        const text = space ? spaced(value) : JSON.stringify(value);
        expect(scan(text, measure(value), cuts)).toBeUndefined();
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });

  it('refuses any JSON one past each limit it reaches', () => {
    const limitNames = Object.keys(UNBOUNDED) as Array<keyof JsonShapeLimits>;
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat()), fc.constantFrom(...limitNames), (value, cuts, name) => {
        const shape = measure(value);
        fc.pre(shape[name] > 0);
        const refusal = scan(JSON.stringify(value), { ...UNBOUNDED, [name]: shape[name] - 1 }, cuts);
        expect(refusal?.status).toBe(name === 'depth' ? 400 : 413);
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });

  it('refuses a wide object at the member past the limit, before the rest arrives', () => {
    const limits = { ...UNBOUNDED, objectMembers: 1000 };
    const guard = new JsonShapeGuard(limits);
    guard.write(Buffer.from('{' + Array.from({ length: 1000 }, (_, i) => `"k${i}":${i}`).join(',')));
    expect(() => guard.write(Buffer.from(',"one more":1'))).toThrow(
      'JSON body has an object of more than 1000 members',
    );
  });

  it('counts what is inside strings as text: brackets, commas and escaped quotes', () => {
    const text = JSON.stringify({ a: '{[,],}\\"'.repeat(1000), b: ['"', '\\', '\u2028'] });
    expect(scan(text, { ...UNBOUNDED, objectMembers: 2, arrayElements: 3, totalMembers: 5, depth: 2 })).toBeUndefined();
  });

  it('stops counting at what is not JSON (JSON.parse refuses it; multipart bodies)', () => {
    const multipart = '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n' + '[1,'.repeat(10_000);
    expect(scan(multipart, { ...UNBOUNDED, totalMembers: 1 })).toBeUndefined();
    expect(scan('{"a":1}' + '[1,'.repeat(100), { ...UNBOUNDED, totalMembers: 1 })).toBeUndefined();
  });

  it('names no part of the body in its refusals', () => {
    const key = 'secret'.repeat(100);
    expect(scan(JSON.stringify({ [key]: 1 }), { ...UNBOUNDED, keyBytes: 10 })?.message).toBe(
      'JSON body has a member name of more than 10 bytes',
    );
  });
});
