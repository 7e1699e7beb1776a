/**
 * Relevance order of `SearchableText` without `sort_on`, the effectiveRange rule, `sort_limit`,
 * `allowedRolesAndUsers` and the site's search settings, checked by what a query returns from a small catalog.
 */
import { AppError, QueryParams, callerTokens, type DocumentStore, type Principal__Output } from '@cms/shared';
import { depthOf, pathParents, type CatalogEntry } from '../src/domain/catalog-entry';
import { buildCatalogQuery, type SiteSearch } from '../src/domain/search-query';
import { normalise, words } from '../src/domain/text';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';

const ALL = ['Anonymous', 'Manager', 'Site Administrator', 'Reader'];
const NOW = new Date('2025-06-01T12:00:00Z');

interface Item {
  id: string;
  title: string;
  description?: string;
  text?: string;
  type?: string;
  effective?: string | null;
  expires?: string | null;
  creator?: string;
  modified?: string;
}

const ITEMS: Item[] = [
  // "Garden" only in the text.
  { id: 'a-text', title: 'Weekly notes', text: 'The garden club met' },
  // In the description.
  { id: 'b-description', title: 'Club news', description: 'Our gardens in spring' },
  // In the title: ranks first, though its path sorts last.
  { id: 'z-title', title: 'Gärden party', text: 'Bring food' },
  { id: 'expired', title: 'Old garden', expires: '2025-01-01T00:00:00.000Z', creator: 'ann' },
  { id: 'future', title: 'Future garden', effective: '2026-01-01T00:00:00.000Z' },
  { id: 'event', title: 'Garden fair', type: 'Event', modified: '2025-05-01T00:00:00' },
];

function entryOf(item: Item): CatalogEntry {
  const path = `/${item.id}`;
  const description = item.description ?? '';
  return {
    _id: `uid-${item.id}`,
    version: 1,
    path,
    path_parents: pathParents(path),
    depth: depthOf(path),
    id: item.id,
    portal_type: item.type ?? 'Document',
    type_title: item.type ?? 'Document',
    title: item.title,
    sortable_title: normalise(item.title),
    description,
    review_state: 'published',
    created: '2025-01-01T00:00:00',
    modified: item.modified ?? '2025-02-01T00:00:00',
    creators: [item.creator ?? 'admin'],
    position: 0,
    is_folderish: false,
    words: words(`${item.title} ${description} ${item.text ?? ''}`),
    title_words: words(item.title),
    description_words: words(description),
    effective: item.effective ?? null,
    expires: item.expires ?? null,
    allowed: ALL,
    indexed_at: '2025-01-01T00:00:00.000Z',
  };
}

const principal = (id: string, roles: string[]): Principal__Output => ({ id, roles, groups: [], fullname: id });
const MANAGER = principal('admin', ['Manager']);
const ANN = principal('ann', ['Member']);

