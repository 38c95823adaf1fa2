import { describe, expect, it } from 'vitest';
import { coalescedLoad } from '../src/coalesced-load.js';

/** A list source whose answers the test releases one by one. */
function gatedSource() {
  const shown: number[] = [];
  const gates: Array<() => void> = [];
  let version = 0;
  const run = async (): Promise<void> => {
    const seen = version;
    await new Promise<void>((resolve) => gates.push(resolve));
    shown.push(seen);
  };
  return { shown, gates, run, change: () => (version += 1) };
}

describe('coalescedLoad', () => {
  it('shows the state after the last change when changes come while a load is in flight', async () => {
    const s = gatedSource();
    const load = coalescedLoad(s.run);
    const first = load();
    s.change();
    void load(); // the change that came in while the first answer was on its way
    s.change();
    void load();
    s.gates.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(s.gates).toHaveLength(1); // one more load, not two
    s.gates.shift()?.();
    await first;
    expect(s.shown).toEqual([0, 2]);
  });

  it('loads again after a load that threw, and passes the failure on', async () => {
    let calls = 0;
    const load = coalescedLoad(async () => {
      calls += 1;
      if (calls === 1) throw new Error('bridge gone');
    });
    await expect(load()).rejects.toThrow('bridge gone');
    await load();
    expect(calls).toBe(2);
  });
});
