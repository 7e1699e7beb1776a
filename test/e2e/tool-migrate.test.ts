/**
 * `npm run migrate` (services/content/dist/migrate.js, the image's `migrate`): the content store's pending data
 * migrations applied on the store the services use, the embedded one and PostgreSQL; `--list` and `--dry-run`
 * change nothing, a run again finds nothing pending, a failure exits 1. The events of its writes wait in the
 * outbox, and content publishes them when it starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEvent, type DocumentStore } from '@cms/shared';
import { openServiceStore } from '@cms/shared/adapters';
import type { ContentDoc } from '../../services/content/src/domain/content/model';
import { SITE_ROOT_TYPE } from '../../services/content/src/domain/types';
import { StoreContentRepository } from '../../services/content/src/store/content-repository';
import { StoreDataVersion } from '../../services/content/src/store/data-version';
import { startTestSuite } from '../support/embedded-suite';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { assertFilesExist, baseEnv, ROOT, runNode } from '../support/processes';

const MIGRATE = join(ROOT, 'services', 'content', 'dist', 'migrate.js');

/** A site root as a release before the site root had blocks wrote it, with no data version recorded. */
function oldSiteRoot(): ContentDoc {
  return {
    _id: 'a'.repeat(32),
    path: '/',
    id: 'plone',
    portal_type: SITE_ROOT_TYPE,
    parent_uid: null,
    ancestors: [],
    position: 0,
    next_position: 0,
    title: 'Old site',
    description: '',
    created: '2024-01-01T00:00:00.000Z',
    modified: '2024-01-01T00:00:00.000Z',
    creators: ['admin'],
    review_state: 'published',
    version: 1,
    fields: {},
    local_roles: [],
    effective_local_roles: [],
    allowed: ['Anonymous'],
  };
}

interface Engine {
  name: string;
  /** The settings the tool and the services get for this store. */
  env(dataDir: string): Promise<NodeJS.ProcessEnv>;
  dispose(): Promise<void>;
}

let database: TestDatabase | undefined;
const ENGINES: Engine[] = [
  { name: 'the embedded store', env: async () => ({}), dispose: async () => {} },
  {
    name: 'PostgreSQL',
    async env() {
      database ??= await createTestDatabase('migrate');
      return { STORE_URL: database.url };
    },
    async dispose() {
      await database?.dispose();
      database = undefined;
    },
  },
];

describe.each(ENGINES)('npm run migrate on $name', (engine) => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => assertFilesExist([MIGRATE], 'Build first: `npm run build` (or `npx tsc -b`).'));
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cms-migrate-'));
    env = { ...(await engine.env(dataDir)), DATA_DIR: dataDir };
  });
  afterEach(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await engine.dispose();
  });

  const migrate = (...args: string[]) => runNode('migrate', MIGRATE, { ...baseEnv(), ...env }, 30_000, args);
  async function withStore<T>(work: (store: DocumentStore) => Promise<T>): Promise<T> {
    const store = await openServiceStore('content', { STORE_URL: env.STORE_URL, DATA_DIR: dataDir });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }
  const siteRoot = () => withStore((store) => new StoreContentRepository(store).docs.findOne({ path: '/' }));
  const dataVersion = () => withStore((store) => new StoreDataVersion(store).current());

  it('finds nothing pending on a new store', async () => {
    const { code, output } = await migrate();
    expect(output).toMatch(/^migrate: no data migrations pending \(/);
    expect(code).toBe(0);
  });

  it('lists, dry-runs, applies once with its report, and finds nothing pending after', async () => {
    await withStore((store) =>
      new StoreContentRepository(store).insertNew(oldSiteRoot(), [newEvent('content.added', { uid: 'a'.repeat(32) })]),
    );
    const listed = await migrate('--list');
    expect(listed.output).toBe(
      'content data at version 0; this release writes 1\n' +
        '  1 site-root-blocks (pending): A site root without blocks gets a title block and a text block, as a new ' +
        'site has.\n',
    );
    expect(listed.code).toBe(0);

    const dry = await migrate('--dry-run');
    expect(dry.output).toContain('The site root has no blocks: a title block and a text block would be added.');
    expect(dry.output).toContain('Dry run: no changes were written.');
    expect(dry.code).toBe(0);
    expect((await siteRoot())?.fields).toEqual({});
    expect(await dataVersion()).toBeNull();

    const run = await migrate();
    expect(run.output).toBe(
      'Starting the migration from version: 0\n' +
        'Ran upgrade step: Give the site root its front page blocks\n' +
        '  The site root got a title block and a text block.\n' +
        'Your data is now at version: 1\n',
    );
    expect(run.code).toBe(0);
    const migrated = (await siteRoot())!;
    expect(Object.keys(migrated.fields ?? {}).sort()).toEqual(['blocks', 'blocks_layout']);
    // Its event waits in the outbox for content's relay, as every write's does.
    expect(migrated._pending).toBe(true);
    expect((migrated._outbox as { type: string }[]).map((event) => event.type)).toEqual([
      'content.added',
      'content.modified',
    ]);
    expect(await dataVersion()).toBe(1);

    const again = await migrate();
    expect(again.output).toBe('migrate: no data migrations pending (content data at version 1, the latest is 1)\n');
    expect(again.code).toBe(0);
    expect((await siteRoot())?.version).toBe(migrated.version);
    expect((await migrate('--list')).output).toMatch(/^ {2}1 site-root-blocks \(applied\)/m);
  });

  it('exits 2 on an unknown argument, and 1 when the store cannot be opened', async () => {
    const bad = await migrate('--bogus');
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/usage: npm run migrate/);
    env = { ...env, STORE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const failed = await migrate();
    expect(failed.code).toBe(1);
    expect(failed.output).toMatch(/migrate failed: /);
  });
});

describe('the events of a migration', () => {
  it('are published once content starts: its outbox relay sends them to the bus, as any write’s are', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-migrate-'));
    try {
      const store = await openServiceStore('content', { DATA_DIR: dataDir });
      await new StoreContentRepository(store).insertNew(oldSiteRoot(), []);
      await store.close();
      const run = await runNode('migrate', MIGRATE, { ...baseEnv(), DATA_DIR: dataDir }, 30_000);
      expect(run.code).toBe(0);

      const t = await startTestSuite({}, dataDir);
      try {
        const root = (await (await t.request('GET', '/')).json()) as { blocks?: object };
        expect(Object.keys(root.blocks ?? {})).toHaveLength(2);
      } finally {
        await t.stop({ keepData: true });
      }
      const reopened = await openServiceStore('content', { DATA_DIR: dataDir });
      try {
        const doc = await new StoreContentRepository(reopened).docs.findOne({ path: '/' });
        expect(doc?._pending).toBeUndefined();
        expect(doc?._outbox ?? []).toEqual([]);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
