/**
 * The probe harness of the fault catalogue: each area's probe file (simulator/test/faults/<area>.test.ts,
 * beside simulator/src/faults/<area>.ts) hands its faults and one probe per fault to
 * {@link probeArea}, which proves each fault changes what its probe observes. The mutation run
 * shows the suite notices a fault; the probe shows the fault is really there to be noticed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '../../src/server.ts';
import type { Fault } from '../../src/faults/index.ts';
import { freshWorld, type World } from '../world.ts';

/**
 * What a probe observes in a fresh world (world.ts: organization O with tenants A and B,
 * organization P with tenant F): any value compared with `toEqual` (a status, a body, a list).
 */
export type Probe = (w: World) => Promise<unknown>;

/**
 * A probe, or a probe with the observation the spec's reading gives (`spec`), checked too when
 * the observation is stable enough to state.
 */
export type ProbeSpec = Probe | { readonly probe: Probe; readonly spec: unknown };

/** The probes of one area: exactly one per fault, keyed by the area's fault names (a missing one is a type error). */
export type Probes<F extends readonly Fault[]> = Readonly<Record<F[number]['name'], ProbeSpec>>;

/**
 * Declares the probe tests of one area: for each fault, its probe runs in a fresh world with no
 * fault, then in another fresh world with only that fault switched on (`PUT /__control/config`);
 * the two observations must differ, and with `spec` given the first must equal it. Each test's
 * name ends with the fault's clause ids in brackets. A first test
 * checks the probes name exactly the area's faults. A fresh world is a control reset of the area's
 * one simulator (a reset empties every piece of state and switches every fault off).
 */
export function probeArea<const F extends readonly Fault[]>(area: string, faults: F, probes: Probes<F>): void {
  const table = probes as Readonly<Record<string, ProbeSpec>>;
  describe(`${area} faults`, () => {
    // One simulator for the area's probes; each world is a reset of it (world.ts `freshWorld`).
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildSimulator();
    });
    afterAll(async () => {
      await app?.close();
    });

    it('every fault of the area has a probe, and every probe a fault', () => {
      expect(Object.keys(table).sort()).toEqual(faults.map((f) => f.name).sort());
    });

    for (const fault of faults) {
      // The fault's clause ids close the name, as a conformance test's do (`-t <clause>` selects its probe too).
      it(`${fault.name} changes what its probe observes [${fault.clauses.join(' ')}]`, async () => {
        const entry = table[fault.name]!;
        const probe = typeof entry === 'function' ? entry : entry.probe;
        const clean = await probe(await freshWorld(app));
        if (typeof entry !== 'function') expect(clean, `${fault.name} off: the spec's answer`).toEqual(entry.spec);
        const w = await freshWorld(app);
        expect((await w.ctl('PUT', '/config', { faults: [fault.name] })).status).toBe(200);
        const faulty = await probe(w);
        expect(faulty, `${fault.name} on`).not.toEqual(clean);
      });
    }
  });
}

/** Status, error code and error message of an answer: the compact observation of a refusal. */
export function st(r: { status: number; body?: { error?: { code?: string; message?: string } } }): [number, string | null, string | null] {
  return [r.status, r.body?.error?.code ?? null, r.body?.error?.message ?? null];
}
