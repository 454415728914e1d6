/** The fault switch itself: a reset of the simulator switches every fault off (control-api.md). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const on = async (...faults: string[]) => expect((await w.ctl('PUT', '/config', { faults })).status).toBe(200);

describe('faults', () => {
  it('reset switches faults off', async () => {
    await on('envelope.drop-version');
    await w.ctl('POST', '/reset');
    expect((await w.ctl('PUT', '/config', {})).body.faults).toEqual([]);
  });
});
