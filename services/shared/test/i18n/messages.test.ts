import { acceptedLanguages, negotiateLanguage } from '../../src/i18n/accept-language';
import { loadCatalogues, messageLanguages, translatorFor, translatorForRequest } from '../../src/i18n/messages';

describe('Accept-Language negotiation', () => {
  const available = ['de', 'en', 'es', 'fr', 'pt-BR'];

  it('orders the ranges by q-value, keeping the written order among equals, and drops q=0', () => {
    expect(acceptedLanguages('fr;q=0.5, de, es;q=0.9, it;q=0, en-GB;q=0.5')).toEqual(['de', 'es', 'fr', 'en-gb']);
  });

  it('ignores malformed ranges and parameters, and reads a bounded header', () => {
    expect(acceptedLanguages('de;q=2, !!, es;level=1, fr;q=abc')).toEqual(['de', 'es', 'fr']);
    expect(acceptedLanguages(`${'x-'.repeat(10_000)}de`)).toEqual([]);
    expect(acceptedLanguages(Array.from({ length: 100 }, () => 'zz').join(',') + ',de')).not.toContain('de');
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('matches a region to its language, an exact tag first, and falls back', () => {
    expect(negotiateLanguage('es-MX', available, 'en')).toBe('es');
    expect(negotiateLanguage('pt-br', available, 'en')).toBe('pt-BR');
    expect(negotiateLanguage('it, fr;q=0.2', available, 'en')).toBe('fr');
    expect(negotiateLanguage('it', available, 'en')).toBe('en');
    expect(negotiateLanguage('*, de', available, 'en')).toBe('en');
    expect(negotiateLanguage('', available, 'en')).toBe('en');
  });
});

describe('message catalogues', () => {
  const catalogues = loadCatalogues();

  it('has German, Spanish, French and English, each translating every message of the others', () => {
    expect(messageLanguages()).toEqual(expect.arrayContaining(['de', 'en', 'es', 'fr']));
    const ids = (language: string) => [...catalogues.get(language)!.keys()].sort();
    expect(ids('de').length).toBeGreaterThan(50);
    expect(ids('es')).toEqual(ids('de'));
    expect(ids('fr')).toEqual(ids('de'));
    // English is the language of the code: its catalogue is there, with nothing to replace.
    expect(ids('en')).toEqual([]);
  });

  it('translates a known message and leaves an unknown one as written', () => {
    expect(translatorFor('es', catalogues).translate('Submit for publication')).toBe('Enviar para publicación');
    expect(translatorFor('es', catalogues).translate('Not a message')).toBe('Not a message');
    expect(translatorFor('xx', catalogues).translate('Private')).toBe('Private');
    expect(translatorForRequest('de-AT, en;q=0.5')).toMatchObject({ language: 'de' });
    expect(translatorForRequest('de-AT, en;q=0.5').translate('Private')).toBe('Privat');
  });
});
