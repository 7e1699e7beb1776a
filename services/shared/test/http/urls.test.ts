import { batchingLinks } from '../../src/http/batching';
import { encodeComponent, urlOf, wellFormed } from '../../src/http/urls';

/** JSON can decode a lone surrogate into any text; percent-encoding it must not throw (encodeURIComponent does). */
describe('percent-encoding text that may hold a lone surrogate', () => {
  it('replaces lone surrogates by U+FFFD and keeps pairs', () => {
    expect(wellFormed('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
    expect(wellFormed('😀\ud83d')).toBe('😀\ufffd');
    expect(wellFormed('plain')).toBe('plain');
    expect(encodeComponent('\ud800')).toBe('%EF%BF%BD');
    expect(encodeComponent('é😀')).toBe(encodeURIComponent('é😀'));
  });

  it('urlOf encodes a segment with a lone surrogate', () => {
    expect(urlOf('http://x', '/a\ud800/b')).toBe('http://x/a%EF%BF%BD/b');
  });

  it('batching links encode query keys and values with lone surrogates', () => {
    const links = batchingLinks('http://x/f', [{ key: 'q\udc00', value: '\ud800' }], { start: 0, size: 1 }, 3);
    expect(links?.['@id']).toBe('http://x/f?q%EF%BF%BD=%EF%BF%BD');
    expect(links?.next).toBe('http://x/f?b_start=1&q%EF%BF%BD=%EF%BF%BD');
  });
});
