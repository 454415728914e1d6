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
