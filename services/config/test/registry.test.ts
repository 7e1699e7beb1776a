import { AppError } from '@cms/shared';
import { RECORDS, type JsonValue } from '../src/domain/records';
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

const GLOBALLY = 'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled';
const MODERATION = 'cms.app.discussion.interfaces.IDiscussionSettings.moderation_enabled';

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the registry', () => {
  let store: MemoryValues;
  let registry: Registry;
  beforeEach(() => {
    store = new MemoryValues();
    registry = new Registry(store);
  });

  it('reads initial values until a record is set', async () => {
    expect(await registry.value(GLOBALLY)).toBe(false);
    await registry.update({ [GLOBALLY]: true });
    expect(await registry.value(GLOBALLY)).toBe(true);
    expect(store.data.get(GLOBALLY)).toBe(true);
  });

  it('lists records sorted by name, batched, filtered by prefix', async () => {
    const all = await registry.list('', 0, 1000);
    expect(all.total).toBe(RECORDS.length);
    expect(all.items.map((i) => i.record.name)).toEqual(RECORDS.map((r) => r.name));

    const page = await registry.list('', 2, 3);
    expect(page.total).toBe(RECORDS.length);
    expect(page.items.map((i) => i.record.name)).toEqual(RECORDS.slice(2, 5).map((r) => r.name));

    const dates = await registry.list('cms.i18nl10n', 0, 25);
    expect(dates.items.map((i) => i.record.name)).toEqual([
      'cms.i18nl10n.override_dateformat.Enabled',
      'cms.i18nl10n.override_dateformat.date_format_long',
      'cms.i18nl10n.override_dateformat.date_format_short',
      'cms.i18nl10n.override_dateformat.time_format',
    ]);
    expect(dates.total).toBe(4);
  });

  it('answers 404 for an unknown record', async () => {
    expect((await rejection(registry.value('no.such.record'))).type).toBe('NotFound');
    expect((await rejection(registry.values([GLOBALLY, 'no.such.record']))).type).toBe('NotFound');
  });

  it('reads several records at once', async () => {
    await registry.update({ [MODERATION]: true });
    expect(await registry.values([GLOBALLY, MODERATION, GLOBALLY])).toEqual({ [GLOBALLY]: false, [MODERATION]: true });
  });

  it('writes nothing when one value in the change is wrong', async () => {
    const error = await rejection(registry.update({ [MODERATION]: true, [GLOBALLY]: 'yes' }));
    expect(error.type).toBe('BadRequest');
    expect(error.errors).toEqual([{ field: GLOBALLY, message: expect.any(String) }]);
    expect(store.writes).toBe(0);
    expect(await registry.value(MODERATION)).toBe(false);
  });

  it('names every unknown record and every wrong value', async () => {
    const error = await rejection(
      registry.update({ 'no.such.record': 1, [GLOBALLY]: 1, 'cms.allowed_sizes': ['ok', 2, 'fine', false] }),
    );
    expect(error.errors).toEqual([
      { field: 'no.such.record', message: 'No such registry record' },
      { field: GLOBALLY, message: expect.stringMatching(/boolean/) },
      { field: 'cms.allowed_sizes', message: expect.stringMatching(/^item 1: /) },
      { field: 'cms.allowed_sizes', message: expect.stringMatching(/^item 3: /) },
    ]);
    expect(store.writes).toBe(0);
  });

  it.each([[[]], [null], ['text'], [3]])('refuses a body that is not an object: %j', async (body) => {
    const error = await rejection(registry.update(body));
    expect(error.type).toBe('BadRequest');
    expect(error.errors).toEqual([{ field: '(body)', message: expect.any(String) }]);
  });

  it('accepts an empty change without writing', async () => {
    await registry.update({});
    expect(store.writes).toBe(0);
  });

  it('reads a stored value that no longer fits its record as the initial value', async () => {
    store.data.set(GLOBALLY, 'corrupt');
    expect(await registry.value(GLOBALLY)).toBe(false);
  });
});
