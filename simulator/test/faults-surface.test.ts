/**
 * Every surface fault (surface-faults.ts) changes some answer: each probe runs once without the
 * fault and once with it, on a fresh world, and the two results must differ.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../src/faults.ts';
import { isSurfaceFault } from './surface-faults.ts';
import { INSTRUCTION, st, TEXT_INSTRUCTION, tool } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
afterEach(async () => w?.app.close());

const U = '0d9c3a5e-1111-4222-8333-444455556666';

type Probe = (w: World) => Promise<unknown>;

const PROBES: Record<string, Probe> = {
  'xtenant.foreign-tool-write-through': async (w) => {
    const t = await tool(w, w.B, { name: 'b', instruction: INSTRUCTION });
    await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'stolen' } });
    return (await w.req('GET', `/tools/${t.id}`, { key: w.B.apiKey })).body.data.name;
  },
  'xtenant.foreign-tool-403': async (w) => st(await w.req('PUT', `/tools/${(await tool(w, w.B)).id}`, { key: w.A.apiKey, body: {} })),
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
  'xtenant.foreign-assistant-write': async (w) => {
    const b = await w.assistant(w.B.apiKey, { name: 'mine' });
    await w.req('PATCH', `/assistants/${b.id}`, { key: w.A.apiKey, body: { name: 'stolen' } });
    return (await w.req('GET', `/assistants/${b.id}`, { key: w.B.apiKey })).body.data.name;
  },
  'xtenant.list-leak': async (w) => {
    await w.assistant(w.B.apiKey);
    return (await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.A.id } })).body.data.assistants.length;
  },
  'assistants.updated-at-missing': async (w) => 'updatedAt' in (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data,
  'assistants.created-at-text': async (w) => (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data.createdAt === 'recently',
  'assistants.feature-flags-strings': async (w) => (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data.featureFlags,
  'assistants.transfer-settings-as-string': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { transferSettings: { amd_detection: false } } });
    return typeof (await w.req('GET', `/assistants/${a.id}`, { key: w.A.apiKey })).body.data.transferSettings;
  },
  'assistants.patch-omits-server-url': async (w) => 'serverUrl' in (await w.req('PATCH', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey, body: { name: 'n' } })).body.data,
  'assistants.patch-returns-stale': async (w) => (await w.req('PATCH', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey, body: { name: 'renamed' } })).body.data.name,
  'assistants.unknown-patch-403': async (w) => st(await w.req('PATCH', `/assistants/${U}`, { key: w.A.apiKey, body: { name: 'n' } })),
  'taskoverrides.unknown-assistant-empty': async (w) => st(await w.req('GET', `/assistants/${U}/tasks/overrides`, { key: w.A.apiKey })),
  'taskoverrides.null-dropped': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.ctl('POST', '/task-overrides', { assistantId: a.id });
    return (await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data;
  },
  'taskoverrides.object-not-array': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return Array.isArray((await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data);
  },
  'prompts.link-null-ignored': async (w) => {
    const p = (await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'chat' } })).body.data;
    const a = await w.assistant(w.A.apiKey, { chatPromptId: p.id });
    return (await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { chatPromptId: null } })).body.data.chatPromptId;
  },
  'tools.put-clears-text-instructions': async (w) => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'u' } })).body.data.textInstructions;
  },
  'tools.null-keeps-text-instructions': async (w) => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { textInstructions: null } })).body.data.textInstructions;
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
    return (await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/text-description-override`, { key: w.A.apiKey, body: { description: 'txt' } })).body.data.voice;
  },
  'assistants.list-without-name': async (w) => {
    await w.assistant(w.A.apiKey, { name: 'Listed' });
    return (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.data.assistants.map((a: any) => a.name);
  },
  'assistants.create-ignores-transfer-settings': async (w) =>
    (await w.req('POST', '/assistants', { key: w.A.apiKey, body: { name: 'T', transferSettings: { amd_detection: false } } })).body.data.transferSettings,
};

describe('surface faults', () => {
  const surface = FAULTS.filter((f) => isSurfaceFault(f.name));

  it('every surface fault has a probe', () => {
    for (const f of surface) expect(PROBES[f.name], `probe for ${f.name}`).toBeDefined();
  });

  for (const f of surface) {
    it(`${f.name} changes an answer`, async () => {
      const probe = PROBES[f.name];
      if (!probe) return;
      w = await makeWorld();
      const clean = await probe(w);
      await w.app.close();
      w = await makeWorld();
      expect((await w.ctl('PUT', '/config', { faults: [f.name] })).status).toBe(200);
      const faulty = await probe(w);
      expect(faulty, f.name).not.toEqual(clean);
    });
  }
});
