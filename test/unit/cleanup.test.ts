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
});
