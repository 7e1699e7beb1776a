import { AppError, neutralName } from '@cms/shared';
import { findPanel, panelData, panelSchema, PANELS, updatePanel } from '../src/domain/panels';
import { PANEL_RECORDS } from '../src/domain/panel-records';
import { findRecord, type JsonValue } from '../src/domain/records';
import { Registry } from '../src/domain/registry';
import type { RegistryValueStore } from '../src/domain/repository';

class MemoryValues implements RegistryValueStore {
  readonly data = new Map<string, unknown>();
  writes = 0;

  async read(names: readonly string[]) {
    return new Map(names.filter((n) => this.data.has(n)).map((n) => [n, this.data.get(n)]));
  }

  async write(values: ReadonlyMap<string, JsonValue>) {
    this.writes += 1;
    for (const [name, value] of values) this.data.set(name, value);
  }
}

const PUBLIC_URL = 'http://localhost:8080';

describe('control panels', () => {
  let store: MemoryValues;
  let registry: Registry;
  beforeEach(() => {
    store = new MemoryValues();
    registry = new Registry(store);
  });

  it('show every panel record in some panel, each field backed by a record', () => {
    const shown = new Set(PANELS.flatMap((p) => p.fields.map(([, name]) => name)));
    for (const [name] of PANEL_RECORDS) expect(shown).toContain(name);
    for (const name of shown) expect(findRecord(name)).toBeDefined();
  });

  it('lists the fourteen panels of the specification and Discussion, as the original does', () => {
    expect(PANELS.filter((p) => p.listed !== false)).toHaveLength(15);
    expect(findPanel('discussion').listed).not.toBe(false);
    // The original id is renamed by the one table of original identifiers, as the dispatcher does on the way in.
    expect(findPanel(neutralName('dexterity-types')).id).toBe('cms-types');
    expect(() => findPanel('nope')).toThrow(AppError);
  });

  it('require the fields that cannot be empty, never a yes/no field', () => {
    expect(panelSchema(findPanel('editing'), PUBLIC_URL).required).toEqual(['available_editors', 'default_editor']);
    expect(panelSchema(findPanel('mail'), PUBLIC_URL).required).toEqual(['smtp_host', 'smtp_port', 'email_charset']);
  });

  it('read choices as terms and take them back as tokens or terms', async () => {
    const language = findPanel('language');
    expect((await panelData(language, registry)).default_language).toEqual({ title: 'English', token: 'en' });
    await updatePanel(language, { default_language: { title: 'German', token: 'de' } }, registry);
    expect(store.data.get('cms.default_language')).toBe('de');
    await updatePanel(language, { default_language: 'fr' }, registry);
    expect((await panelData(language, registry)).default_language).toEqual({ title: 'French', token: 'fr' });
  });

  it('take the choices of a list as tokens or terms', async () => {
    await updatePanel(
      findPanel('language'),
      { available_languages: ['en', { title: 'Spanish', token: 'es' }] },
      registry,
    );
    expect(store.data.get('cms.available_languages')).toEqual(['en', 'es']);
  });

  it('write nothing when one field is wrong, naming the field', async () => {
    const error = await updatePanel(findPanel('site'), { site_title: 'Fine', site_logo: 7 }, registry).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(error?.type).toBe('BadRequest');
    expect(error?.errors?.map((e) => e.field)).toEqual(['site_logo']);
    expect(store.writes).toBe(0);
  });

  it('refuse fields of another panel', async () => {
    await expect(updatePanel(findPanel('site'), { smtp_port: 25 }, registry)).rejects.toMatchObject({
      type: 'BadRequest',
    });
    expect(store.writes).toBe(0);
  });
});
