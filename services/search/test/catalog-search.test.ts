/**
 * `@search` semantics, checked by what a query returns: a few entries indexed
 * into a Catalog over the embedded store, then queries as clients send them
 * (path and depth, SearchableText, portal_type, review_state, sort, batching)
 * by callers who may see different things.
 */
import { AppError, QueryParams, callerTokens, type DocumentStore, type Principal__Output } from '@cms/shared';
import { depthOf, pathParents, type CatalogEntry } from '../src/domain/catalog-entry';
import { buildCatalogQuery } from '../src/domain/search-query';
import { normalise, words } from '../src/domain/text';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';

/** Who may view published content, and private content (its owner's local role gives `user:<id>`). */
const PUBLISHED = ['Anonymous', 'Manager', 'Site Administrator', 'Reviewer', 'Owner', 'Editor', 'Reader'];
const PRIVATE = ['Manager', 'Site Administrator', 'Owner', 'Editor', 'Reader'];

interface Item {
  path: string;
  type: string;
  title: string;
  text?: string;
  state: 'published' | 'private';
  modified: string;
  position: number;
  /** Extra view tokens, e.g. `user:ann` for a local role. */
  also?: string[];
}

/** The site, in no particular order (the catalog must order it). */
const SITE: Item[] = [
  {
    path: '/news/deep/gamma',
    type: 'Document',
    title: 'Gamma',
    text: 'Reporting live',
    state: 'published',
    modified: '2024-03-05T10:00:00',
    position: 0,
  },
  { path: '/news', type: 'Folder', title: 'News', state: 'published', modified: '2024-01-01T10:00:00', position: 0 },
  {
    path: '/about',
    type: 'Document',
    title: 'about us',
    text: 'Company history',
    state: 'published',
    modified: '2024-02-01T10:00:00',
    position: 1,
  },
  {
    path: '/news/alpha',
    type: 'Document',
    title: 'Alpha',
    text: 'Quarterly report on crème brûlée',
    state: 'published',
    modified: '2024-03-01T10:00:00',
    position: 0,
  },
  {
    path: '/news/beta',
    type: 'News Item',
    title: 'Beta',
    text: 'Report draft',
    state: 'private',
    modified: '2024-03-03T10:00:00',
    position: 1,
    also: ['user:ann'],
  },
  {
    path: '/news/deep',
    type: 'Folder',
    title: 'Deep',
    state: 'published',
    modified: '2024-01-02T10:00:00',
    position: 2,
  },
  {
    path: '/archive',
    type: 'Folder',
    title: 'Archive',
    state: 'private',
    modified: '2023-12-01T10:00:00',
    position: 2,
  },
  {
    path: '/archive/old',
    type: 'Document',
    title: 'Old report',
    text: 'Reports of the past',
    state: 'private',
    modified: '2023-12-02T10:00:00',
    position: 0,
  },
];

/** A catalog entry as the catalog holds it (what content events make of an object). */
function entryOf(item: Item, version = 1): CatalogEntry {
  const id = item.path.split('/').pop()!;
  return {
    _id: `uid-${id}`,
    version,
    path: item.path,
    path_parents: pathParents(item.path),
    depth: depthOf(item.path),
    id,
    portal_type: item.type,
    type_title: item.type,
    title: item.title,
    sortable_title: normalise(item.title),
    description: '',
    review_state: item.state,
    created: '2023-01-01T00:00:00',
    modified: item.modified,
    creators: ['admin'],
    position: item.position,
    is_folderish: item.type === 'Folder',
    words: words(`${item.title} ${item.text ?? ''}`),
    allowed: [...(item.state === 'published' ? PUBLISHED : PRIVATE), ...(item.also ?? [])],
    indexed_at: '2024-04-01T00:00:00.000Z',
  };
}

const principal = (id: string, roles: string[]): Principal__Output => ({ id, roles, groups: [], fullname: id });
const MANAGER = principal('admin', ['Manager']);
const ANN = principal('ann', ['Member']);
const MEMBER = principal('bob', ['Member']);

