/**
 * The values the fuzzer puts in requests, as fast-check arbitraries: ordinary, odd and hostile strings (lone
 * surrogates, prototype names), numbers JavaScript cannot hold, and values made to break what is behind a schema
 * (nesting, size, width, member names).
 */
import fc from 'fast-check';
import { Deep, Huge, Obj, Raw, Wide, obj, type Value } from './json';

export const KiB = 1024;

export const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\ude00b', '\udbff\udbff', 'x\ud800y\udc00z'];
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

/** Strings a field may be given: ordinary, odd, hostile. */
export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('Fuzz', 'hello world', 'x', '', ' ', 'Title with ü and 中文 and 😀') },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...LONE_SURROGATES) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<script>alert(1)</script>',
      '../../etc/passwd',
      '\u0000',
      '\u202e',
      '%00',
      'null',
      '{"a":1}',
      '2030-01-01T00:00:00',
      'not-a-date',
      '9999-99-99T99:99:99',
      'http://',
      'javascript:alert(1)',
    ),
  },
);

/** A string of `length` characters from one unit, for the huge cases (made when sent). */
export const hugeText = (max: number): fc.Arbitrary<Value> =>
  fc
    .tuple(fc.integer({ min: 1 * KiB, max }), fc.constantFrom('x', 'ü', '😀', '\ud800', '\\', '"', ' '))
    .map(([length, unit]) => new Huge(length, unit));

/** Numbers as JSON text, including those JavaScript cannot hold. */
export const number: fc.Arbitrary<Value> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 25, 2 ** 31, 2 ** 53, -(2 ** 53), 0.5, 1e308, -1e308, Number.MIN_VALUE),
  fc
    .constantFrom('1e400', '-1e400', '-0', '1e-400', '123456789012345678901234567890', '0.1e1', '1E2', '-0.0')
    .map((t) => new Raw(t)),
  fc.integer({ min: 1000, max: 100_000 }).map((digits) => new Raw('9'.repeat(digits))),
);

/** An object of hostile member names. */
export const prototypeObject: fc.Arbitrary<Value> = fc.constantFrom(
  new Obj([['__proto__', obj({ polluted: true, isAdmin: true, roles: ['Manager'] })]]),
  new Obj([['constructor', obj({ prototype: obj({ polluted: true }) })]]),
  new Obj([
    ['__proto__', null],
    ['toString', 'x'],
    ['hasOwnProperty', 1],
  ]),
  new Obj([
    ['a', 1],
    ['a', 2],
  ]),
  new Obj([['', '']]),
  new Obj(LONE_SURROGATES.map((key) => [key, key] as const)),
);

/** Any value a field may be given. */
export const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: text },
    { weight: 3, arbitrary: number },
    { weight: 2, arbitrary: fc.constantFrom<Value>(null, true, false) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(text, fc.constantFrom(...PROTOTYPE_NAMES)), tie('value')), { maxLength: 4 })
        .map((members) => new Obj(members)),
    },
    { weight: 1, arbitrary: prototypeObject },
    { weight: 1, arbitrary: hugeText(256 * KiB) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 10, max: 20_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([depth, shape]) => new Deep(depth, shape)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 10, max: 20_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'), text)
        .map(([count, shape, item]) => new Wide(count, shape, item)),
    },
  ),
})).value;

/** The values made to break something behind a schema: nesting, size, width, member names, code units, types. */
export const hostile: fc.Arbitrary<Value> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(64, 200, 1000, 5000, 20_000, 100_000),
        fc.constantFrom<'array' | 'object'>('array', 'object'),
      )
      .map(([depth, shape]) => new Deep(depth, shape)),
  },
  hugeText(1024 * KiB),
  fc
    .tuple(fc.constantFrom(1000, 10_000, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
    .map(([count, shape]) => new Wide(count, shape, 'x')),
  prototypeObject,
  fc.constantFrom<Value>(...LONE_SURROGATES),
  number,
  fc.constantFrom<Value>(null, true, [], obj({}), '', [null], [[]]),
);

/** Ids of content, users, groups: plausible, odd and hostile. */
export const id: fc.Arbitrary<Value> = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/) },
  { weight: 1, arbitrary: fc.constantFrom('folder', 'doc', 'sub', 'image', 'file', 'news', 'item', 'fuzz-victim') },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '_private', '@@view', '++api++', 'a/b', 'con', 'a'.repeat(300)) },
  { weight: 1, arbitrary: value },
);
