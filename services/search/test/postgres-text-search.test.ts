/**
 * The catalog on PostgreSQL's full-text search: what it does beyond word lists (a configuration per content
 * language, on the entries and the queries alike; weighted title and description), the columns and index it keeps,
 * and where it differs from the word-list search of the other engines (the same queries, side by side).
 */
import { QueryParams, callerTokens, type DocumentStore } from '@cms/shared';
import { openStore, postgresStoreOf, type PostgresStore } from '@cms/shared/adapters';
import { depthOf, pathParents, type CatalogEntry } from '../src/domain/catalog-entry';
import { buildCatalogQuery } from '../src/domain/search-query';
import { normalise, words } from '../src/domain/text';
import { Catalog } from '../src/store/catalog';
import { termText, textSearchConfigOf } from '../src/store/postgres-text-search';
import { PG_URL, STORE_ENGINES, type TestStore } from './support/store-engines';

interface Item {
  id: string;
  title: string;
  description?: string;
  text?: string;
  language?: string;
  creator?: string;
}

const ITEMS: Item[] = [
  { id: 'en-shoes', title: 'Shoes', text: 'Running shoes for the marathon', language: 'en' },
  { id: 'en-title', title: 'Running club', text: 'Meets weekly', language: 'en-gb', creator: 'zoe' },
  { id: 'de-cats', title: 'Haustiere', text: 'Die Katzen schlafen', language: 'de' },
  { id: 'fr-cats', title: 'Animaux', description: 'Les chats dorment', language: 'fr' },
  { id: 'plain', title: 'The runner', text: 'running late', language: '', creator: 'ann' },
];

function entryOf(item: Item, version = 1): CatalogEntry {
  const path = `/${item.id}`;
  const description = item.description ?? '';
  return {
    _id: `uid-${item.id}`,
    version,
    path,
    path_parents: pathParents(path),
    depth: depthOf(path),
    id: item.id,
    portal_type: 'Document',
    type_title: 'Document',
    title: item.title,
    sortable_title: normalise(item.title),
    description,
    review_state: 'published',
    created: '2025-01-01T00:00:00',
    modified: '2025-02-01T00:00:00',
    creators: [item.creator ?? 'admin'],
    position: 0,
    is_folderish: false,
    words: words(`${item.title} ${description} ${item.text ?? ''}`),
    title_words: words(item.title),
    description_words: words(description),
    language: item.language ?? '',
    allowed: ['Anonymous'],
    indexed_at: '2025-01-01T00:00:00.000Z',
  };
}

async function openCatalog(engine: (typeof STORE_ENGINES)[number]) {
  const opened = await engine.open();
  const catalog = new Catalog(opened.store);
  await catalog.ensureIndexes();
  for (const item of ITEMS) await catalog.put(entryOf(item));
  return { opened, catalog };
}

async function idsOf(catalog: Catalog, params: Record<string, string>): Promise<string[]> {
  const query = new QueryParams(Object.entries(params).map(([key, value]) => ({ key, value })));
  const { items } = await catalog.search(buildCatalogQuery(query, '/', callerTokens(null)));
  return items.map((entry) => entry.id);
}

describe('text search configurations', () => {
  it('maps a content language, region or not, to its configuration, anything else to simple', () => {
    expect(textSearchConfigOf('en')).toBe('english');
    expect(textSearchConfigOf('pt-BR')).toBe('portuguese');
    expect(textSearchConfigOf('de_AT')).toBe('german');
    expect(textSearchConfigOf('')).toBe('simple');
    expect(textSearchConfigOf('xx')).toBe('simple');
    expect(textSearchConfigOf('constructor')).toBe('simple');
    expect(textSearchConfigOf(undefined)).toBe('simple');
  });

  it('writes a term as tsquery text, a prefix and a weight as labels', () => {
    const garden = { word: 'garden', prefix: true };
    const club = { word: 'club', prefix: false };
    expect([termText(garden), termText(club)]).toEqual(["'garden':*", "'club'"]);
    expect([termText(garden, 'title_words'), termText(club, 'title_words')]).toEqual(["'garden':*A", "'club':A"]);
    expect(termText(club, 'description_words')).toBe("'club':B");
  });
});

