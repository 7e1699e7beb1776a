import { linksIn } from '../src/domain/relations';
import { readStoredJson, storedJsonText } from '../src/domain/content';

/** A page of `count` blocks, each with a link: well past the size that is remembered. */
function page(count: number, tag: string): Record<string, unknown> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, j) => [
      `${tag}${j}`,
      { '@type': 'text', href: `/target-${j}`, note: 'x'.repeat(40) },
    ]),
  );
}

describe('stored JSON text shared by its readers (issue 25)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("a write's readers get the value it stored without parsing its text again", () => {
    const blocks = page(2000, 'a');
    const text = storedJsonText(blocks);
    const parse = jest.spyOn(JSON, 'parse');
    // A copy of the same content (the store hands out equal strings) is found as well.
    expect(readStoredJson(text)).toBe(blocks);
    expect(readStoredJson(` ${text}`.slice(1))).toBe(blocks);
    expect(parse).not.toHaveBeenCalled();
  });

  it('a text no write made here is parsed once, then shared; a small one is parsed each time', () => {
    const text = JSON.stringify(page(2000, 'b'));
    const parse = jest.spyOn(JSON, 'parse');
    const first = readStoredJson(text);
    expect(readStoredJson(text)).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(readStoredJson('{"small":1}')).not.toBe(readStoredJson('{"small":1}'));
  });

  it('the links of a shared value are found once and stay what they were', () => {
    const blocks = readStoredJson(JSON.stringify(page(3, 'c')));
    const links = linksIn('blocks', blocks);
    expect(links).toEqual(['/target-0', '/target-1', '/target-2']);
    expect(linksIn('blocks', blocks)).toBe(links);
  });
});
