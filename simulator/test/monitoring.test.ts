/** §3, §4.5, §7 exceptions 2 and 3: live call monitoring. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endedCall, liveCall } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const post = (id: string, action: string, body?: unknown) => w.req('POST', `/calls/${id}/${action}`, { key: w.A.apiKey, body });

describe('monitoring', () => {
  it('mint answers bare JSON; DELETE closes one session and the call stays live', async () => {
    const c = await liveCall(w, w.A);
    const m = await post(c.id, 'monitor-session', { actorLabel: 'Ann' });
    expect(m.status).toBe(201);
    expect(m.body.success).toBeUndefined();
    expect(m.body).toMatchObject({ callId: c.id, sessionId: expect.any(String), token: expect.any(String) });
    const d = await w.req('DELETE', `/calls/${c.id}/monitor-session?sessionId=${m.body.sessionId}`, { key: w.A.apiKey });
    expect(d.status).toBe(200);
    expect(d.body.data).toMatchObject({ sessionId: m.body.sessionId, callLive: true });
    expect((await w.req('GET', `/calls/${c.id}`, { key: w.A.apiKey })).body.data.status).toBe('live');
  });

  it('per-call slots and per-tenant 429 with top-level retryAfterSeconds', async () => {
    await w.ctl('PUT', '/config', { monitorSlotsPerCall: 1, monitorMintsPerMinute: 3 });
    const c = await liveCall(w, w.A);
    expect((await post(c.id, 'monitor-session')).status).toBe(201);
    const full = await post(c.id, 'monitor-session');
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ error: 'conflict', reason: 'slots_full' });
    const c2 = await liveCall(w, w.A);
    expect((await post(c2.id, 'monitor-session')).status).toBe(201);
    const limited = await post(c2.id, 'monitor-session');
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBeUndefined();
    expect(Number.isInteger(limited.body.retryAfterSeconds) && limited.body.retryAfterSeconds >= 1).toBe(true);
    // another tenant is not throttled by A's mints
    expect((await w.req('POST', `/calls/${(await liveCall(w, w.B)).id}/monitor-session`, { key: w.B.apiKey })).status).toBe(201);
  });

  it('takeover and end: bare JSON, agent_absent while away, not_live when finished', async () => {
    const c = await liveCall(w, w.A);
    await w.ctl('POST', `/calls/${c.id}/agent-absent`, { absent: true });
    for (const action of ['takeover', 'end']) {
      const r = await post(c.id, action, { actorLabel: 'x' });
      expect(r.status).toBe(409);
      expect(r.raw).toBe('{"error":"conflict","reason":"agent_absent"}');
    }
    await w.ctl('POST', `/calls/${c.id}/agent-absent`, { absent: false });
    const t = await post(c.id, 'takeover', { actorLabel: 'Sup 1' });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ callId: c.id, action: 'takeover', actorLabel: 'Sup 1' });
    const transcript = (await w.req('GET', `/calls/${c.id}`, { key: w.A.apiKey })).body.data.transcript;
    expect(transcript.some((l: any) => l.role === 'marker' && l.text.includes('Sup 1'))).toBe(true);
    expect((await post(c.id, 'end', { actorLabel: 'Sup 1' })).status).toBe(200);
    for (const action of ['monitor-session', 'takeover', 'end']) {
      const r = await post(c.id, action);
      expect(r.status).toBe(409);
      expect(r.raw).toBe('{"error":"conflict","reason":"not_live"}');
    }
  });

  it('over-length or mistyped fields: 400 in the envelope; labels are recorded verbatim in the audit', async () => {
    const c = await liveCall(w, w.A);
    const long = await post(c.id, 'takeover', { actorLabel: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: [{ field: 'actorLabel' }] } });
    expect((await post(c.id, 'monitor-session', { actorLabel: 42 })).status).toBe(400);
    const label = ' Zoë "O\'Neil" <script>alert(1)</script> 👩‍💼 ';
    await post(c.id, 'monitor-session', { actorLabel: label });
    await post(c.id, 'takeover', { actorLabel: label });
    const during = await w.req('GET', `/calls/${c.id}/monitor-sessions`, { key: w.A.apiKey });
    expect(during.body.success).toBe(true);
    expect(during.body.data.map((a: any) => [a.action, a.actorLabel])).toEqual([
      ['monitor', label],
      ['takeover', label],
    ]);
    await w.ctl('POST', `/calls/${c.id}/end`, {});
    const after = await w.req('GET', `/calls/${c.id}/monitor-sessions`, { key: w.A.apiKey });
    expect(after.body.data[0].closedAt).not.toBeNull();
  });

  it('a finished call still reads its audit; DELETE on it is idempotent', async () => {
    const c = await endedCall(w, w.A);
    expect((await w.req('GET', `/calls/${c.id}/monitor-sessions`, { key: w.A.apiKey })).status).toBe(200);
    const d = await w.req('DELETE', `/calls/${c.id}/monitor-session`, { key: w.A.apiKey });
    expect(d.body.data).toMatchObject({ sessionId: null, callLive: false });
  });
});
