/** The write path over an in-memory store: conditional writes, retries with an injected sleep, side writes, what follows a commit. */
import { AppError, DEFAULT_RETRY, retryDelay, type EventEnvelope, type WriteRetry } from '@cms/shared';
import { WritePath, type VersionedRecord, type VersionedStore } from '../src/domain/write-path';

interface Item extends VersionedRecord {
  name: string;
}

/** Records in a map; `conflicts` makes that many next conditional writes lose to another writer. */
class MemoryStore implements VersionedStore<Item> {
  readonly records = new Map<string, Item & { _deleted?: boolean }>();
  conflicts = 0;
  readonly log: string[] = [];

  async byId(id: string): Promise<Item | null> {
    const record = this.records.get(id);
    return record && !record._deleted ? { ...record } : null;
  }

  async insert(record: Item): Promise<boolean> {
    if (await this.byId(record._id)) return false;
    this.records.set(record._id, { ...record });
    return true;
  }

  async updateAt(id: string, expected: number | undefined, changes: Partial<Item>, events: EventEnvelope[]) {
    return this.write(id, expected, { ...changes, _outbox: events }, 'update');
  }

  async tombstoneAt(id: string, expected: number | undefined, events: EventEnvelope[]) {
    return this.write(id, expected, { _deleted: true, _outbox: events }, 'tombstone');
  }

  private async write(id: string, expected: number | undefined, changes: Partial<Item>, what: string) {
    const record = this.records.get(id);
    if (!record || record._deleted) return false;
    if (this.conflicts > 0) {
      // Someone else wrote first.
      this.conflicts -= 1;
      record.version = (record.version ?? 0) + 1;
    }
    if (record.version !== expected) return false;
    Object.assign(record, changes, { version: (expected ?? 0) + 1 });
    this.log.push(`${what} ${id}@${record.version}`);
    return true;
  }
}

