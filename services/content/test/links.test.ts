import {
  linkedUidsOf,
  linksIn,
  mapLinks,
  referencesOf,
  servedLinkFields,
  sitePathOf,
  storedLinks,
  resolveUidLink,
} from '../src/domain/relations';
import { builtinTypeRegistry } from '../src/domain/types';

const SITE = 'http://example.org/site';
const registry = builtinTypeRegistry();
const document = registry.get('Document');
const link = registry.get('Link');

const UIDS: Record<string, string> = {
  '/a': 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  '/folder/b': 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
};
const uidAt = async (path: string) => UIDS[path] ?? null;

describe('links in text, blocks and remoteUrl', () => {
  it('reads the site path a link names, and what followed it', () => {
    expect(sitePathOf(`${SITE}/folder/b/@@images/image`, SITE)).toEqual({
      path: '/folder/b',
      suffix: '/@@images/image',
    });
    expect(sitePathOf('/a#top', SITE)).toEqual({ path: '/a', suffix: '#top' });
    expect(sitePathOf('${portal_url}/a', SITE)).toEqual({ path: '/a', suffix: '' });
    expect(sitePathOf(`${SITE}/caf%C3%A9`, SITE)).toEqual({ path: '/café', suffix: '' });
    for (const other of ['https://other.example/a', '//other.example/a', 'mailto:x@y.z', 'a/b', SITE, `${SITE}/`]) {
      expect(sitePathOf(other, SITE)).toBeNull();
    }
    // Without the site's URL, only paths and ${portal_url} links are recognized.
    expect(sitePathOf(`${SITE}/a`, null)).toBeNull();
    expect(resolveUidLink('../resolveuid/abc/@@download/file')).toEqual({ uid: 'abc', suffix: '/@@download/file' });
  });

  it('stores links to existing objects by UID and leaves the others as sent', async () => {
    const stored = await storedLinks(
      document,
      {
        text: {
          data: `<a href="${SITE}/a">a</a> <img src="/folder/b/@@images/image/thumb"> <a href="/missing">m</a> <a href='https://x.example/'>x</a>`,
        },
        blocks: {
          t: { '@type': 'teaser', href: [{ '@id': `${SITE}/folder/b`, title: 'B' }] },
          s: { '@type': 'slate', value: [{ type: 'link', data: { url: '/a' } }] },
          u: { '@type': 'x', target: { '@type': 'URL', value: '/a' } },
          i: { '@type': 'image', url: '/folder/b' },
        },
        title: `${SITE}/a`,
      },
      SITE,
      uidAt,
    );
    const text = (stored.text as { data: string }).data;
    expect(text).toContain(`href="resolveuid/${UIDS['/a']}"`);
    expect(text).toContain(`src="resolveuid/${UIDS['/folder/b']}/@@images/image/thumb"`);
    expect(text).toContain('href="/missing"');
    expect(text).toContain("href='https://x.example/'");
    const blocks = stored.blocks as Record<string, any>;
    expect(blocks.t.href[0]['@id']).toBe(`resolveuid/${UIDS['/folder/b']}`);
    expect(blocks.s.value[0].data.url).toBe(`resolveuid/${UIDS['/a']}`);
    expect(blocks.u.target.value).toBe(`resolveuid/${UIDS['/a']}`);
    expect(blocks.i.url).toBe(`resolveuid/${UIDS['/folder/b']}`);
    // Fields that hold no links are not touched.
    expect(stored.title).toBe(`${SITE}/a`);

    const remote = await storedLinks(link, { remoteUrl: `${SITE}/a` }, SITE, uidAt);
    expect(remote.remoteUrl).toBe(`\${portal_url}/resolveuid/${UIDS['/a']}`);
    // The site itself stays as sent, as in the original platform.
    expect((await storedLinks(link, { remoteUrl: SITE }, SITE, uidAt)).remoteUrl).toBe(SITE);
  });

  it('reads attributes whose quote never closes as no link, and still finds the others', async () => {
    const html = `<a href="${SITE}/a">a</a> <a href='/a' title="x"> <img src="/folder/b`;
    const stored = await storedLinks(document, { text: { data: html } }, SITE, uidAt);
    expect((stored.text as { data: string }).data).toBe(
      `<a href="resolveuid/${UIDS['/a']}">a</a> <a href='resolveuid/${UIDS['/a']}' title="x"> <img src="/folder/b`,
    );
    const unclosed = ' href="x'.repeat(20_000);
    expect((await storedLinks(document, { text: unclosed }, SITE, uidAt)).text).toBe(unclosed);
  });

  it('serves links by UID at their targets current URLs, and gone ones as stored', () => {
    const fields = {
      text: { data: `<a href="resolveuid/${UIDS['/a']}#x">a</a> <a href="resolveuid/gone">g</a>` },
      blocks: JSON.stringify({ i: { '@type': 'image', url: `../resolveuid/${UIDS['/a']}/@@images/image` } }),
    };
    expect(linkedUidsOf(fields, document).sort()).toEqual([UIDS['/a'], 'gone']);
    const targets = new Map([[UIDS['/a'], '/moved/a']]);
    const body = { text: fields.text, blocks: JSON.parse(fields.blocks), title: 'T' };
    const served = servedLinkFields(document, body, targets, SITE);
    expect((served.text as { data: string }).data).toBe(
      `<a href="${SITE}/moved/a#x">a</a> <a href="resolveuid/gone">g</a>`,
    );
    expect((served.blocks as any).i.url).toBe(`${SITE}/moved/a/@@images/image`);
    expect(served).not.toHaveProperty('title');
    const remote = servedLinkFields(link, { remoteUrl: '${portal_url}/contact' }, new Map(), SITE);
    expect(remote.remoteUrl).toBe(`${SITE}/contact`);
  });

  it('lists the references of a stored object: relation fields by name, links as isReferencing', () => {
    const refs = referencesOf(
      {
        relatedItems: ['r1', 'r2'],
        text: { data: `<a href="resolveuid/t1">x</a><a href="/by/path">y</a><a href="https://x.example">z</a>` },
        blocks: JSON.stringify({ s: { '@type': 'slate', value: [{ type: 'link', data: { url: 'resolveuid/t2' } }] } }),
      },
      document,
    );
    expect(refs).toEqual([
      { relation: 'relatedItems', target: { uid: 'r1' } },
      { relation: 'relatedItems', target: { uid: 'r2' } },
      { relation: 'isReferencing', target: { uid: 't1' } },
      { relation: 'isReferencing', target: { path: '/by/path' } },
      { relation: 'isReferencing', target: { uid: 't2' } },
    ]);
  });

  it('finds and replaces block links without changing the blocks, copying only what holds a replaced one', () => {
    const blocks = {
      a: { '@type': 'teaser', href: [{ '@id': '/a' }], styles: { align: 'left' } },
      b: { '@type': 'slate', value: [{ children: [{ text: 'x' }] }] },
      c: { '@type': 'image', url: '/folder/b' },
    };
    const before = JSON.stringify(blocks);
    expect(linksIn('blocks', blocks)).toEqual(['/a', '/folder/b']);
    // Nothing replaced: the value itself, not a copy.
    expect(mapLinks('blocks', blocks, () => undefined)).toBe(blocks);
    const mapped = mapLinks('blocks', blocks, (found) =>
      found === '/a' ? '/resolveuid/aaa' : undefined,
    ) as typeof blocks;
    expect(mapped.a.href[0]['@id']).toBe('/resolveuid/aaa');
    expect(mapped.a.styles).toBe(blocks.a.styles);
    expect(mapped.b).toBe(blocks.b);
    expect(mapped.c).toBe(blocks.c);
    expect(JSON.stringify(blocks)).toBe(before);
  });
});
