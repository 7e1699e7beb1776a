import { QueryParams } from '@cms/shared';
import { pathParents } from '../src/domain/catalog-entry';
import { buildCatalogQuery } from '../src/domain/search-query';
import { parseTextQuery, words } from '../src/domain/text';

const query = (pairs: Record<string, string | string[]>) =>
  new QueryParams(
    Object.entries(pairs).flatMap(([key, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ key, value }))),
  );

describe('text', () => {
  it('indexes normalised words', () => {
    expect(words('Crème brûlée, CRÈME!')).toEqual(['creme', 'brulee']);
  });
  it('reads prefix terms and ignores boolean operators', () => {
    expect(parseTextQuery('news AND report*')).toEqual([
      { word: 'news', prefix: false },
      { word: 'report', prefix: true },
    ]);
  });
});

describe('buildCatalogQuery', () => {
  it('finds only what the caller may view', () => {
    expect(buildCatalogQuery(query({}), '/', ['Anonymous', 'user:ann']).filter.allowed).toEqual({
      $in: ['Anonymous', 'user:ann'],
    });
  });

  it('limits a search to the context and below by default', () => {
    expect(buildCatalogQuery(query({}), '/folder', ['Anonymous']).filter).toMatchObject({ path_parents: '/folder' });
  });

  it('takes several paths and a depth counted from each', () => {
    const { filter } = buildCatalogQuery(query({ 'path.query': ['/a', '/b/c'], 'path.depth': '1' }), '/', [
      'Anonymous',
    ]);
    expect(filter.$and).toContainEqual({
      $or: [
        { path_parents: '/a', depth: { $gt: 1, $lte: 2 } },
        { path_parents: '/b/c', depth: { $gt: 2, $lte: 3 } },
      ],
    });
  });

  it('matches every text term, prefixes only where asked', () => {
    const { filter } = buildCatalogQuery(query({ SearchableText: 'alpha bet*' }), '/', ['Anonymous']);
    expect(filter.$and).toEqual([{ words: 'alpha' }, { words: { $regex: '^bet' } }]);
  });

  it('sorts by the asked indexes, then by path', () => {
    expect(
      buildCatalogQuery(query({ sort_on: ['modified', 'sortable_title'], sort_order: 'reverse' }), '/', ['Anonymous'])
        .sort,
    ).toEqual({
      modified: -1,
      sortable_title: -1,
      path: 1,
    });
  });

  it('refuses unknown sort indexes and bad batches', () => {
    expect(() => buildCatalogQuery(query({ sort_on: 'nope' }), '/', ['Anonymous'])).toThrow(
      expect.objectContaining({ type: 'BadRequest' }),
    );
    expect(() => buildCatalogQuery(query({ b_start: '-3' }), '/', ['Anonymous'])).toThrow(
      expect.objectContaining({ type: 'BadRequest' }),
    );
  });

  it('knows every ancestor path of an entry', () => {
    expect(pathParents('/a/b/c')).toEqual(['/', '/a', '/a/b', '/a/b/c']);
    expect(pathParents('/')).toEqual(['/']);
  });
});
