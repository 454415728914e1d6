/** §4.5 tools, instruction / textInstructions, per-assistant voice and text overrides. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSTRUCTION, TEXT_INSTRUCTION, tool } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

describe('tools', () => {
  it('PUT: omitting textInstructions keeps it, null removes it', async () => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    expect(t.textInstructions).toEqual(TEXT_INSTRUCTION);
    const put = (body: unknown) => w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body });
    expect((await put({ name: 'u' })).body.data).toMatchObject({ name: 'u', textInstructions: TEXT_INSTRUCTION });
    expect((await put({ textInstructions: null })).body.data.textInstructions).toBeNull();
    expect((await put({ instruction: { title: 1 } })).status).toBe(400);
    expect((await w.req('POST', '/tools', { key: w.A.apiKey, body: { name: 'x' } })).status).toBe(400);
    const kb = await w.req('PUT', `/tools/0b5e1c2d-4a6f-4e8b-9c1d-2e3f4a5b6c7d/instruction`, { key: w.A.apiKey, body: { instruction: INSTRUCTION } });
    expect(kb.status).toBe(200);
    expect(kb.body.data).toMatchObject({ type: 'knowledge_base', instruction: INSTRUCTION, textInstructions: null });
  });

  it('voice and text overrides are independent; text applies only with textInstructions; empty restores', async () => {
    const a = await w.assistant(w.A.apiKey);
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    const base = `/assistants/${a.id}/tools/${t.id}`;
    const put = (p: string, body: unknown) => w.req('PUT', `${base}${p}`, { key: w.A.apiKey, body });
    let v = (await put('/description-override', { description: 'voice!' })).body.data;
    expect(v.voice.effective.description).toBe('voice!');
    expect(v.text.effective.description).toBe(TEXT_INSTRUCTION.description);
    v = (await put('/text-description-override', { description: 'text!' })).body.data;
    expect([v.voice.effective.description, v.text.effective.description]).toEqual(['voice!', 'text!']);
    v = (await put('/steps/t1/text-override', { text: 'step!' })).body.data;
    expect(v.text.effective.steps[0].text).toBe('step!');
    expect((await put('/steps/nope/text-override', { text: 'x' })).status).toBe(404);
    // remove textInstructions: text overrides stop applying, text falls back to the voice view
    await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { textInstructions: null } });
    v = (await w.req('GET', `${base}/text-override`, { key: w.A.apiKey })).body.data;
    expect(v.text).toMatchObject({ hasTextInstructions: false, applied: false, descriptionOverride: 'text!' });
    expect(v.text.effective.description).toBe('voice!');
    // restore textInstructions: they apply again
    await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { textInstructions: TEXT_INSTRUCTION } });
    v = (await w.req('GET', `${base}/text-override`, { key: w.A.apiKey })).body.data;
    expect(v.text.effective.description).toBe('text!');
    // empty description restores the default
    v = (await put('/description-override', { description: '' })).body.data;
    expect(v.voice).toEqual({ descriptionOverride: null, effective: INSTRUCTION });
    expect(v.text.effective.description).toBe('text!');
    v = (await w.req('DELETE', `${base}/steps/t1/text-override`, { key: w.A.apiKey })).body.data;
    expect(v.text.stepOverrides).toEqual([]);
    v = (await w.req('DELETE', `${base}/text-override`, { key: w.A.apiKey })).body.data;
    expect(v.text.effective).toEqual(TEXT_INSTRUCTION);
  });
});