describe.each(STORE_ENGINES)('catalog search on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let catalog: Catalog;

  beforeAll(async () => {
    opened = await engine.open();
    store = opened.store;
    catalog = new Catalog(store);
    await catalog.ensureIndexes();
    for (const item of SITE) expect(await catalog.put(entryOf(item))).toBe(true);
  });

  afterAll(async () => {
    await opened.dispose();
  });

  /** A search as `@search` runs it: query parameters, the context's path, the caller. */
  async function search(
    params: Record<string, string | string[]> = {},
    { context = '/', caller = MANAGER }: { context?: string; caller?: Principal__Output | null } = {},
  ): Promise<{ paths: string[]; total: number }> {
    const query = new QueryParams(
      Object.entries(params).flatMap(([key, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ key, value }))),
    );
    const { items, total } = await catalog.search(buildCatalogQuery(query, context, callerTokens(caller)));
    return { paths: items.map((entry) => entry.path), total };
  }
  const paths = async (params: Record<string, string | string[]> = {}, options?: Parameters<typeof search>[1]) =>
    (await search(params, options)).paths;

  async function badRequest(params: Record<string, string | string[]>): Promise<AppError> {
    try {
      await search(params);
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error(`expected ${JSON.stringify(params)} to be refused`);
  }

  describe('path and depth', () => {
    it('searches the context and everything below it by default, in path order', async () => {
      expect(await paths({}, { context: '/news' })).toEqual([
        '/news',
        '/news/alpha',
        '/news/beta',
        '/news/deep',
        '/news/deep/gamma',
      ]);
      expect(await paths()).toHaveLength(SITE.length);
    });

    it('takes path.query instead of the context, site-relative, with or without slashes', async () => {
      expect(await paths({ 'path.query': '/news/deep' }, { context: '/about' })).toEqual([
        '/news/deep',
        '/news/deep/gamma',
      ]);
      expect(await paths({ 'path.query': 'news/deep/' })).toEqual(['/news/deep', '/news/deep/gamma']);
      // A path matches whole segments: /new is not /news.
      expect(await paths({ 'path.query': '/new' })).toEqual([]);
    });

    it('counts path.depth from the path: 0 is the object itself, n the levels below it', async () => {
      expect(await paths({ 'path.query': '/news', 'path.depth': '0' })).toEqual(['/news']);
      expect(await paths({ 'path.query': '/news', 'path.depth': '1' })).toEqual([
        '/news/alpha',
        '/news/beta',
        '/news/deep',
      ]);
      expect(await paths({ 'path.query': '/news', 'path.depth': '2' })).toEqual([
        '/news/alpha',
        '/news/beta',
        '/news/deep',
        '/news/deep/gamma',
      ]);
      expect(await paths({ 'path.query': '/', 'path.depth': '1' })).toEqual(['/about', '/archive', '/news']);
    });

    it('takes several paths, the depth counted from each', async () => {
      expect(await paths({ 'path.query': ['/news/deep', '/archive'], 'path.depth': '1' })).toEqual([
        '/archive/old',
        '/news/deep/gamma',
      ]);
    });

    it('refuses a depth that is not a non-negative integer', async () => {
      for (const depth of ['-1', 'one', '1.5']) {
        expect((await badRequest({ 'path.depth': depth })).type).toBe('BadRequest');
      }
    });
  });

  describe('SearchableText', () => {
    it('finds whole words of the title and text, whatever their case and accents', async () => {
      expect(await paths({ SearchableText: 'report' })).toEqual(['/archive/old', '/news/alpha', '/news/beta']);
      expect(await paths({ SearchableText: 'REPORT' })).toEqual(['/archive/old', '/news/alpha', '/news/beta']);
      expect(await paths({ SearchableText: 'creme' })).toEqual(['/news/alpha']);
      expect(await paths({ SearchableText: 'Crème' })).toEqual(['/news/alpha']);
      expect(await paths({ SearchableText: 'history' })).toEqual(['/about']);
      // No wildcard is added: a part of a word matches nothing (addendum rule 2).
      expect(await paths({ SearchableText: 'repor' })).toEqual([]);
    });

    it('matches words starting with a term only when it ends with *', async () => {
      expect(await paths({ SearchableText: 'repor*' })).toEqual([
        '/archive/old',
        '/news/alpha',
        '/news/beta',
        '/news/deep/gamma',
      ]);
      expect(await paths({ SearchableText: 'quart* brul*' })).toEqual(['/news/alpha']);
    });

    it('needs every term, and reads AND / OR / NOT as nothing', async () => {
      expect(await paths({ SearchableText: 'report quarterly' })).toEqual(['/news/alpha']);
      expect(await paths({ SearchableText: 'report AND draft' })).toEqual(['/news/beta']);
      expect(await paths({ SearchableText: 'report history' })).toEqual([]);
      expect(await paths({ SearchableText: 'AND' })).toEqual([]);
    });

    it('combines with the path', async () => {
      expect(await paths({ SearchableText: 'report' }, { context: '/news' })).toEqual(['/news/alpha', '/news/beta']);
    });
  });

  describe('fields', () => {
    it('filters by portal_type, one or several', async () => {
      expect(await paths({ portal_type: 'Folder' })).toEqual(['/archive', '/news', '/news/deep']);
      expect(await paths({ portal_type: ['News Item', 'Folder'] }, { context: '/news' })).toEqual([
        '/news',
        '/news/beta',
        '/news/deep',
      ]);
      expect(await paths({ 'portal_type:list': ['News Item'] })).toEqual(['/news/beta']);
      expect(await paths({ portal_type: 'Event' })).toEqual([]);
    });

    it('filters by review_state', async () => {
      expect(await paths({ review_state: 'private' })).toEqual(['/archive', '/archive/old', '/news/beta']);
      expect(await paths({ review_state: 'published', portal_type: 'Document' })).toEqual([
        '/about',
        '/news/alpha',
        '/news/deep/gamma',
      ]);
    });
  });

  describe('sort', () => {
    it('sorts by title without regard to case, ascending or reverse', async () => {
      // "about us" before "Alpha": the sortable title is lower-cased.
      const byTitle = ['/about', '/news/alpha', '/news/beta', '/news/deep', '/news/deep/gamma', '/news'];
      const scope = { 'path.query': ['/news', '/about'] };
      expect(await paths({ ...scope, sort_on: 'sortable_title' })).toEqual(byTitle);
      expect(await paths({ ...scope, sort_on: 'sortable_title', sort_order: 'reverse' })).toEqual(
        [...byTitle].reverse(),
      );
    });

    it('sorts by modified, newest first when descending', async () => {
      expect(await paths({ sort_on: 'modified', sort_order: 'descending', portal_type: 'Document' })).toEqual([
        '/news/deep/gamma',
        '/news/alpha',
        '/about',
        '/archive/old',
      ]);
    });

    it('sorts by position in the folder, then by path between equals', async () => {
      expect(await paths({ sort_on: 'getObjPositionInParent', 'path.query': '/news', 'path.depth': '1' })).toEqual([
        '/news/alpha',
        '/news/beta',
        '/news/deep',
      ]);
      expect(await paths({ sort_on: 'getObjPositionInParent', 'path.query': '/', 'path.depth': '1' })).toEqual([
        '/news',
        '/about',
        '/archive',
      ]);
    });

    it('refuses an unknown index or order', async () => {
      expect((await badRequest({ sort_on: 'nope' })).type).toBe('BadRequest');
      expect((await badRequest({ sort_order: 'sideways' })).type).toBe('BadRequest');
    });
  });

  describe('batching', () => {
    it('answers b_size items from b_start, with the total of all matches', async () => {
      const all = await paths();
      expect(await search({ b_size: '3' })).toEqual({ paths: all.slice(0, 3), total: SITE.length });
      expect(await search({ b_size: '3', b_start: '3' })).toEqual({ paths: all.slice(3, 6), total: SITE.length });
      expect(await search({ b_size: '3', b_start: '6' })).toEqual({ paths: all.slice(6), total: SITE.length });
      expect(await search({ b_start: '100' })).toEqual({ paths: [], total: SITE.length });
    });

    it('answers 25 items per batch by default', async () => {
      const extra = Array.from({ length: 30 }, (_, i) => ({
        ...SITE[0],
        path: `/many/item-${String(i).padStart(2, '0')}`,
      }));
      for (const item of extra) await catalog.put(entryOf(item));
      try {
        const first = await search({ 'path.query': '/many' });
        expect(first.total).toBe(30);
        expect(first.paths).toEqual(extra.slice(0, 25).map((item) => item.path));
      } finally {
        await catalog.markRemoved(
          extra.map((item) => entryOf(item)._id),
          '2024-04-02T00:00:00.000Z',
        );
      }
      expect((await search({ 'path.query': '/many' })).total).toBe(0);
    });

    it('refuses a bad b_start or b_size', async () => {
      const bad: Record<string, string>[] = [{ b_start: '-3' }, { b_start: 'x' }, { b_size: '0' }];
      for (const params of bad) {
        expect((await badRequest(params)).type).toBe('BadRequest');
      }
    });
  });

  describe('who may see what', () => {
    it('shows anonymous and plain members only what is published', async () => {
      const published = SITE.filter((item) => item.state === 'published')
        .map((item) => item.path)
        .sort();
      expect(await paths({}, { caller: null })).toEqual(published);
      expect(await paths({}, { caller: MEMBER })).toEqual(published);
      expect(await paths({ SearchableText: 'report' }, { caller: null })).toEqual(['/news/alpha']);
    });

    it('shows private content to whom a local role gives it, by user token', async () => {
      expect(await paths({ SearchableText: 'report' }, { caller: ANN })).toEqual(['/news/alpha', '/news/beta']);
      expect(await paths({ review_state: 'private' }, { caller: ANN })).toEqual(['/news/beta']);
    });

    it('shows a Manager everything', async () => {
      expect(await paths({ review_state: 'private' }, { caller: MANAGER })).toEqual([
        '/archive',
        '/archive/old',
        '/news/beta',
      ]);
    });

    it('counts only what the caller may see in the total', async () => {
      expect((await search({ b_size: '1' }, { caller: null })).total).toBe(5);
      expect((await search({ b_size: '1' }, { caller: MANAGER })).total).toBe(SITE.length);
    });
  });

  describe('updates and removals', () => {
    it('keeps the newest version of an entry, whatever order the versions arrive in', async () => {
      const about = SITE.find((item) => item.path === '/about')!;
      expect(await catalog.put(entryOf({ ...about, title: 'About the company', text: 'Founded long ago' }, 3))).toBe(
        true,
      );
      // A late, older version changes nothing.
      expect(await catalog.put(entryOf({ ...about, title: 'About us', text: 'Company history' }, 2))).toBe(false);
      expect(await paths({ SearchableText: 'founded' })).toEqual(['/about']);
      expect(await paths({ SearchableText: 'history' })).toEqual([]);
      expect(await catalog.put(entryOf(about, 4))).toBe(true);
      expect(await paths({ SearchableText: 'history' })).toEqual(['/about']);
    });

    it('finds removed objects no more, even when an older event arrives afterwards', async () => {
      const gone: Item = { ...SITE[0], path: '/news/gone', title: 'Gone', text: 'vanishing' };
      await catalog.put(entryOf(gone, 1));
      expect(await paths({ SearchableText: 'vanishing' })).toEqual(['/news/gone']);
      await catalog.markRemoved([entryOf(gone)._id], '2024-04-02T00:00:00.000Z');
      expect(await paths({ SearchableText: 'vanishing' })).toEqual([]);
      expect(await catalog.put(entryOf(gone, 2))).toBe(false);
      expect(await paths({}, { context: '/news' })).not.toContain('/news/gone');
    });
  });
});
