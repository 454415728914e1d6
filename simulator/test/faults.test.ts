import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../src/faults.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const on = async (...faults: string[]) => expect((await w.ctl('PUT', '/config', { faults })).status).toBe(200);

/** Runs `probe` with no fault, then with fault `name`; the answers must differ. */
async function contrast(name: string, probe: () => Promise<unknown>): Promise<void> {
  const ok = await probe();
  await on(name);
  const faulty = await probe();
  await on();
  expect(faulty, name).not.toEqual(ok);
}

describe('faults', () => {
  it('every registered fault changes some answer', async () => {
    const probes: Record<string, () => Promise<unknown>> = {};
    // The legacy catalogue only: a seam fault is probed beside its area (faults/<area>.test.ts).
    for (const f of FAULTS) {
      const probe = probes[f.name];
      expect(probe, `probe for ${f.name}`).toBeDefined();
      await contrast(f.name, probe);
    }
  });

  it('reset switches faults off', async () => {
    await on('envelope.drop-version');
    await w.ctl('POST', '/reset');
    expect((await w.ctl('PUT', '/config', {})).body.faults).toEqual([]);
  });
});
