import { DEFAULT_RETRY, LOST_RACE, retryLostRaces, type WriteRetry } from '../../src/store/write-retry';

/** A policy that records its waits instead of sleeping, with a fixed random draw. */
function recording(attempts = 4): WriteRetry & { waits: number[] } {
  const waits: number[] = [];
  return { ...DEFAULT_RETRY, attempts, random: () => 0.5, sleep: async (ms) => void waits.push(ms), waits };
}

describe('retryLostRaces', () => {
  it('answers the first attempt that does not lose, waiting a growing backoff before each further one', async () => {
    const policy = recording();
    const seen: number[] = [];
    const result = await retryLostRaces(
      policy,
      async (n) => (seen.push(n), n < 3 ? LOST_RACE : 'written'),
      () => new Error('exhausted'),
    );
    expect(result).toBe('written');
    expect(seen).toEqual([1, 2, 3]);
    // 4 ms then 8 ms, each drawn at three quarters.
    expect(policy.waits).toEqual([3, 6]);
  });

  it('throws what `exhausted` makes once every attempt lost, without waiting after the last', async () => {
    const policy = recording(3);
    let attempts = 0;
    await expect(
      retryLostRaces(
        policy,
        async () => (attempts++, LOST_RACE),
        () => new Error('taken by others'),
      ),
    ).rejects.toThrow('taken by others');
    expect(attempts).toBe(3);
    expect(policy.waits).toHaveLength(2);
  });

  it('passes on an attempt that throws, and answers null or false as results', async () => {
    const policy = recording();
    await expect(
      retryLostRaces(
        policy,
        async () => Promise.reject(new Error('refused')),
        () => new Error('x'),
      ),
    ).rejects.toThrow('refused');
    await expect(
      retryLostRaces(
        policy,
        async () => null,
        () => new Error('x'),
      ),
    ).resolves.toBeNull();
    await expect(
      retryLostRaces(
        policy,
        async () => false,
        () => new Error('x'),
      ),
    ).resolves.toBe(false);
    expect(policy.waits).toEqual([]);
  });
});
