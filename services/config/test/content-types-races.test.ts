import { BUILTIN_TYPES, DEFAULT_RETRY, type ContentTypeDef } from '@cms/shared';
import { RecordChanges } from '../src/domain/changes';
import { ContentTypes, type TypeDefinitionStore } from '../src/domain/content-types';

/** A type store whose conditional replace loses the first `losses` times, as under a concurrent editor. */
function racingStore(losses: number): TypeDefinitionStore & { replaced: number } {
  const document = BUILTIN_TYPES.find((t) => t.name === 'Document')!;
  let stored = { definition: structuredClone(document), version: 1 };
  let lost = 0;
  return {
    replaced: 0,
    list: async () => [stored],
    find: async (name) => (name === document.name ? structuredClone(stored) : null),
    seed: async () => false,
    insert: async () => false,
    async replace(definition: ContentTypeDef, version: number) {
      if (lost < losses) {
        lost += 1;
        stored = { ...stored, version: stored.version + 1 };
        return false;
      }
      if (version !== stored.version) return false;
      stored = { definition, version: version + 1 };
      this.replaced += 1;
      return true;
    },
    remove: async () => false,
  };
}

describe('a schema edit that races other writes of its type', () => {
  const edit = { change: 'update' as const, target: undefined, body: { title: 'Page' } };

  it('is tried again after a backoff, on the type as the other write left it', async () => {
    const waits: number[] = [];
    const store = racingStore(2);
    const types = new ContentTypes(store, new RecordChanges(), {
      ...DEFAULT_RETRY,
      sleep: async (ms) => void waits.push(ms),
    });
    await types.editSchema('Document', edit);
    expect(store.replaced).toBe(1);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(0);
  });

  it('answers 409 once every attempt lost', async () => {
    const types = new ContentTypes(racingStore(99), new RecordChanges(), { ...DEFAULT_RETRY, sleep: async () => {} });
    await expect(types.editSchema('Document', edit)).rejects.toMatchObject({ type: 'Conflict' });
  });
});
