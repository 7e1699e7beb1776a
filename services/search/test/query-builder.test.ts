/**
 * The query builder's rules checked by results over a real Catalog on the embedded store: criteria, limit,
 * and the result forms (`metadata_fields`, `fullobjects` asked of content in one call per batch).
 */
import { type ContentSnapshot, type DocumentStore, type Principal__Output } from '@cms/shared';
import { queryBuilderSearch } from '../src/api/query-builder';
import { resultItems } from '../src/api/results';
import type { FullComments } from '../src/clients/comment-render';
import type { FullObjects } from '../src/clients/content-render';
import { entryFrom } from '../src/domain/catalog-entry';
import { criteriaConditions } from '../src/domain/criteria';
import { COLUMNS, requestedColumns } from '../src/domain/metadata';
import { querystringIndexes } from '../src/domain/querystring-config';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';

const OP = 'cms.app.querystring.operation.';
const EVERYONE = ['Anonymous', 'Manager'];
const MANAGER: Principal__Output = { id: 'boss', roles: ['Manager'], groups: [], fullname: '' };

function snapshot(path: string, extra: Partial<ContentSnapshot> = {}): ContentSnapshot {
  const id = path.split('/').pop()!;
  return {
    uid: id.padEnd(32, '0'),
    path,
    id,
    portal_type: 'Document',
    type_title: 'Page',
    title: id,
    description: '',
    review_state: 'published',
    version: 1,
    created: '2024-01-01T00:00:00.000Z',
    modified: '2024-01-02T00:00:00.000Z',
    creators: ['admin'],
    parent_uid: '',
    is_folderish: false,
    position: 0,
    searchable_text: id,
    allowed_roles_and_users: EVERYONE,
    subjects: [],
    exclude_from_nav: false,
    language: '',
    remote_url: '',
    object_size: '0',
    mime_type: '',
    location: '',
    collection_json: '',
    ...extra,
  } as ContentSnapshot;
}

describe.each(STORE_ENGINES)('query builder over the catalog on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let catalog: Catalog;

  beforeAll(async () => {
    opened = await engine.open();
    store = opened.store;
    catalog = new Catalog(store);
    await catalog.ensureIndexes();
    const at = new Date().toISOString();
    for (let i = 0; i < 12; i++) {
      await catalog.put(entryFrom(snapshot(`/f/d${String(i).padStart(2, '0')}`, { position: i }), at));
    }
    await catalog.put(entryFrom(snapshot('/f', { portal_type: 'Folder', is_folderish: true }), at));
    await catalog.put(
      entryFrom(snapshot('/f/secret', { review_state: 'private', allowed_roles_and_users: ['Manager'] }), at),
    );
  });
  afterAll(async () => {
    await opened.dispose();
  });

  const search = (criteria: unknown[], extra: Partial<Parameters<typeof queryBuilderSearch>[1]> = {}) =>
    queryBuilderSearch(catalog, {
      criteria: criteria as never,
      contextPath: '/',
      sortOn: 'getObjPositionInParent',
      sortOrder: 'ascending',
      limit: 1000,
      start: 0,
      size: 25,
      principal: null,
      ...extra,
    });

  it('counts at most limit results, and never answers past it', async () => {
    const docs = [{ i: 'portal_type', o: `${OP}selection.any`, v: 'Document' }];
    expect((await search(docs)).total).toBe(12);
    const capped = await search(docs, { limit: 5, start: 3, size: 10 });
    expect(capped.total).toBe(5);
    expect(capped.items.map((e) => e.id)).toEqual(['d03', 'd04']);
    expect((await search(docs, { limit: 5, start: 5 })).items).toEqual([]);
  });

  it('applies the caller’s view rights', async () => {
    const all = [{ i: 'path', o: `${OP}string.absolutePath`, v: '/f::1' }];
    expect((await search(all)).total).toBe(12);
    expect((await search(all, { principal: MANAGER })).total).toBe(13);
  });

  it('refuses criteria it cannot read with 400', async () => {
    const ctx = { contextPath: '/', principalId: null, now: new Date(), pathOfUid: async () => null };
    for (const bad of [
      { i: 'Title', o: 'not-an-operator', v: 'x' },
      { i: 'nope', o: `${OP}string.is`, v: 'x' },
      { i: 'path', o: `${OP}string.absolutePath`, v: { no: 1 } },
      { i: 'path', o: `${OP}string.absolutePath`, v: '/f::deep' },
      { i: 'getObjPositionInParent', o: `${OP}int.is`, v: '' },
      { i: 'created', o: `${OP}date.lessThanRelativeDate`, v: '1e9' },
      { i: 'Subject', o: `${OP}selection.any`, v: [{}] },
    ]) {
      await expect(criteriaConditions([bad], ctx)).rejects.toMatchObject({ type: 'BadRequest' });
    }
    await expect(criteriaConditions([{ i: 'Title', o: `${OP}string.is`, v: 'x' }], ctx)).resolves.toEqual({
      clauses: [],
      text: [{ field: 'title_words', terms: [{ word: 'x', prefix: false }] }],
    });
  });

  /** No comment among the results: discussion answers nothing. */
  const NO_COMMENTS: FullComments = { render: async () => new Map() };

  it('asks content for a whole batch of full objects in one call', async () => {
    const calls: string[][] = [];
    const content: FullObjects = {
      async render(uids) {
        calls.push(uids);
        // Content leaves out what the caller may no longer view.
        return new Map(uids.slice(1).map((uid) => [uid, { UID: uid }]));
      },
    };
    const { items } = await search([{ i: 'portal_type', o: `${OP}selection.any`, v: 'Document' }], { size: 10 });
    const form = { fullobjects: true, columns: [], principal: null, publicUrl: 'http://x', requestId: 'r' };
    const rendered = await resultItems(items, form, { content, comments: NO_COMMENTS });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(10);
    expect(rendered).toHaveLength(9);
  });

  it('makes every column JSON, _all included', () => {
    const entry = entryFrom(snapshot('/f/x'), new Date().toISOString());
    const columns = requestedColumns(['_all']);
    expect(columns).toEqual(Object.keys(COLUMNS));
    const item = resultItems(
      [entry],
      { fullobjects: false, columns, principal: null, publicUrl: 'http://x', requestId: 'r' },
      {
        content: { render: () => Promise.reject(new Error('not asked')) },
        comments: { render: () => Promise.reject(new Error('not asked')) },
      },
    );
    return item.then((items) => expect(JSON.parse(JSON.stringify(items))).toEqual(items));
  });

  it('gives every sortable index in sortable_indexes', () => {
    const { indexes, sortable_indexes } = querystringIndexes({});
    const sortable = Object.entries(indexes as Record<string, { sortable: boolean }>)
      .filter(([, index]) => index.sortable)
      .map(([name]) => name);
    expect(Object.keys(sortable_indexes)).toEqual(sortable);
  });
});