const event = (id: string): EventEnvelope => ({
  id,
  type: 'test.removed',
  occurredAt: '2024-01-01T00:00:00.000Z',
  payload: {},
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('WritePath', () => {
  let store: MemoryStore;
  let steps: string[];
  let waits: number[];
  let writes: WritePath<Item>;

  const retry = (overrides: Partial<WriteRetry> = {}): Partial<WriteRetry> => ({
    sleep: async (ms) => void waits.push(ms),
    random: () => 0,
    ...overrides,
  });

  const writePath = (overrides: Partial<WriteRetry> = {}) =>
    new WritePath<Item>(store, {
      kind: 'item',
      flush: async (id) => void steps.push(`flush ${id}`),
      changes: {
        userChanged: async (id) => void steps.push(`userChanged ${id}`),
        allChanged: async () => void steps.push('allChanged'),
      },
      retry: retry(overrides),
    });

  beforeEach(async () => {
    store = new MemoryStore();
    steps = [];
    waits = [];
    writes = writePath();
    await store.insert({ _id: 'a', name: 'first', version: 1 });
  });

  it('writes what the plan says at the version it read, and bumps the version', async () => {
    const plan = jest.fn((item: Item) => ({ set: { name: `${item.name}!` } }));
    expect(await writes.change('a', plan)).toBe(true);
    expect(await store.byId('a')).toMatchObject({ name: 'first!', version: 2 });
    expect(plan).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
    expect(steps).toEqual([]);
  });

  it('writes a record that predates versions only while it still has none', async () => {
    await store.insert({ _id: 'old', name: 'legacy' });
    await writes.change('old', () => ({ set: { name: 'new' } }));
    expect(await store.byId('old')).toMatchObject({ name: 'new', version: 1 });
  });

  it('re-reads and re-plans after a conflict, waiting a doubling, jittered delay', async () => {
    store.conflicts = 3;
    const seen: (number | undefined)[] = [];
    await writes.change('a', (item) => {
      seen.push(item.version);
      return { set: { name: 'won' } };
    });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(await store.byId('a')).toMatchObject({ name: 'won', version: 5 });
    // random() = 0: half of 4, 8, 16 ms.
    expect(waits).toEqual([2, 4, 8]);
  });

  it('gives up with 409 after the bounded attempts, having slept between them only', async () => {
    store.conflicts = 100;
    const error = await failure(writes.change('a', () => ({ set: { name: 'lost' }, announce: 'all' })));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ type: 'Conflict', message: 'The item a is being changed by others; try again' });
    expect(waits).toHaveLength(DEFAULT_RETRY.attempts - 1);
    expect(steps).toEqual([]);
    expect((await store.byId('a'))?.name).toBe('first');
  });

  it('keeps each wait within half and all of its doubling delay, capped', () => {
    const policy = { ...DEFAULT_RETRY, random: () => 0.999999 };
    const longest = [1, 2, 3, 4, 5].map((retry) => Math.round(retryDelay(policy, retry)));
    expect(longest).toEqual([4, 8, 16, 20, 20]);
    const shortest = [1, 2, 3, 4, 5].map((retry) => retryDelay({ ...policy, random: () => 0 }, retry));
    expect(shortest).toEqual([2, 4, 8, 10, 10]);
  });

  it('answers 404 for a missing record, or nothing when asked to skip it', async () => {
    expect(await failure(writes.change('ghost', () => ({ set: { name: 'x' } })))).toMatchObject({
      type: 'NotFound',
      message: 'No item ghost',
    });
    expect(await writes.change('ghost', () => ({ set: { name: 'x' } }), { ifMissing: 'skip' })).toBe(false);
  });

  it('writes nothing when the plan finds nothing to do or refuses', async () => {
    expect(await writes.change('a', () => null)).toBe(false);
    const refusal = new Error('refused');
    expect(
      await failure(
        writes.change('a', () => {
          throw refusal;
        }),
      ),
    ).toBe(refusal);
    expect(store.log).toEqual([]);
  });

  it('after a removal: the follow-up, then the announcement, then the events', async () => {
    await writes.change('a', () => ({
      remove: true,
      events: [event('e1')],
      followUp: async () => void steps.push('followUp'),
      announce: { user: 'a' },
    }));
    expect(store.log).toEqual(['tombstone a@2']);
    expect(store.records.get('a')).toMatchObject({ _deleted: true, _outbox: [{ id: 'e1' }] });
    expect(steps).toEqual(['followUp', 'userChanged a', 'flush a']);
  });

  it('announces and publishes a committed change even when its follow-up fails', async () => {
    const error = new Error('follow-up failed');
    const result = writes.change('a', () => ({
      remove: true,
      events: [event('e1')],
      followUp: async () => {
        throw error;
      },
      announce: 'all',
    }));
    expect(await failure(result)).toBe(error);
    expect(steps).toEqual(['allChanged', 'flush a']);
  });

  it('publishes only changes that carry events or remove', async () => {
    await writes.change('a', () => ({ set: { name: 'b' }, announce: 'all' }));
    expect(steps).toEqual(['allChanged']);
  });

  describe('a write alongside', () => {
    let side: string[];
    const alongside = {
      apply: async () => {
        side.push('apply');
        return async () => void side.push('undo');
      },
    };

    beforeEach(() => {
      side = [];
    });

    it('is made once, before the first write, and kept when the change commits after retries', async () => {
      store.conflicts = 2;
      await writes.change('a', () => ({ set: { name: 'b' } }), { alongside });
      expect(side).toEqual(['apply']);
    });

    it('is not made when the first plan refuses', async () => {
      await failure(
        writes.change(
          'a',
          () => {
            throw new Error('no');
          },
          { alongside },
        ),
      );
      expect(side).toEqual([]);
    });

    it('is taken back when the change gives up', async () => {
      store.conflicts = 100;
      expect(await failure(writes.change('a', () => ({ set: { name: 'b' } }), { alongside }))).toMatchObject({
        type: 'Conflict',
      });
      expect(side).toEqual(['apply', 'undo']);
    });

    it('is taken back when a later plan refuses or finds nothing to do', async () => {
      store.conflicts = 1;
      let plans = 0;
      const refusing = () => {
        plans += 1;
        if (plans > 1) throw new Error('the old password no longer matches');
        return { set: { name: 'b' } };
      };
      await failure(writes.change('a', refusing, { alongside }));
      expect(side).toEqual(['apply', 'undo']);

      side = [];
      store.conflicts = 1;
      let calls = 0;
      expect(await writes.change('a', () => (calls++ === 0 ? { set: { name: 'c' } } : null), { alongside })).toBe(
        false,
      );
      expect(side).toEqual(['apply', 'undo']);
    });
  });

  it('inserts a new record and announces it; an id taken is false', async () => {
    expect(await writes.insert({ _id: 'n', name: 'new', version: 1 }, 'all')).toBe(true);
    expect(await writes.insert({ _id: 'n', name: 'again', version: 1 }, 'all')).toBe(false);
    expect(steps).toEqual(['allChanged']);
  });
});
