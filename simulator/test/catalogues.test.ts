/** §4.5, §2.10: prompts, models, phone numbers, chatapp switch, text test suites. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { number } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const REALTIME = '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f03';

describe('catalogues and prompts', () => {
  it('prompts of the four types, filtered by type', async () => {
    for (const type of ['chat', 'whisper_summary', 'voice_persona', 'ivr']) {
      expect((await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type, content: type } })).status).toBe(201);
    }
    expect((await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'voice' } })).status).toBe(400);
    const chat = await w.req('GET', '/prompts?type=chat', { key: w.A.apiKey });
    expect(chat.body.data.map((p: any) => p.type)).toEqual(['chat']);
    expect((await w.req('GET', '/prompts', { key: w.A.apiKey })).body.data).toHaveLength(4);
    expect((await w.req('GET', '/prompts?type=bogus', { key: w.A.apiKey })).status).toBe(400);
  });

  it('models carry type chat or realtime; numbers can be searched and purchased', async () => {
    const models = (await w.req('GET', '/models', { key: w.A.apiKey })).body.data;
    expect(models.every((m: any) => m.type === 'chat' || m.type === 'realtime')).toBe(true);
    const avail = (await w.req('GET', '/phone-numbers/available', { key: w.A.apiKey })).body.data;
    const bought = await w.req('POST', '/phone-numbers', { key: w.A.apiKey, body: { number: avail[0].number } });
    expect(bought.status).toBe(201);
    expect((await w.req('POST', '/phone-numbers', { key: w.B.apiKey, body: { number: avail[0].number } })).status).toBe(400);
    const again = (await w.req('GET', '/phone-numbers/available', { key: w.B.apiKey })).body.data;
    expect(again.some((n: any) => n.number === avail[0].number)).toBe(false);
  });

  it('chatapp-enabled needs a linked, onboarded number', async () => {
    const patch = (id: string, enabled: boolean) => w.req('PATCH', `/assistants/${id}/chatapp-enabled`, { key: w.A.apiKey, body: { enabled } });
    const bare = await w.assistant(w.A.apiKey);
    expect((await patch(bare.id, true)).body.error.code).toBe('VALIDATION_ERROR');
    expect((await patch(bare.id, false)).status).toBe(200);
    const plain = await number(w, w.A, '+14155554444');
    const a = await w.assistant(w.A.apiKey, { phoneNumberId: plain.id });
    expect((await patch(a.id, true)).status).toBe(400);
    const onboarded = await number(w, w.A, '+14155555555', { chatappOnboarded: true });
    const b = await w.assistant(w.A.apiKey, { phoneNumberId: onboarded.id });
    const r = await patch(b.id, true);
    expect(r.status).toBe(200);
    expect(r.body.data.chatappEnabled).toBe(true);
  });
});

describe('text test suites', () => {
  it('mode text only, at most 12 cases, iterations 1 to 10', async () => {
    const a = await w.assistant(w.A.apiKey);
    const create = (body: Record<string, unknown>) => w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, ...body } });
    const cases = (n: number) => Array.from({ length: n }, (_, i) => ({ input: `q${i}` }));
    expect((await create({ mode: 'text', cases: cases(12), iterations: 10 })).status).toBe(201);
    expect((await create({ mode: 'voice', cases: cases(1) })).status).toBe(400);
    expect((await create({ cases: cases(13) })).status).toBe(400);
    for (const iterations of [0, 11, 2.5, '3']) expect((await create({ iterations, cases: cases(1) })).status).toBe(400);
    expect((await create({ cases: [{ input: 'x', checks: [{ type: 'sentiment' }] }] })).status).toBe(400);
    expect((await w.req('GET', '/test-suites', { key: w.A.apiKey })).body.data).toHaveLength(1);
  });

  it('runs: realtime model refused; outcomes aggregate case by case', async () => {
    const rt = await w.assistant(w.A.apiKey, { modelId: REALTIME });
    const s1 = (await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: rt.id, cases: [{ input: 'hi' }] } })).body.data;
    const refused = await w.req('POST', `/test-suites/${s1.id}/run`, { key: w.A.apiKey });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const a = await w.assistant(w.A.apiKey);
    const body = {
      assistantId: a.id,
      iterations: 4,
      cases: Array.from({ length: 6 }, (_, i) => ({
        input: `Please check order ${i} with lookup`,
        mockTools: [{ name: 'lookup' }],
        checks: [
          { type: 'tool_called', toolName: 'lookup' },
          { type: 'tool_not_called', toolName: 'refund' },
        ],
      })),
    };
    const s2 = (await w.req('POST', '/test-suites', { key: w.A.apiKey, body })).body.data;
    const started = await w.req('POST', `/test-suites/${s2.id}/run`, { key: w.A.apiKey });
    expect(started.status).toBe(201);
    expect(started.body.data.status).toBe('running');
    let run = started.body.data;
    const deadline = Date.now() + 3000;
    while (run.status !== 'completed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      run = (await w.req('GET', `/test-runs/${run.id}`, { key: w.A.apiKey })).body.data;
    }
    expect(run.cases).toHaveLength(6);
    for (const c of run.cases) {
      expect(c.iterations).toHaveLength(4);
      const all = c.iterations.every((i: any) => i.outcome === 'passed');
      expect(c.outcome === 'passed').toBe(all);
      expect(['passed', 'failed', 'error']).toContain(c.outcome);
    }
    expect(run.outcome === 'passed').toBe(run.cases.every((c: any) => c.outcome === 'passed'));
    expect((await w.req('GET', `/test-runs?suiteId=${s2.id}`, { key: w.A.apiKey })).body.data.map((r: any) => r.id)).toEqual([run.id]);
  });
});
