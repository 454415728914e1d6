/**
 * Probing the assistant's PATCH (§4.1) in a fresh world: an assistant of tenant A to edit, the
 * answers a probe compares, and the check that a fault of the bounds, merge or validation areas
 * leaves every other rule intact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/faults/index.ts';
import { makeWorld, type Res, type World } from '../world.ts';
import type { Probe } from './probe.ts';

/** The parsed JSON of an answer, as world.ts reads it (a probe reaches into it freely). */
type Data = Res['body'];

/** One assistant of tenant A and the requests a probe makes on it. */
export interface Edit {
  /** PATCH /assistants/{id} with `body`. */
  patch(body: unknown): Promise<Res>;
  /** Status of PATCH with `body`. */
  status(body: unknown): Promise<number>;
  /** Data of a PATCH with `body` that must succeed (throws otherwise). */
  ok(body: unknown): Promise<Data>;
  /** Data of GET /assistants/{id}. */
  get(): Promise<Data>;
}

/** Creates assistant "Ava" for tenant A of `w`, and a serverUrl host that resolves publicly. */
export async function edit(w: World): Promise<Edit> {
  const id = (await w.assistant(w.A.apiKey, { name: 'Ava' })).id;
  await w.ctl('POST', '/dns', { hostname: 'hooks.example.com', addresses: ['93.184.216.34'] });
  const patch = (body: unknown) => w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
  return {
    patch,
    status: async (body) => (await patch(body)).status,
    ok: async (body) => {
      const r = await patch(body);
      if (r.status !== 200) throw new Error(`PATCH ${JSON.stringify(body).slice(0, 80)}: ${r.status} ${r.raw.slice(0, 200)}`);
      return r.body.data;
    },
    get: async () => (await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey })).body.data,
  };
}

/** A probe that runs `fn` on a fresh assistant of the probe's world. */
export function p(fn: (a: Edit) => Promise<unknown>): Probe {
  return async (w) => fn(await edit(w));
}

/** A PATCH body that sets `settings.conversationConfig`. */
export const cc = (conversationConfig: unknown) => ({ settings: { conversationConfig } });

/** A serverUrl on hooks.example.com of exactly `length` characters. */
export function url(length: number): string {
  const head = 'https://hooks.example.com/';
  return head + 'a'.repeat(length - head.length);
}

/**
 * For each fault of `faults`: with only it switched on, a valid PATCH inside every bound still
 * succeeds and stores what it sent, and an unrelated invalid one is still refused with one detail.
 */
export function leavesTheRestIntact(area: string, faults: readonly Fault[]): void {
  describe(`${area} faults leave the rest intact`, () => {
    let w: World | undefined;
    afterEach(async () => {
      await w?.app.close();
      w = undefined;
    });
    it.each(faults.map((f) => f.name))('%s', async (name) => {
      w = await makeWorld();
      const a = await edit(w);
      expect((await w.ctl('PUT', '/config', { faults: [name] })).status).toBe(200);
      const good = await a.patch({
        name: 'Bea',
        idleTimeoutSeconds: '30',
        callTimeLimitSeconds: 600,
        transferSettings: { amd_detection: false },
        ivrSettings: { ivrMode: false },
        // Inside every bound, not on it: the over-blocking faults refuse the bound itself.
        serverUrl: url(1000),
        ...cc({ interruptionPlan: { minDuration: 4, minWords: 9 } }),
      });
      expect(good.status).toBe(200);
      // merge.ivr-mode-false-dropped is about ivrMode false itself: it is left out of the comparison.
      // bounds.integer-string-stored-as-text is about this very integer string: it answers it as sent.
      expect(good.body.data).toMatchObject({
        name: 'Bea',
        idleTimeoutSeconds: name === 'bounds.integer-string-stored-as-text' ? '30' : 30,
        callTimeLimitSeconds: 600,
        transferSettings: { amd_detection: false },
        ...(name === 'merge.ivr-mode-false-dropped' ? {} : { ivrSettings: { ivrMode: false } }),
        serverUrl: url(1000),
        settings: { conversationConfig: { interruptionPlan: { minDuration: 4, minWords: 9 } }, warmWhisperDelaySeconds: 0 },
      });
      const bad = await a.patch({ idleMessageMaxSpokenCount: 'ten' });
      expect(bad.status).toBe(400);
      // validation.details-per-rule is about this very list: it lists the field once per failed rule.
      const details = name === 'validation.details-per-rule' ? bad.body.error.details.slice(0, 1) : bad.body.error.details;
      expect(details).toEqual([{ field: 'idleMessageMaxSpokenCount', message: expect.any(String) }]);
      expect((await a.get()).name).toBe('Bea');
    });
  });
}
