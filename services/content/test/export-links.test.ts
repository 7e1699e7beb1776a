import { linksOfExport } from '../src/exchange/export-links';

const object = (
  path: string,
  uid: string,
  links: { aliases?: string[]; group?: string; language?: string; defaultLanguage?: string } = {},
) => ({
  item_json: Buffer.from(
    JSON.stringify({ '@id': path, '@type': path === '/plone' ? 'Plone Site' : 'Document', UID: uid }),
  ),
  aliases: links.aliases ?? [],
  translation_group: links.group ?? '',
  language: links.language ?? '',
  default_language: links.defaultLanguage ?? '',
});

async function read(objects: ReturnType<typeof object>[]) {
  const links = linksOfExport(
    (async function* () {
      yield* objects;
    })(),
  );
  const passed: unknown[] = [];
  for await (const passing of links.objects) passed.push(passing);
  expect(passed).toEqual(objects);
  return { translations: await links.translations(), redirects: await links.redirects() };
}

describe('translations.json and redirects.json of an export', () => {
  it('names the member in the default language canonical, else the first met; a group of one is left out', async () => {
    const { translations } = await read([
      object('/plone', 'root', { defaultLanguage: 'es' }),
      object('/de/seite', 'de1', { group: 'g1', language: 'de' }),
      object('/es/pagina', 'es1', { group: 'g1', language: 'es' }),
      object('/en/page', 'en1', { group: 'g1', language: 'en' }),
      object('/de/zwei', 'de2', { group: 'g2', language: 'de' }),
      object('/en/two', 'en2', { group: 'g2', language: 'en' }),
      object('/en/alone', 'en3', { group: 'g3', language: 'en' }),
      object('/nolanguage', 'x', { group: 'g3' }),
    ]);
    expect(translations).toEqual([
      { canonical: 'de2', translations: { en: 'en2' } },
      { canonical: 'es1', translations: { de: 'de1', en: 'en1' } },
    ]);
  });

  it('leads each alias to its object’s site-relative path, the site root’s to /', async () => {
    const { redirects, translations } = await read([
      object('/plone', 'root', { aliases: ['/home'] }),
      object('/about', 'a', { aliases: ['/about-us', '/team/old'] }),
      object('/news', 'n'),
    ]);
    expect(redirects).toEqual({ '/home': '/', '/about-us': '/about', '/team/old': '/about' });
    expect(translations).toEqual([]);
  });
});
