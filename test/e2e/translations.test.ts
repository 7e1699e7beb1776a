/**
 * Multilingual sites through the gateway (issue 15 items 1-3; transcripts translations_*, translation_locator,
 * site_get_expand_lang_folder*, navroot_lang_*): the language panel switches multilingual on and makes the
 * language roots, translation links are written and read on both sides, and the translation index follows
 * deletes, moves, renames and language changes; a rebuild from the content store gives the same groups.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serviceKeySetting } from '@cms/shared';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const run = promisify(execFile);
const REBUILD_SCRIPT = join(__dirname, '../../services/content/dist/translations-rebuild.js');

describe('translations through the gateway', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as any;
  /** The URLs the service writes (`PUBLIC_URL`). */
  const url = (path: string) => t.suite.publicUrl + path;

  async function create(folder: string, body: Record<string, unknown>): Promise<any> {
    const response = await t.request('POST', folder, { body: { '@type': 'Document', ...body } });
    expect(response.status).toBe(201);
    return json(response);
  }

  async function translationsOf(path: string): Promise<any> {
    const response = await t.request('GET', `${path}/@translations`);
    expect(response.status).toBe(200);
    return json(response);
  }

  /** Each object's translations as `@translations` shows them, by path: what a rebuild must give again. */
  async function groupsOf(paths: string[]): Promise<Record<string, unknown>> {
    const entries: [string, unknown][] = [];
    for (const path of paths) entries.push([path, (await translationsOf(path)).items]);
    return Object.fromEntries(entries);
  }

  /** An object as content's embedded store holds it now (the last record of its collection file). */
  function storedContent(uid: string): Record<string, unknown> | undefined {
    const lines = readFileSync(join(t.dataDir, 'content', 'content.db'), 'utf8').split('\n');
    return lines
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record._id === uid)
      .pop();
  }

  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('before multilingual is switched on', () => {
    it('answers the translation endpoints 400 with a clear message, and names no translations component', async () => {
      await create('/', { id: 'plain', title: 'Plain', language: 'en' });
      for (const [method, path, body] of [
        ['GET', '/plain/@translations', undefined],
        ['POST', '/plain/@translations', { id: '/plain' }],
        ['DELETE', '/plain/@translations', { language: 'es' }],
        ['GET', '/plain/@translation-locator?target_language=es', undefined],
      ] as const) {
        const response = await t.request(method, path, { body });
        expect(response.status).toBe(400);
        expect((await json(response)).message).toMatch(/multilingual/);
      }
      const page = await json(await t.request('GET', '/plain'));
      expect(page['@components'].translations).toBeUndefined();
      expect(page.language).toEqual({ title: 'English', token: 'en' });
      expect((await t.request('GET', '/plain?expand=translations')).status).toBe(400);
      expect((await json(await t.request('GET', '/@site'))).features.multilingual).toBe(false);
    });
  });

  describe('on a multilingual site', () => {
    beforeAll(async () => {
      const response = await t.request('PATCH', '/@controlpanels/language', {
        body: { available_languages: ['en', 'es', 'de', 'fr'] },
      });
      expect(response.status).toBe(204);
    });

    it('has a language root folder per language as soon as the panel answered (navroot_lang_folder_get)', async () => {
      const root = await json(await t.request('GET', '/en/@navroot'));
      expect(root['@id']).toBe(url('/en/@navroot'));
      expect(root.navroot).toMatchObject({
        '@id': url('/en'),
        '@type': 'LRF',
        id: 'en',
        is_folderish: true,
        language: { title: 'English', token: 'en' },
        layout: 'folder_listing',
        review_state: 'published',
        title: 'English',
        type_title: 'Language Root Folder',
        exclude_from_nav: true,
      });
      expect((await json(await t.request('GET', '/de'))).title).toBe('Deutsch');
      expect((await t.request('GET', '/es', { auth: null })).status).toBe(200);
      expect((await json(await t.request('GET', '/@site'))).features.multilingual).toBe(true);
    });

    it('has language roots Volto shows anonymous visitors: their title as a block, no type schema needed', async () => {
      // Volto renders content without blocks from its type's schema, and `@types` answers anonymous visitors 401.
      const root = await json(await t.request('GET', '/de', { auth: null }));
      expect(root.blocks_layout.items).toHaveLength(1);
      expect(root.blocks[root.blocks_layout.items[0]]).toEqual({ '@type': 'title' });
    });

    it('takes expand=translations on the site root and leaves it out, as Volto asks it of every page it shows', async () => {
      const response = await t.request('GET', '/?expand=translations,breadcrumbs', { auth: null });
      expect(response.status).toBe(200);
      const site = await json(response);
      expect(site['@components'].translations).toBeUndefined();
      expect(site['@components'].breadcrumbs.items).toEqual([]);
      expect((await t.request('GET', '/?expand=translation')).status).toBe(400);
    });

    it('gives content created inside a root its language, served as {title, token}; its navroot is the root', async () => {
      const doc = await create('/en', { id: 'test-document', title: 'Test document' });
      expect(doc.language).toEqual({ title: 'English', token: 'en' });
      expect(doc['@components'].translations).toEqual({ '@id': url('/en/test-document/@translations') });
      expect(doc.parent).toMatchObject({ '@id': url('/en'), '@type': 'LRF', title: 'English' });
      const navroot = await json(await t.request('GET', '/en/test-document?expand=navroot'));
      expect(navroot['@components'].navroot.navroot['@id']).toBe(url('/en'));
      await create('/es', { id: 'test-document', title: 'Documento' });
    });

    it('links by URL (translations_post) and shows the link on both sides (translations_get)', async () => {
      const response = await t.request('POST', '/en/test-document/@translations', {
        body: { id: url('/es/test-document') },
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(url('/en/test-document'));
      expect(await json(response)).toEqual({});
      expect(await translationsOf('/en/test-document')).toEqual({
        '@id': url('/en/test-document/@translations'),
        items: [{ '@id': url('/es/test-document'), language: 'es' }],
        root: { de: url('/de'), en: url('/en'), es: url('/es'), fr: url('/fr') },
      });
      expect((await translationsOf('/es/test-document')).items).toEqual([
        { '@id': url('/en/test-document'), language: 'en' },
      ]);
      const expanded = await json(await t.request('GET', '/en/test-document?expand=translations'));
      expect(expanded['@components'].translations.items).toEqual([{ '@id': url('/es/test-document'), language: 'es' }]);
    });

    it('refuses a language already linked (409), missing content (400) and the same language (400)', async () => {
      await create('/es', { id: 'otro', title: 'Otro' });
      await create('/en', { id: 'other', title: 'Other' });
      const taken = await t.request('POST', '/en/test-document/@translations', { body: { id: '/es/otro' } });
      expect(taken.status).toBe(409);
      const missing = await t.request('POST', '/en/test-document/@translations', { body: { id: '/es/nothing' } });
      expect(missing.status).toBe(400);
      const same = await t.request('POST', '/en/test-document/@translations', { body: { id: '/en/other' } });
      expect(same.status).toBe(400);
      expect((await t.request('POST', '/en/test-document/@translations', { body: {} })).status).toBe(400);
      expect((await translationsOf('/en/test-document')).items).toHaveLength(1);
    });

    it('links by site path and by UID (translations_post_by_id, translations_post_by_uid)', async () => {
      await create('/de', { id: 'test-document', title: 'Testdokument' });
      const fr = await create('/fr', { id: 'test-document', title: 'Document' });
      expect(
        (await t.request('POST', '/en/test-document/@translations', { body: { id: '/de/test-document' } })).status,
      ).toBe(201);
      expect((await t.request('POST', '/es/test-document/@translations', { body: { id: fr.UID } })).status).toBe(201);
      expect((await translationsOf('/de/test-document')).items).toEqual([
        { '@id': url('/en/test-document'), language: 'en' },
        { '@id': url('/es/test-document'), language: 'es' },
        { '@id': url('/fr/test-document'), language: 'fr' },
      ]);
    });

    it('answers where a new translation goes (translation_locator)', async () => {
      const locator = await t.request('GET', '/es/otro/@translation-locator?target_language=de');
      expect(locator.status).toBe(200);
      expect(await json(locator)).toEqual({ '@id': url('/de') });
      await create('/en', { '@type': 'Folder', id: 'folder', title: 'Folder' });
      await create('/es', { '@type': 'Folder', id: 'carpeta', title: 'Carpeta' });
      await t.request('POST', '/en/folder/@translations', { body: { id: '/es/carpeta' } });
      await create('/en/folder', { id: 'inside', title: 'Inside' });
      expect(await json(await t.request('GET', '/en/folder/inside/@translation-locator?target_language=es'))).toEqual({
        '@id': url('/es/carpeta'),
      });
      expect((await t.request('GET', '/en/folder/@translation-locator')).status).toBe(400);
    });

    it('creates content linked to a translation with translation_of (translations_link_on_post)', async () => {
      const original = await create('/en', { id: 'source', title: 'Source' });
      const created = await t.request('POST', '/de', {
        body: {
          '@type': 'Document',
          id: 'mydocument',
          language: 'de',
          title: 'My German Document',
          translation_of: original.UID,
        },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(url('/de/mydocument'));
      expect((await json(created)).language).toMatchObject({ token: 'de' });
      expect((await translationsOf('/en/source')).items).toEqual([{ '@id': url('/de/mydocument'), language: 'de' }]);
      // `translationOf`, the prose's name; a second German translation is refused and nothing is created.
      await create('/es', { id: 'fuente', title: 'Fuente', translationOf: original.UID });
      const twice = await t.request('POST', '/de', {
        body: { '@type': 'Document', id: 'zweites', title: 'Zweites', translation_of: original.UID },
      });
      expect(twice.status).toBe(409);
      expect((await t.request('GET', '/de/zweites')).status).toBe(404);
      expect((await translationsOf('/es/fuente')).items.map((i: any) => i.language)).toEqual(['de', 'en']);
    });

    it('refuses translation_of to a caller who may not edit the original, creating nothing', async () => {
      const user = { username: 'carla', password: 'secret-carla', roles: ['Contributor'] };
      expect((await t.request('POST', '/@users', { body: user })).status).toBe(201);
      const auth = 'Basic ' + Buffer.from('carla:secret-carla').toString('base64');
      const original = await create('/en', { id: 'guarded', title: 'Guarded' });
      const denied = await t.request('POST', '/de', {
        auth,
        body: { '@type': 'Document', id: 'bewacht', title: 'Bewacht', translation_of: original.UID },
      });
      expect(denied.status).toBe(403);
      expect((await t.request('GET', '/de/bewacht')).status).toBe(404);
      expect(
        (await t.request('POST', '/de', { auth, body: { '@type': 'Document', id: 'frei', title: 'Frei' } })).status,
      ).toBe(201);
    });

    it('a refused POST @translations writes nothing: not even the side the caller may edit', async () => {
      const auth = 'Basic ' + Buffer.from('carla:secret-carla').toString('base64');
      await create('/en', { id: 'guarded-link', title: 'Guarded link' });
      // Published: carla may view it, not edit it; /de/frei is her own.
      expect((await t.request('POST', '/en/guarded-link/@workflow/publish')).status).toBe(200);
      const own = (await json(await t.request('GET', '/de/frei'))).UID as string;
      const refused = await t.request('POST', '/de/frei/@translations', { auth, body: { id: '/en/guarded-link' } });
      expect(refused.status).toBe(403);
      // The API shows no translation group of a lone object: the store does.
      expect(storedContent(own)).not.toHaveProperty('translation_group');
      expect((await t.request('POST', '/de/frei/@translations', { body: { id: '/en/guarded-link' } })).status).toBe(
        201,
      );
      expect((await translationsOf('/en/guarded-link')).items).toEqual([{ '@id': url('/de/frei'), language: 'de' }]);
    });

    it('names no folder the caller may not see as the place of a new translation (translation_locator)', async () => {
      // A Member who may see /en/folder and what is inside, not its private Spanish translation /es/carpeta.
      expect((await t.request('POST', '/@users', { body: { username: 'mona', password: 'secret-mona' } })).status).toBe(
        201,
      );
      const auth = 'Basic ' + Buffer.from('mona:secret-mona').toString('base64');
      const shared = await t.request('POST', '/en/folder/@sharing', {
        body: { entries: [{ id: 'mona', type: 'user', roles: { Reader: true } }] },
      });
      expect(shared.status).toBe(204);
      expect((await t.request('GET', '/es/carpeta', { auth })).status).toBe(403);
      const located = await t.request('GET', '/en/folder/inside/@translation-locator?target_language=es', { auth });
      expect(located.status).toBe(200);
      expect(await json(located)).toEqual({ '@id': url('/es') });
      expect(await json(await t.request('GET', '/en/folder/inside/@translation-locator?target_language=es'))).toEqual({
        '@id': url('/es/carpeta'),
      });
    });

    it('unlinks a language (translations_delete) on both sides', async () => {
      const response = await t.request('DELETE', '/en/test-document/@translations', { body: { language: 'es' } });
      expect(response.status).toBe(204);
      expect((await translationsOf('/en/test-document')).items.map((i: any) => i.language)).toEqual(['de', 'fr']);
      expect((await translationsOf('/es/test-document')).items).toEqual([]);
      const again = await t.request('DELETE', '/en/test-document/@translations', { body: { language: 'es' } });
      expect(again.status).toBe(400);
    });

    it('keeps links through a rename and a move: URLs are the current paths', async () => {
      const renamed = await t.request('PATCH', '/fr/test-document', { body: { id: 'document-de-test' } });
      expect(renamed.status).toBe(204);
      await create('/fr', { '@type': 'Folder', id: 'dossier', title: 'Dossier' });
      const moved = await t.request('POST', '/fr/dossier/@move', { body: { source: [url('/fr/document-de-test')] } });
      expect(moved.status).toBe(200);
      expect((await translationsOf('/en/test-document')).items).toEqual([
        { '@id': url('/de/test-document'), language: 'de' },
        { '@id': url('/fr/dossier/document-de-test'), language: 'fr' },
      ]);
      expect((await translationsOf('/fr/dossier/document-de-test')).items.map((i: any) => i['@id'])).toEqual([
        url('/de/test-document'),
        url('/en/test-document'),
      ]);
    });

    it('drops deleted content from its group', async () => {
      expect((await t.request('DELETE', '/de/test-document')).status).toBe(204);
      expect((await translationsOf('/en/test-document')).items).toEqual([
        { '@id': url('/fr/dossier/document-de-test'), language: 'fr' },
      ]);
      // The language is free again.
      await create('/de', { id: 'neu', title: 'Neu' });
      expect((await t.request('POST', '/en/test-document/@translations', { body: { id: '/de/neu' } })).status).toBe(
        201,
      );
    });

    it('re-checks the group when a language changes: a clash unlinks the object changed', async () => {
      // /fr/dossier/document-de-test becomes German, as /de/neu is in the same group.
      const changed = await t.request('PATCH', '/fr/dossier/document-de-test', { body: { language: 'de' } });
      expect(changed.status).toBe(204);
      expect((await translationsOf('/en/test-document')).items).toEqual([{ '@id': url('/de/neu'), language: 'de' }]);
      expect((await translationsOf('/fr/dossier/document-de-test')).items).toEqual([]);
      // A change to a language the group does not have keeps the link, under its new language.
      expect((await t.request('PATCH', '/de/neu', { body: { language: 'fr' } })).status).toBe(204);
      expect((await translationsOf('/en/test-document')).items).toEqual([{ '@id': url('/de/neu'), language: 'fr' }]);
    });

    it('rebuilds every group from the content store to what the events made (npm run translations:rebuild)', async () => {
      const paths = [
        '/en/test-document',
        '/es/test-document',
        '/de/neu',
        '/fr/dossier/document-de-test',
        '/en/source',
        '/de/mydocument',
        '/es/fuente',
        '/en/folder',
        '/es/carpeta',
        '/es/otro',
      ];
      const incremental = await groupsOf(paths);
      const { stdout } = await run(process.execPath, [REBUILD_SCRIPT], {
        // The key of the services this test process runs.
        env: { ...process.env, CONTENT_ADDRESS: t.suite.addresses.content, SERVICE_AUTH_KEY: serviceKeySetting() },
      });
      // Off a terminal: progress lines (objects read of the total), then the summary line.
      expect(stdout).toMatch(/^translations: \d+\/\d+ \S/);
      expect(stdout).toMatch(/\ntranslations: (\d+)\/\1 \S+\nrebuilt the translation groups: \d+ objects linked\n$/);
      expect(await groupsOf(paths)).toEqual(incremental);
    });

    it('keeps the content of a language removed from the list', async () => {
      const response = await t.request('PATCH', '/@controlpanels/language', {
        body: { available_languages: ['en', 'es', 'de'] },
      });
      expect(response.status).toBe(204);
      expect((await t.request('GET', '/fr')).status).toBe(200);
      expect((await t.request('GET', '/fr/dossier/document-de-test')).status).toBe(200);
    });
  });
});
