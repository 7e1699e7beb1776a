import { AppError } from '@cms/shared';
import { parsePath } from '../src/path';

describe('parsePath', () => {
  it.each([
    ['/', { context: [], endpoint: '', subPath: [] }],
    ['', { context: [], endpoint: '', subPath: [] }],
    ['/folder/doc', { context: ['folder', 'doc'], endpoint: '', subPath: [] }],
    ['/folder/doc/@lock', { context: ['folder', 'doc'], endpoint: 'lock', subPath: [] }],
    ['/folder/doc/@workflow/publish', { context: ['folder', 'doc'], endpoint: 'workflow', subPath: ['publish'] }],
    ['/@search', { context: [], endpoint: 'search', subPath: [] }],
    ['/@@download/file', { context: [], endpoint: 'download', subPath: ['file'] }],
    ['/a/@x/@y/z', { context: ['a'], endpoint: 'x', subPath: ['@y', 'z'] }],
    ['/++api++/folder/doc', { context: ['folder', 'doc'], endpoint: '', subPath: [] }],
    ['/++api++//folder/doc/@history', { context: ['folder', 'doc'], endpoint: 'history', subPath: [] }],
    ['/++api++/', { context: [], endpoint: '', subPath: [] }],
    ['/my%20doc/caf%C3%A9', { context: ['my doc', 'café'], endpoint: '', subPath: [] }],
  ])('%s', (path, expected) => {
    expect(parsePath(path)).toEqual(expected);
  });

  it('only drops ++api++ directly after the base', () => {
    expect(parsePath('/folder/++api++').context).toEqual(['folder', '++api++']);
  });

  it('strips the path of PUBLIC_URL', () => {
    expect(parsePath('/api/folder/@search', '/api')).toEqual({ context: ['folder'], endpoint: 'search', subPath: [] });
    expect(parsePath('/api', '/api')).toEqual({ context: [], endpoint: '', subPath: [] });
  });

  it.each([
    ['/elsewhere', '/api'],
    ['/apifolder', '/api'],
  ])('refuses %s outside the base %s', (path, base) => {
    expect(() => parsePath(path, base)).toThrow(expect.objectContaining({ type: 'NotFound' }));
  });

  it.each(['/folder/../secret', '/./doc', '/folder/_private', '/a/%2e%2e/b', '/a/b%2Fc', '/@'])(
    'refuses %s',
    (path) => {
      expect(() => parsePath(path)).toThrow(expect.objectContaining({ type: 'NotFound' }));
    },
  );

  describe('a comment address as search returns it (++conversation++default)', () => {
    const comments = (subPath: string[]) => ({ context: ['folder', 'doc'], endpoint: 'comments', subPath });

    it('is @comments/<id>/@workflow/<transition> for POST', () => {
      expect(parsePath('/folder/doc/++conversation++default/123/@workflow/publish', '', 'POST')).toEqual(
        comments(['123', '@workflow', 'publish']),
      );
      expect(parsePath('/api/folder/doc/++conversation++default/123/@workflow/reject', '/api', 'POST')).toEqual(
        comments(['123', '@workflow', 'reject']),
      );
    });

    it('is @comments/<id> for DELETE', () => {
      expect(parsePath('/++api++/folder/doc/++conversation++default/123', '', 'DELETE')).toEqual(comments(['123']));
    });

    it.each([
      ['GET', '/folder/doc/++conversation++default/123'],
      ['PATCH', '/folder/doc/++conversation++default/123'],
      ['POST', '/folder/doc/++conversation++default/123'],
      ['GET', '/folder/doc/++conversation++default/123/@workflow/publish'],
      ['DELETE', '/folder/doc/++conversation++default/123/@workflow/publish'],
      ['GET', '/folder/doc/++conversation++default'],
      ['POST', '/folder/doc/++conversation++default/123/@workflow'],
      ['POST', '/folder/doc/++conversation++default/123/@history/publish'],
      ['POST', '/folder/doc/++conversation++default/123/x/@workflow/publish'],
      ['DELETE', '/folder/doc/++conversation++default/123/456'],
    ])('is left to the content walk (404 there) for %s %s', (method, path) => {
      expect(parsePath(path, '', method).endpoint).not.toBe('comments');
    });

    it('is not read before an @ segment or at the site root', () => {
      expect(parsePath('/doc/@comments/++conversation++default/1', '', 'DELETE')).toEqual({
        context: ['doc'],
        endpoint: 'comments',
        subPath: ['++conversation++default', '1'],
      });
      expect(parsePath('/++conversation++default/1', '', 'DELETE')).toEqual({
        context: ['++conversation++default', '1'],
        endpoint: '',
        subPath: [],
      });
    });
  });

  it('answers malformed percent-encoding with 400', () => {
    let error: unknown;
    try {
      parsePath('/folder/%E0%A4%A');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).httpStatus).toBe(400);
  });

  it('never repeats more than a bounded piece of the path in its messages', () => {
    const long = 'x'.repeat(20_000);
    for (const [path, base] of [
      [`/${long}`, '/api'],
      [`/./${long}`, ''],
      [`/%E0%A4%A${long}`, ''],
    ]) {
      let error: unknown;
      try {
        parsePath(path, base);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).message.length).toBeLessThan(300);
    }
  });
});
