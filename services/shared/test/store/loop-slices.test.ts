/**
 * The slices the SQLite adapter shares its reads out in (loop-slices.ts): a read runs at once while the slice has
 * time left, and waits for a later turn of the event loop once it has none. The clock is the test's, so nothing
 * here depends on how fast the machine is.
 */
import { LoopSlices } from '../../src/adapters/store/sqlite/loop-slices';

describe('LoopSlices', () => {
  let clock: number;
  let slices: LoopSlices;

  beforeEach(() => {
    clock = 0;
    slices = new LoopSlices(10, () => clock);
  });

  it('runs a read at once while the slice has time left', async () => {
    let ran = 0;
    const first = slices.run(() => ++ran);
    expect(ran).toBe(1);
    clock = 9;
    const second = slices.run(() => ++ran);
    expect(ran).toBe(2);
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
  });

  it('lets the loop turn before a read that comes once the slice is spent, then starts a new slice', async () => {
    const order: string[] = [];
    // From here on the test runs in a timers phase (the microtasks after a timer's callback): an immediate set in it
    // runs in this turn's check phase, a timer set in it in the next turn's timers phase at the earliest. Set from
    // a check phase, the immediate would wait for the next turn's check phase, after the timer.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await slices.run(() => order.push('first'));
    clock = 10;
    const late = slices.run(() => order.push('late'));
    setImmediate(() => order.push('immediate'));
    expect(order).toEqual(['first']);
    await late;
    expect(order).toEqual(['first', 'immediate', 'late']);
    // The late read started a new slice (at 10): the next read within it runs at once.
    clock = 15;
    void slices.run(() => order.push('within the new slice'));
    expect(order).toEqual(['first', 'immediate', 'late', 'within the new slice']);
  });

  it('answers what the read returned, and rejects with what it threw', async () => {
    await expect(slices.run(() => 'rows')).resolves.toBe('rows');
    clock = 20;
    await expect(
      slices.run(() => {
        throw new Error('no such table');
      }),
    ).rejects.toThrow('no such table');
  });
});
