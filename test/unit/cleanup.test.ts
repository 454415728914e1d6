/** The cleanup ledger (helpers/world/cleanup.ts): last added first, independent runs side by side within a limit, failures in added order. */
import { describe, expect, it, vi } from 'vitest';
import { Cleanup, CleanupError } from '../../helpers/world/cleanup';

describe('cleanup ledger', () => {
  it('runs every action last-first and raises all failures at the end', async () => {
    const order: string[] = [];
    const c = new Cleanup();
    c.add('first', async () => void order.push('first'));
    c.add('broken', async () => {
      throw new Error('boom');
    });
    c.add('last', async () => void order.push('last'));
    const err = await c.run().catch((e) => e);
    expect(order).toEqual(['last', 'first']);
    expect(err).toBeInstanceOf(CleanupError);
    expect((err as CleanupError).failures).toEqual(['broken: boom']);
    expect(c.size).toBe(0);
  });

  it('independent actions keep their place last-added-first; each run of them goes side by side, within the limit', async () => {
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    const restore = (label: string) => async () => {
      events.push(`start ${label}`);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      events.push(`end ${label}`);
    };
    const step = (label: string) => async () => void events.push(label);
    const c = new Cleanup({ atOnce: () => 2 });
    c.add('tool', step('tool'));
    c.add('assistant-1', restore('assistant-1'), { independent: true });
    c.add('assistant-2', restore('assistant-2'), { independent: true });
    c.add('end call', step('end call'));
    c.add('assistant-3', restore('assistant-3'), { independent: true });
    c.add('assistant-4', restore('assistant-4'), { independent: true });
    c.add('assistant-5', restore('assistant-5'), { independent: true });
    await c.run();
    const at = (e: string) => events.indexOf(e);
    // Last added first: 5, 4, 3 together, then the call, then 2 and 1 together, then the tool.
    for (const a of ['assistant-3', 'assistant-4', 'assistant-5']) expect(at(`end ${a}`)).toBeLessThan(at('end call'));
    for (const a of ['assistant-1', 'assistant-2']) {
      expect(at(`start ${a}`)).toBeGreaterThan(at('end call'));
      expect(at(`end ${a}`)).toBeLessThan(at('tool'));
    }
    expect(at('tool')).toBe(events.length - 1);
    expect(at('start assistant-5'), 'a group starts with its last added').toBe(0);
    expect(at('start assistant-4')).toBe(1);
    expect(most, 'at most atOnce() in flight, and a group does use it').toBe(2);
    expect(c.size).toBe(0);
  });

  it('lists failures in the order the actions were added, whatever order they ran and ended in', async () => {
    const c = new Cleanup({ atOnce: () => 3 });
    const failAfter = (ms: number, why: string) => async () => {
      await new Promise((r) => setTimeout(r, ms));
      throw new Error(why);
    };
    c.add('first', failAfter(0, 'one'));
    c.add('slow', failAfter(20, 'two'), { independent: true });
    c.add('quick', failAfter(1, 'three'), { independent: true });
    c.add('last', failAfter(0, 'four'));
    const err = await c.run().catch((e) => e);
    expect((err as CleanupError).failures).toEqual(['first: one', 'slow: two', 'quick: three', 'last: four']);
  });

  it('independent actions follow CORE_API_CONCURRENCY by default', async () => {
    vi.stubEnv('CORE_API_CONCURRENCY', '3');
    try {
      let inFlight = 0;
      let most = 0;
      const c = new Cleanup();
      for (let i = 0; i < 6; i++)
        c.add(
          `assistant-${i}`,
          async () => {
            most = Math.max(most, ++inFlight);
            await new Promise((r) => setTimeout(r, 2));
            inFlight -= 1;
          },
          { independent: true },
        );
      await c.run();
      expect(most).toBe(3);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('a CORE_API_CONCURRENCY it cannot read still runs every action, one at a time, and says so', async () => {
    const done: string[] = [];
    const c = new Cleanup({
      atOnce: () => {
        throw new Error('CORE_API_CONCURRENCY is not an integer');
      },
    });
    c.add('a', async () => void done.push('a'), { independent: true });
    c.add('b', async () => void done.push('b'), { independent: true });
    const err = await c.run().catch((e) => e);
    expect(done).toEqual(['b', 'a']);
    expect((err as CleanupError).failures).toEqual(['independent actions ran one at a time: CORE_API_CONCURRENCY is not an integer']);
  });
});
