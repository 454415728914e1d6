/**
 * Probes of the validation faults (§4.1, §7) (simulator/src/faults/validation.ts): each
 * edits a fresh assistant of tenant A; `spec` is the answer the spec's reading gives.
 */
import { VALIDATION_FAULTS } from '../../src/faults/validation.ts';
import { leavesTheRestIntact, p } from './assistant-edit.ts';
import { probeArea } from './probe.ts';

probeArea('validation', VALIDATION_FAULTS, {
  'validation.details-first-only': {
    probe: p(async (a) =>
      (await a.patch({ idleTimeoutSeconds: 61, name: 5, transferMode: 'x' })).body.error.details.map((d: { field: string }) => d.field).sort(),
    ),
    spec: ['idleTimeoutSeconds', 'name', 'transferMode'],
  },
  'validation.details-per-rule': {
    probe: p(async (a) =>
      (await a.patch({ idleTimeoutSeconds: 'sixty', callTimeLimitSeconds: 61.5 })).body.error.details.map((d: { field: string }) => d.field).sort(),
    ),
    spec: ['callTimeLimitSeconds', 'idleTimeoutSeconds'],
  },
  'validation.partial-apply': {
    probe: p(async (a) => {
      const before = await a.get();
      const s = await a.status({ name: 'Changed', recordingEnabled: true, idleTimeoutSeconds: 61 });
      return [s, JSON.stringify(await a.get()) === JSON.stringify(before)];
    }),
    spec: [400, true],
  },
});

leavesTheRestIntact('validation', VALIDATION_FAULTS);