describe('catalog on PostgreSQL full-text search', () => {
  const postgres = STORE_ENGINES.find((engine) => engine.name === 'postgres')!;
  let opened: TestStore;
  let store: DocumentStore;
  let catalog: Catalog;

  beforeAll(async () => {
    ({ opened, catalog } = await openCatalog(postgres));
    store = opened.store;
  });
  afterAll(async () => {
    await opened.dispose();
  });

  const pool = () => (store as PostgresStore).pool;
  const table = () => (store as PostgresStore).ensureTable('catalog');

  it('is the text engine of a catalog on PostgreSQL, also on a store opened as services open theirs (timed)', async () => {
    expect(catalog.textEngine).toBe('postgres');
    const adapter = store as PostgresStore;
    const timed = await openStore({
      engine: { engine: 'postgres', url: PG_URL },
      dbName: adapter.schema,
      dataDir: '/nonexistent',
    });
    try {
      expect(postgresStoreOf(timed)).toBeDefined();
      expect(postgresStoreOf(timed)).not.toBe(timed);
      const onTimed = new Catalog(timed);
      expect(onTimed.textEngine).toBe('postgres');
      expect(await idsOf(onTimed, { SearchableText: 'katze' })).toEqual(['de-cats']);
    } finally {
      await timed.close();
    }
  });

  it('keeps a configuration and a weighted tsvector per entry, with a GIN index', async () => {
    const { rows } = await pool().query(`SELECT id, ts_config::text AS config FROM ${await table()} ORDER BY id`);
    expect(rows).toEqual([
      { id: 'uid-de-cats', config: 'german' },
      { id: 'uid-en-shoes', config: 'english' },
      { id: 'uid-en-title', config: 'english' },
      { id: 'uid-fr-cats', config: 'french' },
      { id: 'uid-plain', config: 'simple' },
    ]);
    const tsv = await pool().query(`SELECT tsv::text AS tsv FROM ${await table()} WHERE id = 'uid-en-title'`);
    // Title words weigh A (and count as text, C, too); English stems.
    expect(tsv.rows[0].tsv).toContain("'run':1A");
    const index = await pool().query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'catalog_tsv'`);
    expect(index.rows[0].indexdef).toMatch(/USING gin \(tsv\)/);
  });

  it('stems in the entry’s language, on the query side too', async () => {
    // English: "run" finds "running"; the entry without a language keeps the word as it is.
    expect(await idsOf(catalog, { SearchableText: 'run' })).toEqual(['en-title', 'en-shoes']);
    expect(await idsOf(catalog, { SearchableText: 'running', sort_on: 'id' })).toEqual([
      'en-shoes',
      'en-title',
      'plain',
    ]);
    // German and French plurals found by the singular.
    expect(await idsOf(catalog, { SearchableText: 'katze' })).toEqual(['de-cats']);
    expect(await idsOf(catalog, { SearchableText: 'chat' })).toEqual(['fr-cats']);
  });

  it('drops a language’s stop words from a query, in that language only', async () => {
    // "the" is an English stop word: no English entry matches it alone; the entry without a language does.
    expect(await idsOf(catalog, { SearchableText: 'the' })).toEqual(['plain']);
    expect(await idsOf(catalog, { SearchableText: 'the marathon' })).toEqual(['en-shoes']);
  });

  it('searches the title and the description by their weights', async () => {
    expect(await idsOf(catalog, { Title: 'running' })).toEqual(['en-title']);
    expect(await idsOf(catalog, { Title: 'runn*', sort_on: 'id' })).toEqual(['en-title', 'plain']);
    expect(await idsOf(catalog, { Description: 'chats' })).toEqual(['fr-cats']);
    expect(await idsOf(catalog, { Description: 'animaux' })).toEqual([]);
  });

  it('ranks by ts_rank_cd: a title match before a match in the text', async () => {
    const found = await idsOf(catalog, { SearchableText: 'run*' });
    expect(found).toHaveLength(3);
    expect(found.indexOf('en-title')).toBeLessThan(found.indexOf('en-shoes'));
    // Unstemmed, a prefix longer than the stem ("run") still finds the word.
    expect(await idsOf(catalog, { SearchableText: 'runnin*', sort_on: 'id' })).toEqual([
      'en-shoes',
      'en-title',
      'plain',
    ]);
  });

  it('follows an entry’s new words and language when it is written again', async () => {
    await catalog.put({
      ...entryOf({ id: 'de-cats', title: 'Pets', text: 'The cats are sleeping', language: 'en' }, 2),
    });
    expect(await idsOf(catalog, { SearchableText: 'sleep' })).toEqual(['de-cats']);
    expect(await idsOf(catalog, { SearchableText: 'katze' })).toEqual([]);
    await catalog.put(entryOf(ITEMS[2], 3));
    expect(await idsOf(catalog, { SearchableText: 'katze' })).toEqual(['de-cats']);
  });

  it('takes a sort it cannot render in SQL (by an array) through the word lists, with the same matches', async () => {
    expect(await idsOf(catalog, { SearchableText: 'running', sort_on: 'Creator' })).toEqual([
      'en-shoes',
      'plain',
      'en-title',
    ]);
  });

  it('creates its columns once when several processes start together', async () => {
    await Promise.all([new Catalog(store).ensureIndexes(), new Catalog(store).ensureIndexes()]);
    expect(await idsOf(catalog, { SearchableText: 'katze' })).toEqual(['de-cats']);
  });
});

/** The same queries on every engine: what word lists and PostgreSQL's text search answer differently. */
describe.each(STORE_ENGINES)('engine differences on $name', (engine) => {
  let opened: TestStore;
  let catalog: Catalog;

  beforeAll(async () => {
    ({ opened, catalog } = await openCatalog(engine));
  });
  afterAll(async () => {
    await opened.dispose();
  });

  it('finds inflected words only on PostgreSQL, which stems', async () => {
    const found = await idsOf(catalog, { SearchableText: 'run', sort_on: 'id' });
    expect(found).toEqual(engine.name === 'postgres' ? ['en-shoes', 'en-title'] : []);
  });

  it('matches a stop word alone only with word lists (PostgreSQL drops it from the query)', async () => {
    const found = await idsOf(catalog, { SearchableText: 'the', sort_on: 'id' });
    expect(found).toEqual(engine.name === 'postgres' ? ['plain'] : ['en-shoes', 'plain']);
  });

  it('agrees on exact words, prefixes and every term being required', async () => {
    expect(await idsOf(catalog, { SearchableText: 'marathon' })).toEqual(['en-shoes']);
    expect(await idsOf(catalog, { SearchableText: 'week*' })).toEqual(['en-title']);
    expect(await idsOf(catalog, { SearchableText: 'shoes marathon' })).toEqual(['en-shoes']);
    expect(await idsOf(catalog, { SearchableText: 'shoes club' })).toEqual([]);
  });
});
