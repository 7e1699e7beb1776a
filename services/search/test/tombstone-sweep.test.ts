/** Tombstones are purged once older than SEARCH_TOMBSTONE_RETENTION_MS, by a sweep reading an injected clock. */
import { ConfigError, createLogger, loadConfig, type DocumentStore } from '@cms/shared';
import { searchConfigSchema } from '../src/config';
import { entryFrom } from '../src/domain/catalog-entry';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';
import { startTombstoneSweep } from '../src/store/tombstone-sweep';

const DAY = 24 * 60 * 60_000;

describe.each(STORE_ENGINES)('tombstone sweep on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let catalog: Catalog;

  beforeEach(async () => {
    opened = await engine.open();
    store = opened.store;
    catalog = new Catalog(store);
    await catalog.ensureIndexes();
  });

  afterEach(async () => {
    await opened.dispose();
  });

  it('purges each tombstone once it is older than the retention, and nothing else', async () => {
    const removedAt = Date.parse('2030-01-01T00:00:00.000Z');
    let clock = removedAt;
    const live = entryFrom(
      {
        uid: 'c'.repeat(32),
        path: '/kept',
        id: 'kept',
        portal_type: 'Document',
        type_title: 'Page',
        title: 'Kept',
        description: '',
        version: 1,
        created: '2029-01-01T00:00:00.000Z',
        modified: '2029-01-01T00:00:00.000Z',
        creators: ['admin'],
        parent_uid: 'f'.repeat(32),
        is_folderish: false,
        position: 0,
        searchable_text: 'kept',
        allowed_roles_and_users: ['Anonymous'],
        subjects: [],
        exclude_from_nav: false,
        language: '',
      },
      '2029-01-01T00:00:00.000Z',
    );
    await catalog.put(live);
    await catalog.markRemoved(['a'.repeat(32)], new Date(removedAt).toISOString());
    await catalog.markRemoved(['b'.repeat(32)], new Date(removedAt + 2 * DAY).toISOString());

    const sweep = startTombstoneSweep(catalog, {
      retentionMs: 7 * DAY,
      now: () => new Date(clock),
      log: createLogger('search', 'silent'),
    });
    try {
      clock = removedAt + 7 * DAY - 1;
      expect(await sweep.sweep()).toBe(0);
      clock = removedAt + 7 * DAY + 1;
      expect(await sweep.sweep()).toBe(1);
      expect((await catalog.entries.find({}, { sort: { _id: 1 } })).map((e) => [e._id, e.deleted ?? false])).toEqual([
        ['b'.repeat(32), true],
        ['c'.repeat(32), false],
      ]);
      clock = removedAt + 10 * DAY;
      expect(await sweep.sweep()).toBe(1);
      expect(await catalog.entries.countDocuments({})).toBe(1);
    } finally {
      await sweep.stop();
    }
  });

  it('sweeps once at start, so that a process restarted more often than the interval purges too', async () => {
    const clock = Date.parse('2030-01-10T00:00:00.000Z');
    await catalog.markRemoved(['d'.repeat(32)], new Date(clock - 8 * DAY).toISOString());
    await catalog.markRemoved(['e'.repeat(32)], new Date(clock - 6 * DAY).toISOString());
    const sweep = startTombstoneSweep(catalog, {
      retentionMs: 7 * DAY,
      now: () => new Date(clock),
      log: createLogger('search', 'silent'),
    });
    // Stopping waits for the sweep under way.
    await sweep.stop();
    expect((await catalog.entries.find({})).map((e) => e._id)).toEqual(['e'.repeat(32)]);
  });

  it('SEARCH_TOMBSTONE_RETENTION_MS defaults to 7 days and must be a positive number of milliseconds', () => {
    expect(loadConfig(searchConfigSchema, {}).SEARCH_TOMBSTONE_RETENTION_MS).toBe(7 * DAY);
    expect(
      loadConfig(searchConfigSchema, { SEARCH_TOMBSTONE_RETENTION_MS: '3600000' }).SEARCH_TOMBSTONE_RETENTION_MS,
    ).toBe(3_600_000);
    for (const bad of ['0', '-5', 'a week', '1.5']) {
      expect(() => loadConfig(searchConfigSchema, { SEARCH_TOMBSTONE_RETENTION_MS: bad })).toThrow(ConfigError);
    }
  });
});
