/**
 * A fixture tests of one file share by name (helpers/world/fixtures.ts `fixtureOnce`): on a live tenant the
 * first look-up of a key is every caller's, so two tests cannot both miss a name and both make it; on a
 * simulator each call makes its own.
 */
import { describe, expect, it } from 'vitest';
import { fixtureOnce } from '../../helpers/world/fixtures';
import type { World } from '../../helpers/world/world';

/** A stand-in world: only what `fixtureOnce` reads (whether the target has a control API). */
const worldOf = (control: boolean): World => ({ target: { capabilities: { control } } }) as unknown as World;

/** A find-then-create that takes 2 ms and counts its calls. */
function counted(outcome: 'found' | 'refused' = 'found') {
  const calls = { n: 0 };
  const findOrMake = async () => {
    calls.n += 1;
    await new Promise((r) => setTimeout(r, 2));
    if (outcome === 'refused') throw new Error('POST /prompts answered 400');
    return { id: `prompt-${calls.n}` };
  };
  return { calls, findOrMake };
}

describe('fixtureOnce', () => {
  it('on a live tenant, tests asking at once share the first look-up of a key', async () => {
    const w = worldOf(false);
    const { calls, findOrMake } = counted();
    const got = await Promise.all([1, 2, 3].map(() => fixtureOnce(w, 'prompt chat', findOrMake)));
    expect(calls.n).toBe(1);
    expect(got.map((p) => p.id)).toEqual(['prompt-1', 'prompt-1', 'prompt-1']);
    // A later caller, another key, another file's world.
    expect((await fixtureOnce(w, 'prompt chat', findOrMake)).id).toBe('prompt-1');
    expect((await fixtureOnce(w, 'prompt ivr', findOrMake)).id).toBe('prompt-2');
    expect((await fixtureOnce(worldOf(false), 'prompt chat', findOrMake)).id).toBe('prompt-3');
  });

  it('on a live tenant, the first look-up’s error is every caller’s, and a look-up nobody awaited yet is no unhandled rejection', async () => {
    const w = worldOf(false);
    const { calls, findOrMake } = counted('refused');
    void fixtureOnce(w, 'prompt chat', findOrMake);
    await new Promise((r) => setTimeout(r, 5));
    const results = await Promise.allSettled([fixtureOnce(w, 'prompt chat', findOrMake), fixtureOnce(w, 'prompt chat', findOrMake)]);
    expect(calls.n).toBe(1);
    expect(results.map((r) => (r as PromiseRejectedResult).reason?.message)).toEqual(['POST /prompts answered 400', 'POST /prompts answered 400']);
  });

  it('on a simulator, every call makes its own', async () => {
    const w = worldOf(true);
    const { calls, findOrMake } = counted();
    await Promise.all([1, 2].map(() => fixtureOnce(w, 'prompt chat', findOrMake)));
    expect(calls.n).toBe(2);
  });
});
