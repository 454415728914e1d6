/** §4.5 session insights: single and batch. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endedCall, liveCall } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const U = (i: number) => `0d9c3a5e-1111-4222-8333-${String(i).padStart(12, '0')}`;

describe('insights', () => {
  it("404 'Call insights not found' until metrics land, then the full shape", async () => {
    await w.ctl('PUT', '/config', { insightsDelayMs: 150 });
    const c = await liveCall(w, w.A);
    const get = () => w.req('GET', `/calls/${c.id}/insights`, { key: w.A.apiKey });
    let r = await get();
    expect([r.status, r.body.error.code, r.body.error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'Call insights not found']);
    await w.ctl('POST', '/tool-invocations', { callId: c.id, toolId: '0b5e1c2d-4a6f-4e8b-9c1d-2e3f4a5b6c7d' });
    await w.ctl('POST', `/calls/${c.id}/end`, {});
    expect((await get()).status).toBe(404);
    const deadline = Date.now() + 3000;
    while ((r = await get()).status !== 200 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 25));
    expect(r.status).toBe(200);
    const d = r.body.data;
    const turns = (await w.req('GET', `/calls/${c.id}`, { key: w.A.apiKey })).body.data.transcript.filter((l: any) => l.role === 'assistant').length;
    expect(d.performance).toHaveLength(turns);
    for (const p of d.performance) {
      for (const k of [
        'endToEndLatencyMs',
        'llmTimeToFirstTokenMs',
        'ttsTimeToFirstByteMs',
        'transcriptionDelayMs',
        'endOfUtteranceDelayMs',
        'promptTokens',
        'completionTokens',
      ]) {
        expect(typeof p[k], k).toBe('number');
      }
    }
    const mean = (k: string) => d.performance.reduce((a: number, p: any) => a + p[k], 0) / d.performance.length;
    expect(d.summary.averageEndToEndLatencyMs).toBeCloseTo(mean('endToEndLatencyMs'));
    expect(d.models.map((m: any) => m.role)).toEqual(['llm', 'transcriber', 'voice']);
    expect(new Set(d.timeline.map((e: any) => e.type))).toEqual(new Set(['caller_speech', 'assistant_reply', 'tool_call', 'tool_result']));
  });

  it('batch: 1 to 25 unique ids; misses reported; a miss never fails the request', async () => {
    const mine = await endedCall(w, w.A);
    const live = await liveCall(w, w.A);
    const foreign = await endedCall(w, w.B);
    const q = (ids: string) => w.req('GET', `/calls/insights?ids=${ids}`, { key: w.A.apiKey });
    const r = await q([mine.id, live.id, foreign.id, U(1)].join(','));
    expect(r.status).toBe(200);
    expect(r.body.data.insights.map((i: any) => i.callId)).toEqual([mine.id]);
    expect(r.body.data.missing).toEqual([
      { id: live.id, reason: 'metrics_not_found' },
      { id: foreign.id, reason: 'call_not_found' },
      { id: U(1), reason: 'call_not_found' },
    ]);
    const many = (n: number) => Array.from({ length: n }, (_, i) => U(i)).join(',');
    expect((await q(many(25))).status).toBe(200);
    for (const bad of [many(26), `${U(1)},${U(1)}`, '', `${U(1)},,${U(2)}`]) {
      const b = await q(bad);
      expect(b.status, bad).toBe(400);
      expect(b.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'ids' }] });
    }
    expect((await w.req('GET', '/calls/insights', { key: w.A.apiKey })).status).toBe(400);
  });
});