describe.each(STORE_ENGINES)('relevance, effective range and search options on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let catalog: Catalog;

  beforeAll(async () => {
    opened = await engine.open();
    store = opened.store;
    catalog = new Catalog(store);
    await catalog.ensureIndexes();
    for (const item of ITEMS) await catalog.put(entryOf(item));
  });

  afterAll(async () => {
    await opened.dispose();
  });

  async function ids(
    params: Record<string, string | string[]>,
    { caller = MANAGER, site }: { caller?: Principal__Output | null; site?: SiteSearch } = {},
  ): Promise<{ ids: string[]; total: number }> {
    const query = new QueryParams(
      Object.entries(params).flatMap(([key, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ key, value }))),
    );
    const built = buildCatalogQuery(query, '/', callerTokens(caller), { now: NOW, site });
    const { items, total } = await catalog.search(built);
    return { ids: items.map((e) => e.id), total };
  }

  it('ranks title matches first, then description matches, then the text, when no sort_on is given', async () => {
    // Case- and accent-folded: "Gärden" matches "garden"; "gardens" needs the prefix.
    expect((await ids({ SearchableText: 'GARDEN' }, { caller: null })).ids).toEqual(['event', 'z-title', 'a-text']);
    expect((await ids({ SearchableText: 'garden*' }, { caller: null })).ids).toEqual([
      'event',
      'z-title',
      'b-description',
      'a-text',
    ]);
  });

  it('keeps the relevance order across batches', async () => {
    const pages = [];
    for (const start of ['0', '1', '2', '3']) {
      pages.push(...(await ids({ SearchableText: 'garden*', b_size: '1', b_start: start }, { caller: null })).ids);
    }
    expect(pages).toEqual(['event', 'z-title', 'b-description', 'a-text']);
  });

  it('needs every word to match', async () => {
    expect((await ids({ SearchableText: 'garden club' }, { caller: null })).ids).toEqual(['a-text']);
    expect((await ids({ SearchableText: 'garden nothing' }, { caller: null })).ids).toEqual([]);
  });

  it('follows sort_on instead of relevance when one is given', async () => {
    expect((await ids({ SearchableText: 'garden*', sort_on: 'id' }, { caller: null })).ids).toEqual([
      'a-text',
      'b-description',
      'event',
      'z-title',
    ]);
  });

  it('hides expired and not yet effective content from anonymous callers, show_inactive or not', async () => {
    for (const params of [{ SearchableText: 'garden*' }, { SearchableText: 'garden*', show_inactive: 'true' }]) {
      const { ids: found } = await ids(params, { caller: null });
      expect(found).not.toContain('expired');
      expect(found).not.toContain('future');
    }
  });

  it('shows inactive content to managers, and to its owner', async () => {
    expect((await ids({ SearchableText: 'garden*', sort_on: 'id' })).ids).toEqual([
      'a-text',
      'b-description',
      'event',
      'expired',
      'future',
      'z-title',
    ]);
    const { ids: ann } = await ids({ SearchableText: 'garden*' }, { caller: ANN });
    expect(ann).toContain('expired');
    expect(ann).not.toContain('future');
  });

  it('reads effectiveRange=<date> as what is active then', async () => {
    const { ids: then } = await ids({ effectiveRange: '2024-12-01', sort_on: 'id' });
    expect(then).toContain('expired');
    expect(then).not.toContain('future');
  });

  it('accepts allowedRolesAndUsers and applies the caller’s own', async () => {
    const { ids: found } = await ids({ allowedRolesAndUsers: 'Manager', SearchableText: 'garden*' }, { caller: null });
    expect(found).toEqual(['event', 'z-title', 'b-description', 'a-text']);
  });

  it('counts at most sort_limit results', async () => {
    const { ids: found, total } = await ids({ SearchableText: 'garden*', sort_on: 'id', sort_limit: '2' });
    expect(found).toEqual(['a-text', 'b-description']);
    expect(total).toBe(2);
    await expect(ids({ sort_limit: '0' })).rejects.toThrow(AppError);
    await expect(ids({ sort_limit: 'x' })).rejects.toThrow(/sort_limit/);
  });

  it('applies the site’s search settings: excluded types and the default order', async () => {
    const site: SiteSearch = { typesNotSearched: ['Event'], sortOn: 'sortable_title' };
    expect((await ids({ SearchableText: 'garden*' }, { caller: null, site })).ids).toEqual([
      'b-description',
      'z-title',
      'a-text',
    ]);
    const byDate: SiteSearch = { typesNotSearched: [], sortOn: 'Date' };
    expect((await ids({ SearchableText: 'garden*' }, { site: byDate })).ids[0]).toBe('future');
    const relevance: SiteSearch = { typesNotSearched: ['Document'], sortOn: 'relevance' };
    expect((await ids({ SearchableText: 'garden*' }, { caller: null, site: relevance })).ids).toEqual(['event']);
  });
});

describe('relevance on word lists: what a first page counts', () => {
  let opened: TestStore;
  let catalog: Catalog;
  let counted: jest.SpyInstance;
  let read: jest.SpyInstance;

  beforeAll(async () => {
    const embedded = STORE_ENGINES.find((engine) => engine.name === 'embedded');
    if (!embedded) throw new Error('the embedded engine is always among the test engines');
    opened = await embedded.open();
    catalog = new Catalog(opened.store);
    await catalog.ensureIndexes();
    for (const item of ITEMS) await catalog.put(entryOf(item));
    counted = jest.spyOn(opened.store.collection('catalog'), 'countDocuments');
    read = jest.spyOn(opened.store.collection('catalog'), 'find');
  });

  afterAll(async () => {
    counted.mockRestore();
    read.mockRestore();
    await opened.dispose();
  });

  it('counts the matches once and reads no tier after the page holds them all', async () => {
    // "spring" is in one description only: the title tier is empty, the text tier after it too.
    const query = buildCatalogQuery(
      new QueryParams([{ key: 'SearchableText', value: 'spring' }]),
      '/',
      callerTokens(null),
      {
        now: NOW,
      },
    );
    counted.mockClear();
    read.mockClear();
    const { items, total } = await catalog.search(query);
    expect(items.map((e) => e.id)).toEqual(['b-description']);
    expect(total).toBe(1);
    expect(counted).toHaveBeenCalledTimes(1);
    // The title tier (empty) and the description tier (the one match); not the text tier.
    expect(read).toHaveBeenCalledTimes(2);
  });
});
