import { describe, expect, it } from 'vitest';
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

  it('runs independent actions first and side by side, then the others last-first', async () => {
    const order: string[] = [];
    let inFlight = 0;
    let most = 0;
    const restore = (label: string) => async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      order.push(label);
      inFlight -= 1;
    };
    const c = new Cleanup();
    c.add('tool', async () => void order.push('tool'));
    c.add('assistant-1', restore('assistant-1'), { independent: true });
    c.add('end call', async () => void order.push('end call'));
    c.add('assistant-2', restore('assistant-2'), { independent: true });
    c.add(
      'assistant-3',
      async () => {
        throw new Error('refused');
      },
      { independent: true },
    );
    const err = await c.run().catch((e) => e);
    expect(most).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual(['assistant-1', 'assistant-2']);
    expect(order.slice(2)).toEqual(['end call', 'tool']);
    expect((err as CleanupError).failures).toEqual(['assistant-3: refused']);
    expect(c.size).toBe(0);
  });
});
