import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEvent, type DocumentStore, type Principal__Output } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { accessFields } from '../src/domain/content';
import { actions } from '../src/domain/components/actions';
import { breadcrumbs } from '../src/domain/components/breadcrumbs';
import { contextNavigation, DEFAULT_CONTEXT_NAVIGATION } from '../src/domain/components/contextnavigation';
import { navigation } from '../src/domain/components/navigation';
import { ComponentScope } from '../src/domain/components/scope';
import { typeList } from '../src/domain/components/type-list';
import type { ContentDoc } from '../src/domain/content';
import { DEFAULT_SITE_SETTINGS } from '../src/domain/site';
import { builtinTypeRegistry } from '../src/domain/types';
import { StoreContentRepository } from '../src/store/content-repository';

const URL = 'http://cms.test';
const manager: Principal__Output = { id: 'admin', roles: ['Manager'], groups: [], fullname: '' };
const member: Principal__Output = { id: 'mia', roles: ['Member'], groups: [], fullname: '' };

/**
 * The components over a real repository on the embedded store: what each caller sees of a small tree, and
 * that a tree costs one children query per level, however many folders a level has.
 *
 *   /                 Site Root
 *   /news             Folder, published
 *   /news/a           Folder, published
 *   /news/a/deep      Folder, published
 *   /news/a/deep/doc  Document, published
 *   /news/b           Folder, private
 *   /news/b/doc       Document, published (inside a private folder)
 *   /news/hidden      Document, published, exclude_from_nav
 *   /about            Document, private
 *   /secret           Folder, published, exclude_from_nav
 */
/** The types a new site shows in its navigation. */
const DISPLAYED = DEFAULT_SITE_SETTINGS.displayedTypes;

