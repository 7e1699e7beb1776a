import pino from 'pino';
import { envelopeHandler } from '../../src/http/envelope';
import { QueryParams } from '../../src/http/query';
import { endpointsOf, ROUTES } from '../../src/http/routes';

const silent = pino({ level: 'silent' });
const ok = async () => ({ status: 200 });

describe('envelopeHandler', () => {
  it('accepts a table that implements exactly its rows of the routing table', () => {
    const table = Object.fromEntries(
      endpointsOf('content').map((endpoint) => [
        endpoint,
        Object.fromEntries(ROUTES[endpoint].methods.map((m) => [m, ok])),
      ]),
    );
    expect(() => envelopeHandler('content', table, silent)).not.toThrow();
  });

  it('refuses, at start, a table that misses or adds a route', () => {
    expect(() => envelopeHandler('content', { '': { GET: ok } }, silent)).toThrow(/does not match the routing table/);
    expect(() => envelopeHandler('search', { search: { GET: ok }, extra: { GET: ok } }, silent)).toThrow(
      /does not match/,
    );
  });
});

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
