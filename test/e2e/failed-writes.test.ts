/**
 * A write the content store cannot keep (issue 9, finding 15): with the embedded store's file unwritable, a PATCH
 * answers 500 and leaves nothing behind: reads, the search index and the outbox relay see the object as it was,
 * before and after a restart, and the next write once the file is writable again is kept.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

describe('a write the content store cannot keep', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const title = async (path: string) => ((await (await t.request('GET', path)).json()) as { title: string }).title;
  const found = async (word: string) =>
    ((await (await t.request('GET', `/@search?SearchableText=${word}`)).json()) as { items_total: number }).items_total;

  it('answers 500 and shows the old state in reads and search, also after a restart', async () => {
    const created = await t.request('POST', '/', { body: { '@type': 'Document', title: 'Original heading' } });
    expect(created.status).toBe(201);
    const path = new URL(((await created.json()) as { '@id': string })['@id']).pathname;

    // Root writes files whatever their mode, so a directory takes the file's place: every append fails.
    const file = join(t.dataDir, 'content', 'content.db');
    await fs.rename(file, `${file}.aside`);
    await fs.mkdir(file);
    try {
      expect((await t.request('PATCH', path, { body: { title: 'Rewritten heading' } })).status).toBe(500);
      expect(await title(path)).toBe('Original heading');
      expect(await found('rewritten')).toBe(0);
      expect(await found('heading')).toBe(1);
    } finally {
      await fs.rmdir(file);
      await fs.rename(`${file}.aside`, file);
    }

    expect((await t.request('PATCH', path, { body: { title: 'Second attempt' } })).status).toBe(204);
    expect(await title(path)).toBe('Second attempt');
    expect(await found('second')).toBe(1);

    await t.stop({ keepData: true });
    t = await startTestSuite({}, t.dataDir);
    expect(await title(path)).toBe('Second attempt');
    expect(await found('second')).toBe(1);
    expect(await found('rewritten')).toBe(0);
  });
});