describe('expansion components over the repository', () => {
  let dir: string;
  let store: DocumentStore;
  let repo: StoreContentRepository;
  const docs = new Map<string, ContentDoc>();
  let position = 0;

  async function add(path: string, type: string, state: string | null, fields?: Record<string, unknown>) {
    const parentPath = path.lastIndexOf('/') <= 0 ? '/' : path.slice(0, path.lastIndexOf('/'));
    const parent = path === '/' ? null : docs.get(parentPath)!;
    const doc: ContentDoc = {
      _id: `uid-${path === '/' ? 'root' : path.slice(1).replace(/\//g, '-')}`,
      path,
      id: path === '/' ? 'cms' : path.split('/').pop()!,
      portal_type: type,
      parent_uid: parent?._id ?? null,
      ancestors: parent ? [...parent.ancestors, parent._id] : [],
      position: position++,
      next_position: 0,
      title: `Title of ${path}`,
      description: `About ${path}`,
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
      creators: ['admin'],
      review_state: state,
      version: 1,
      local_roles: [{ principal: 'admin', roles: ['Owner'] }],
      ...(fields ? { fields } : {}),
    };
    Object.assign(doc, accessFields(doc, parent));
    await repo.insertNew(doc, [newEvent('content.added', { uid: doc._id })]);
    docs.set(path, doc);
  }

  const types = builtinTypeRegistry();
  const scope = (path: string, principal: Principal__Output | null, repository = repo) =>
    new ComponentScope(repository, types, docs.get(path)!, principal, URL);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-components-'));
    store = await openEmbeddedStore(dir);
    repo = new StoreContentRepository(store);
    await repo.ensureIndexes();
    await add('/', 'Site Root', null);
    await add('/news', 'Folder', 'published');
    await add('/news/a', 'Folder', 'published');
    await add('/news/a/deep', 'Folder', 'published');
    await add('/news/a/deep/doc', 'Document', 'published');
    await add('/news/b', 'Folder', 'private');
    await add('/news/b/doc', 'Document', 'published');
    await add('/news/hidden', 'Document', 'published', { exclude_from_nav: true });
    await add('/about', 'Document', 'private');
    await add('/secret', 'Folder', 'published', { exclude_from_nav: true });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = (items: { '@id': string }[]) => items.map((i) => i['@id'].slice(URL.length) || '/');

  it('navigation: Home and the top level, what the caller may see and not hidden', async () => {
    expect(ids((await navigation(scope('/news', manager), 1, DISPLAYED)).items)).toEqual(['/', '/news', '/about']);
    expect(ids((await navigation(scope('/news', null), 1, DISPLAYED)).items)).toEqual(['/', '/news']);
  });

  it('navigation: only the displayed types', async () => {
    expect(ids((await navigation(scope('/news', manager), 1, ['Document'])).items)).toEqual(['/', '/about']);
    expect(ids((await navigation(scope('/news', manager), 2, ['Folder'])).items[1].items as any)).toEqual([
      '/news/a',
      '/news/b',
    ]);
  });

  it('navigation: a hidden item shows while the context is in it', async () => {
    expect(ids((await navigation(scope('/secret', null), 1, DISPLAYED)).items)).toEqual(['/', '/news', '/secret']);
  });

  it('navigation: deeper levels, one children query per level', async () => {
    let queries = 0;
    const counting = Object.assign(Object.create(repo) as StoreContentRepository, {
      visibleChildrenOf: (parents: string[], tokens: string[]) => {
        queries++;
        return repo.visibleChildrenOf(parents, tokens);
      },
    });
    const nav = await navigation(scope('/', manager, counting), 3, DISPLAYED);
    // One query for the top level, then one for each of the two levels below it.
    expect(queries).toBe(3);
    const news = nav.items[1] as any;
    expect(ids(news.items)).toEqual(['/news/a', '/news/b']);
    expect(ids(news.items[0].items)).toEqual(['/news/a/deep']);
    expect(news.items[0].items[0].items).toEqual([]);
    expect(news.items[0]).toMatchObject({ review_state: 'published', use_view_action_in_listings: false });
    expect(news).not.toHaveProperty('use_view_action_in_listings');

    const anonymous = (await navigation(scope('/', null), 4, DISPLAYED)).items[1] as any;
    expect(ids(anonymous.items)).toEqual(['/news/a']);
    expect(ids(anonymous.items[0].items[0].items)).toEqual(['/news/a/deep/doc']);
  });

  it('breadcrumbs: leave out the ancestors the caller may not see', async () => {
    expect(ids((await breadcrumbs(scope('/news/b/doc', manager))).items)).toEqual(['/news', '/news/b', '/news/b/doc']);
    const anonymous = await breadcrumbs(scope('/news/b/doc', null));
    expect(ids(anonymous.items)).toEqual(['/news', '/news/b/doc']);
    expect(anonymous.root).toBe(URL);
    expect((await breadcrumbs(scope('/', null))).items).toEqual([]);
  });

  it('contextnavigation: the section of the context, below the top level', async () => {
    const nav = await contextNavigation(scope('/news/a', manager), DEFAULT_CONTEXT_NAVIGATION);
    expect(nav).toMatchObject({ available: true, title: 'Navigation', url: `${URL}/sitemap`, has_custom_name: false });
    expect(ids(nav.items)).toEqual(['/news/a', '/news/b']);
    const a = nav.items[0] as any;
    expect(a).toMatchObject({ is_current: true, is_in_path: false, is_folderish: true, type: 'folder' });
    expect(ids(a.items[0].items)).toEqual(['/news/a/deep/doc']);
    expect(a.items[0].items[0]).toMatchObject({ is_folderish: false, type: 'document', normalized_id: 'doc' });

    const anonymous = await contextNavigation(scope('/news/a/deep', null), DEFAULT_CONTEXT_NAVIGATION);
    expect(ids(anonymous.items)).toEqual(['/news/a']);
    expect(anonymous.items[0]).toMatchObject({ is_in_path: true, is_current: false });
  });

  it('contextnavigation: not available at the top, options change the start and the depth', async () => {
    expect(await contextNavigation(scope('/', manager), DEFAULT_CONTEXT_NAVIGATION)).toMatchObject({
      available: false,
      items: [],
    });
    const fromRoot = await contextNavigation(scope('/', manager), {
      ...DEFAULT_CONTEXT_NAVIGATION,
      topLevel: 0,
      bottomLevel: 1,
      includeTop: true,
      name: 'Site',
    });
    expect(fromRoot).toMatchObject({ available: true, title: 'Site', has_custom_name: true });
    expect(ids(fromRoot.items)).toEqual(['/', '/news', '/about']);
    expect(fromRoot.items[0]).toMatchObject({ title: 'Home', type: 'site-root', is_current: true });
    expect((fromRoot.items[1] as any).items).toEqual([]);

    const folderOnly = await contextNavigation(scope('/news/a/deep/doc', manager), {
      ...DEFAULT_CONTEXT_NAVIGATION,
      currentFolderOnly: true,
    });
    expect(ids(folderOnly.items)).toEqual(['/news/a/deep/doc']);
    expect(folderOnly.url).toBe(`${URL}/news/a/deep`);
  });

  it('actions: what the caller may do here', async () => {
    const mine = await actions(scope('/news/a', manager));
    expect(mine.object.map((a) => a.id)).toEqual(['view', 'edit', 'folderContents', 'history', 'local_roles']);
    expect(mine.object_buttons.map((a) => a.id)).toEqual(['cut', 'copy', 'delete', 'rename', 'redirection']);
    expect(mine.user.map((a) => a.id)).toEqual(['preferences', 'dashboard', 'cms_setup', 'logout']);
    expect(mine.object[2].url).toBe(`${URL}/news/a/folder_contents`);

    const anonymous = await actions(scope('/news/a', null));
    expect(anonymous.object.map((a) => a.id)).toEqual(['view']);
    expect(anonymous.object_buttons).toEqual([]);
    expect(anonymous.user.map((a) => a.id)).toEqual(['login']);
    expect(anonymous.portal_tabs).toEqual([{ icon: 'cms-home', id: 'index_html', title: 'Home', url: URL }]);

    const atRoot = await actions(scope('/', manager));
    expect(atRoot.object_buttons.map((a) => a.id)).toEqual(['redirection']);
    const doc = await actions(scope('/news/a/deep/doc', manager));
    expect(doc.object.find((a) => a.id === 'folderContents')?.url).toBe(`${URL}/news/a/deep/folder_contents`);
  });

  it('types: authenticated callers only; addable where the caller may add', async () => {
    expect(() => typeList(scope('/news', null))).toThrow(expect.objectContaining({ type: 'Unauthorized' }));
    const inFolder = typeList(scope('/news', manager));
    expect(inFolder.length).toBeGreaterThan(0);
    expect(inFolder.every((t) => t.addable && t.immediately_addable)).toBe(true);
    expect(inFolder.map((t) => t.title)).toEqual([...inFolder.map((t) => t.title)].sort((a, b) => a.localeCompare(b)));
    expect(inFolder.find((t) => t.id === 'Document')).toMatchObject({ '@id': `${URL}/@types/Document`, title: 'Page' });
    expect(typeList(scope('/news/a/deep/doc', manager)).some((t) => t.addable)).toBe(false);
    expect(typeList(scope('/news', member)).some((t) => t.addable)).toBe(false);
  });
});
