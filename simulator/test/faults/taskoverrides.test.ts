/** Probes of the task override faults (simulator/src/faults/taskoverrides.ts). */
import { TASKOVERRIDES_FAULTS } from '../../src/faults/taskoverrides.ts';
import { probeArea, st } from './probe.ts';

const NEVER_EXISTED = '0d9c3a5e-1111-4222-8333-444455556666';

probeArea('taskoverrides', TASKOVERRIDES_FAULTS, {
  'taskoverrides.unknown-assistant-empty': async (w) => st(await w.req('GET', `/assistants/${NEVER_EXISTED}/tasks/overrides`, { key: w.A.apiKey })),
  'taskoverrides.null-dropped': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.ctl('POST', '/task-overrides', { assistantId: a.id });
    return (await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data;
  },
  'taskoverrides.empty-list-null': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey);
      return (await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data;
    },
    spec: [],
  },
  'taskoverrides.object-not-array': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return Array.isArray((await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data);
  },
});
