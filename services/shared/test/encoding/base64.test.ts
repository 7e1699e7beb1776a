import { isBase64 } from '../../src/encoding/base64';

/** The pattern the check replaces: right on short input, but it overflowed the stack on a few megabytes. */
const BACKTRACKING = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

describe('isBase64', () => {
  it.each(['', 'aGk=', 'aGVsbG8=', 'aGVsbA==', 'AAAA', '+/+/', Buffer.from('every byte').toString('base64')])(
    'accepts %p',
    (text) => {
      expect(isBase64(text)).toBe(true);
    },
  );

  it.each([
    ['characters outside the alphabet', 'aGVsbG8*'],
    ['a length that is not a multiple of four', 'aGVsbG8'],
    ['padding in the middle', 'aG==bG8='],
    ['three padding characters', 'a==='],
    ['only padding', '===='],
    ['the URL-safe alphabet', 'a-_b'],
    ['whitespace', 'aGk=\n'],
    ['a character outside ASCII', 'aGé='],
  ])('refuses %s', (_what, text) => {
    expect(isBase64(text)).toBe(false);
  });

  it('says what the pattern it replaces said, on every short string over a small alphabet', () => {
    const alphabet = ['A', 'z', '9', '+', '/', '=', '-', ' '];
    const strings = (length: number): string[] =>
      length === 0 ? [''] : strings(length - 1).flatMap((s) => alphabet.map((c) => s + c));
    for (let length = 0; length <= 5; length++) {
      for (const text of strings(length)) expect([text, isBase64(text)]).toEqual([text, BACKTRACKING.test(text)]);
    }
  });

  it('checks megabytes without running out of stack', () => {
    const text = Buffer.alloc(12 * 1024 * 1024, 0xa5).toString('base64');
    expect(isBase64(text)).toBe(true);
    expect(isBase64(`${text.slice(0, -4)}!AAA`)).toBe(false);
  });
});
