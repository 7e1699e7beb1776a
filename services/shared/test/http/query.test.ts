import { QueryParams } from '../../src/http/query';

describe('QueryParams', () => {
  it('keeps repeated keys and folds Zope type suffixes onto the key', () => {
    const query = new QueryParams([
      { key: 'path.query', value: '/a' },
      { key: 'path.query', value: '/b' },
      { key: 'expand:list', value: 'breadcrumbs' },
      { key: 'expand', value: 'actions,types' },
      { key: 'b_size:int', value: '5' },
    ]);
    expect(query.getAll('path.query')).toEqual(['/a', '/b']);
    expect(query.getList('expand')).toEqual(['breadcrumbs', 'actions', 'types']);
    expect(query.get('b_size')).toBe('5');
    expect(query.has('missing')).toBe(false);
  });
});
