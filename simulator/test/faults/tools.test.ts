/** Probes of the tool faults (simulator/src/faults/tools.ts). */
import { TOOLS_FAULTS } from '../../src/faults/tools.ts';
import { INSTRUCTION, TEXT_INSTRUCTION, tool } from '../surface-world.ts';
import { probeArea, st } from './probe.ts';

probeArea('tools', TOOLS_FAULTS, {
  'tools.put-clears-text-instructions': async (w) => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'u' } })).body.data.textInstructions;
  },
  'tools.null-keeps-text-instructions': async (w) => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { textInstructions: null } })).body.data.textInstructions;
  },
  'tools.put-appends-steps': {
    probe: async (w) => {
      const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
      const put = () => w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION } });
      await put();
      const d = (await put()).body.data;
      return [d.instruction.steps.length, d.textInstructions.steps.length];
    },
    spec: [INSTRUCTION.steps.length, TEXT_INSTRUCTION.steps.length],
  },
  'tools.empty-description-stored': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const t = await tool(w, w.A);
    await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/description-override`, { key: w.A.apiKey, body: { description: 'v' } });
    return (await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/description-override`, { key: w.A.apiKey, body: { description: '' } })).body.data.voice;
  },
  'tools.voice-text-coupled': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/text-description-override`, { key: w.A.apiKey, body: { description: 'txt' } })).body.data
      .voice;
  },
  'tools.null-removal-not-stored': {
    probe: async (w) => {
      const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
      await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { textInstructions: null } });
      return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'u' } })).body.data.textInstructions;
    },
    spec: null,
  },
  'tools.step-delete-clears-all': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const steps = [...TEXT_INSTRUCTION.steps, { id: 't2', text: 'Confirm the number.' }];
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: { ...TEXT_INSTRUCTION, steps } });
    const [one, two] = steps.map((s) => `/assistants/${a.id}/tools/${t.id}/steps/${s.id}/text-override`);
    await w.req('PUT', one, { key: w.A.apiKey, body: { text: 'one' } });
    await w.req('PUT', two, { key: w.A.apiKey, body: { text: 'two' } });
    return (await w.req('DELETE', one, { key: w.A.apiKey })).body.data.text.stepOverrides.length;
  },
  'tools.step-override-lost-update': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey);
      const steps = [...TEXT_INSTRUCTION.steps, { id: 't2', text: 'Confirm the number.' }];
      const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: { ...TEXT_INSTRUCTION, steps } });
      const put = (s: { id: string }) =>
        w.req('PUT', `/assistants/${a.id}/tools/${t.id}/steps/${s.id}/text-override`, { key: w.A.apiKey, body: { text: s.id } });
      await Promise.all(steps.map(put));
      return (await w.req('GET', `/assistants/${a.id}/tools/${t.id}/text-override`, { key: w.A.apiKey })).body.data.text.stepOverrides.length;
    },
    spec: 2,
  },
  'tools.overrides-shared-across-assistants': {
    probe: async (w) => {
      const [a, b] = [await w.assistant(w.A.apiKey), await w.assistant(w.A.apiKey)];
      const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
      await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/text-description-override`, { key: w.A.apiKey, body: { description: 'for a' } });
      return (await w.req('GET', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.A.apiKey })).body.data.text.descriptionOverride;
    },
    spec: null,
  },
  'xtenant.foreign-tool-403': async (w) => st(await w.req('PUT', `/tools/${(await tool(w, w.B)).id}`, { key: w.A.apiKey, body: {} })),
  'xtenant.foreign-tool-write-through': async (w) => {
    const t = await tool(w, w.B, { name: 'b', instruction: INSTRUCTION });
    await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'stolen' } });
    return (await w.req('GET', `/tools/${t.id}`, { key: w.B.apiKey })).body.data.name;
  },
  'xtenant.foreign-override-message': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    const t = await tool(w, w.A);
    return st(await w.req('GET', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.A.apiKey }));
  },
  'xtenant.foreign-override-write-through': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    const t = await tool(w, w.B, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    await w.req('PUT', `/assistants/${b.id}/tools/${t.id}/text-description-override`, { key: w.B.apiKey, body: { description: 'b text' } });
    await w.req('DELETE', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.A.apiKey });
    return (await w.req('GET', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.B.apiKey })).body.data.text.descriptionOverride;
  },
});
