import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * Blocks (issue 16): the page model Volto edits — `blocks` by id, ordered by `blocks_layout.items` — on Document,
 * News Item, Event and the site root; validated whole; searchable.
 */

const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('blocks', () => {
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await t.stop();
  });

  it("a new site's front page is a title block and a text block", async () => {
    const root = await json(await t.request('GET', '/'));
    const ids = root.blocks_layout.items as string[];
    expect(ids).toHaveLength(2);
    expect(ids.map((id) => root.blocks[id]['@type'])).toEqual(['title', 'slate']);
    expect(root.blocks[ids[1]].plaintext).toMatch(/Welcome/);
  });

  it('a Document keeps the blocks it was given, in their order', async () => {
    const blocks = {
      a: { '@type': 'title' },
      b: { '@type': 'slate', plaintext: 'Zebrafish migrate', value: [{ type: 'p', children: [{ text: 'x' }] }] },
      c: { '@type': 'image', url: '/image' },
    };
    const created = await t.request('POST', '/', {
      body: {
        '@type': 'Document',
        id: 'with-blocks',
        title: 'With blocks',
        blocks,
        blocks_layout: { items: ['a', 'c', 'b'] },
      },
    });
    expect(created.status).toBe(201);
    const page = await json(await t.request('GET', '/with-blocks'));
    expect(page.blocks).toEqual(blocks);
    expect(page.blocks_layout).toEqual({ items: ['a', 'c', 'b'] });

    const plain = await json(
      (await t.request('POST', '/', { body: { '@type': 'Document', id: 'plain', title: 'Plain' } })) as Response,
    );
    expect(plain.blocks).toEqual({});
    expect(plain.blocks_layout).toEqual({ items: [] });
  });

  it('refuses blocks that are not blocks, or a layout naming a block that is not there; nothing changes', async () => {
    await t.request('POST', '/', {
      body: {
        '@type': 'Document',
        id: 'strict',
        title: 'Strict',
        blocks: { a: { '@type': 'title' } },
        blocks_layout: { items: ['a'] },
      },
    });
    const bad: [unknown, string][] = [
      [{ blocks: [] }, 'blocks'],
      [{ blocks: { a: { text: 'no type' } } }, 'blocks.a'],
      [{ blocks: { a: 'title' } }, 'blocks.a'],
      [{ blocks_layout: { items: ['a', 'missing'] } }, 'blocks_layout.items'],
      [{ blocks_layout: ['a'] }, 'blocks_layout'],
      [{ blocks: { b: { '@type': 'title' } } }, 'blocks_layout.items'],
    ];
    for (const [body, field] of bad) {
      const response = await t.request('PATCH', '/strict', { body });
      expect([body, response.status]).toEqual([body, 400]);
      expect((await json(response)).errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const page = await json(await t.request('GET', '/strict'));
    expect(page.blocks).toEqual({ a: { '@type': 'title' } });
    expect(page.blocks_layout).toEqual({ items: ['a'] });
    // Both together are checked against each other.
    const replaced = await t.request('PATCH', '/strict', {
      body: { blocks: { b: { '@type': 'slate' } }, blocks_layout: { items: ['b'] } },
    });
    expect(replaced.status).toBe(204);
  });

  it('the text of blocks is searchable', async () => {
    await t.request('POST', '/', {
      body: {
        '@type': 'Document',
        id: 'searchable',
        title: 'Searchable',
        blocks: { t: { '@type': 'slate', plaintext: 'quokkas abound' } },
        blocks_layout: { items: ['t'] },
      },
    });
    const found = await json(await t.request('GET', '/@search?SearchableText=quokkas'));
    expect(found.items.map((i: { title: string }) => i.title)).toEqual(['Searchable']);
  });
});
