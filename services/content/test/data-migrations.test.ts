import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEvent, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { DataMigrations, siteRootBlocksMigration, type DataMigration } from '../src/domain/site';
import type { ContentDoc } from '../src/domain/content';
import { ContentWriter } from '../src/domain/content';
import { StoreContentRepository } from '../src/store/content-repository';
import { StoreDataVersion } from '../src/store/data-version';

/** `@upgrade`'s rules: what is pending, a dry run that writes nothing, a run that raises the data version. */
describe('data migrations', () => {
  let dir: string;
  let store: DocumentStore;
  let repo: StoreContentRepository;
  let writer: ContentWriter;
  let versions: StoreDataVersion;

  const root = (fields: Record<string, unknown>): ContentDoc => ({
    _id: 'root',
    path: '/',
    id: 'cms',
    portal_type: 'Site Root',
    parent_uid: null,
    ancestors: [],
    position: 0,
    next_position: 0,
    title: 'An old site',
    description: '',
    created: '2025-01-01T00:00:00.000Z',
    modified: '2025-01-01T00:00:00.000Z',
    creators: ['admin'],
    review_state: null,
    version: 1,
    fields,
    local_roles: [],
    effective_local_roles: [],
    allowed: ['Anonymous'],
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-migrations-'));
    store = await openEmbeddedStore(dir);
    repo = new StoreContentRepository(store);
    writer = new ContentWriter(repo, { flush: async () => undefined });
    versions = new StoreDataVersion(store);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a new site starts at the latest version: nothing is pending', async () => {
    const migrations = new DataMigrations(versions, [siteRootBlocksMigration(repo, writer)]);
    await migrations.initialize(true);
    const status = await migrations.status();
    expect(status).toMatchObject({ instance: 1, fs: 1, pending: [] });
    expect((await migrations.run(false)).report).toContain('Nothing to upgrade.');
  });

  it('data from before versions were recorded is at 0, and a later start does not change that', async () => {
    const migrations = new DataMigrations(versions, [siteRootBlocksMigration(repo, writer)]);
    await migrations.initialize(false);
    const status = await migrations.status();
    expect(status.instance).toBe(0);
    expect(status.pending.map((m) => m.id)).toEqual(['site-root-blocks']);
  });

  it('gives a site root without blocks its front page: a dry run only reports it, a run writes it once', async () => {
    await repo.insertNew(root({ language: 'en' }), [newEvent('content.added', { uid: 'root' })]);
    const migrations = new DataMigrations(versions, [siteRootBlocksMigration(repo, writer)]);

    const dry = await migrations.run(true);
    expect(dry).toMatchObject({ upgraded: false, versions: { instance: 0, fs: 1 } });
    expect(dry.report).toContain('would be added');
    expect((await repo.byPath('/'))!.fields?.blocks).toBeUndefined();
    expect(await versions.current()).toBeNull();

    const run = await migrations.run(false);
    expect(run).toMatchObject({ upgraded: true, versions: { instance: 1, fs: 1 } });
    const after = (await repo.byPath('/'))!;
    const blocks = JSON.parse(after.fields!.blocks as string) as Record<string, { '@type': string }>;
    const layout = JSON.parse(after.fields!.blocks_layout as string) as { items: string[] };
    expect(layout.items.map((id) => blocks[id]['@type'])).toEqual(['title', 'slate']);
    expect(after.fields!.language).toBe('en');
    expect(await versions.current()).toBe(1);
    expect((await migrations.status()).pending).toEqual([]);
  });

  it('runs pending migrations in version order and stops at none past the latest', async () => {
    const ran: string[] = [];
    const step = (version: number): DataMigration => ({
      version,
      id: `step-${version}`,
      title: `Step ${version}`,
      description: '',
      run: async (dryRun) => {
        if (!dryRun) ran.push(`step-${version}`);
        return [`did ${version}`];
      },
    });
    await versions.set(1);
    const migrations = new DataMigrations(versions, [step(3), step(1), step(2)]);
    expect((await migrations.status()).pending.map((m) => m.version)).toEqual([2, 3]);
    const run = await migrations.run(false);
    expect(ran).toEqual(['step-2', 'step-3']);
    expect(run.report.split('\n')).toEqual([
      'Starting the migration from version: 1',
      'Ran upgrade step: Step 2',
      '  did 2',
      'Ran upgrade step: Step 3',
      '  did 3',
      'Your data is now at version: 3',
    ]);
  });
});
