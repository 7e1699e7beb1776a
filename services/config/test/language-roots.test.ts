import { AppError } from '@cms/shared';
import { AVAILABLE_LANGUAGES, languageRootsEffect } from '../src/domain/language-roots';
import { findPanel, updatePanel } from '../src/domain/panels';
import type { JsonValue } from '../src/domain/records';
import { Registry } from '../src/domain/registry';
import type { RegistryValueStore } from '../src/domain/repository';

class MemoryValues implements RegistryValueStore {
  readonly data = new Map<string, unknown>();

  async read(names: readonly string[]) {
    return new Map(names.filter((n) => this.data.has(n)).map((n) => [n, this.data.get(n)]));
  }

  async write(values: ReadonlyMap<string, JsonValue>) {
    for (const [name, value] of values) this.data.set(name, value);
  }
}

/** Multilingual on through the language panel: content makes the language roots before the write is stored. */
describe('the language roots effect', () => {
  let store: MemoryValues;
  let asked: string[][];
  let failing: boolean;
  let registry: Registry;
  beforeEach(() => {
    store = new MemoryValues();
    asked = [];
    failing = false;
    const roots = {
      ensure: async (languages: readonly string[]) => {
        if (failing) throw new AppError('ServiceUnavailable', 'content is away');
        asked.push([...languages]);
        return languages.map((code) => `/${code}`);
      },
    };
    registry = new Registry(store, undefined, [languageRootsEffect(roots)]);
  });

  it('asks content for the roots of two or more languages, through the panel and the registry alike', async () => {
    await updatePanel(findPanel('language'), { available_languages: ['en', 'es'] }, registry, 'r1');
    await registry.update({ [AVAILABLE_LANGUAGES]: ['en', 'es', 'de'] }, 'r2');
    expect(asked).toEqual([
      ['en', 'es'],
      ['en', 'es', 'de'],
    ]);
    expect(store.data.get(AVAILABLE_LANGUAGES)).toEqual(['en', 'es', 'de']);
  });

  it('asks nothing for one language, or for writes of other records', async () => {
    await registry.update({ [AVAILABLE_LANGUAGES]: ['en'] });
    await registry.update({ 'cms.site_title': 'Site' });
    expect(asked).toEqual([]);
    expect(store.data.get(AVAILABLE_LANGUAGES)).toEqual(['en']);
  });

  it('stores nothing when content cannot make the roots', async () => {
    failing = true;
    await expect(registry.update({ [AVAILABLE_LANGUAGES]: ['en', 'fr'], 'cms.site_title': 'New' })).rejects.toThrow(
      'content is away',
    );
    expect(store.data.size).toBe(0);
  });
});
