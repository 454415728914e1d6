/**
 * The one judgment of time (helpers/checks/clock.ts) and the limit's own refusal
 * (helpers/checks/limits.ts), in-process: a window judges what holds and what neither the runner's
 * lateness nor the target's clock explains, and ends the test as an `error` naming the lateness
 * otherwise; a 429 without the endpoint's body is waited out, never handed to a limit check.
 */
import { describe, expect, it } from 'vitest';
import { byExcess, NEVER, openWindow, targetTime } from '../../helpers/checks/clock';
import { AT_LIMIT, pastThrottles } from '../../helpers/checks/limits';
import { verifier, ConformanceFailure } from '../../helpers/checks/engine';
import { OwnSideError } from '../../helpers/live/own-side';
import { TargetError, type ApiResponse } from '../../helpers/http/client';
import { TestRecorder } from '../../helpers/record/test-recorder';

/** Blocks this thread for `ms`: a busy runner. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** An answer with the parts the clock and the limits read. */
function answer(status: number, json: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    json,
    headers,
    text: JSON.stringify(json),
    durationMs: 5,
    retries: 0,
    request: { method: 'POST', path: '/calls/x/monitor-session' },
  } as unknown as ApiResponse;
}

/** The verdict of `judge` on a fresh record: pass, fail or error (OwnSideError). */
function verdict(judge: (v: ReturnType<typeof verifier>) => void): 'pass' | 'fail' | 'error' {
  const record = new TestRecorder({});
  const v = verifier('4.5/insights-404-until-metrics', { record });
  try {
    judge(v);
  } catch (e) {
    if (e instanceof OwnSideError) return 'error';
    if (e instanceof ConformanceFailure) return 'fail';
    throw e;
  }
  return record.checks.some((c) => !c.ok) ? 'fail' : 'pass';
}

describe('TimeWindow.judge', () => {
  it('passes what holds, fails what an on-time runner saw fail', () => {
    const w = openWindow().close();
    expect(verdict((v) => w.judge(v, 'in time', true, { expected: 'x', actual: 'x' }))).toBe('pass');
    expect(verdict((v) => w.judge(v, 'in time', false, { expected: 'x', actual: 'y' }))).toBe('fail');
  });

  it('is an error naming the lateness when the runner was late over the window, a fail when the reading bounds the target', async () => {
    const w = openWindow();
    await new Promise((r) => setTimeout(r, 20));
    busy(250);
    await new Promise((r) => setTimeout(r, 30));
    w.close();
    expect(w.lateBy(200)).toBe(true);
    const record = new TestRecorder({});
    const e = (() => {
      try {
        w.judge(verifier('4.5/insights-404-until-metrics', { record }), 'answers within 4 s', false, { expected: '< 4000 ms', actual: '4100 ms' }, record);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(OwnSideError);
    expect((e as Error).message).toMatch(/^answers within 4 s: 4100 ms, but the runner was up to \d+ ms late/);
    expect(record.meta).toMatchObject({ ownSide: 'late-runner' });
    expect(verdict((v) => w.judge(v, 'a span that bounds the target', false, { expected: 'x', actual: 'y', explainedBy: NEVER }))).toBe('fail');
    // An excess beyond what the runner's lateness reached is the target's.
    expect(verdict((v) => w.judge(v, 'answers within 4 s', false, { expected: 'x', actual: 'y', explainedBy: byExcess(5_000) }))).toBe('fail');
  });

  it("is an error when the target's own clock says it held", () => {
    const w = openWindow().close();
    expect(verdict((v) => w.judge(v, 'in time', false, { expected: 'x', actual: 'y', targetHolds: true }))).toBe('error');
  });

  it('surelyWithin and holdsEpoch read the span from the safe side', async () => {
    const w = openWindow();
    await new Promise((r) => setTimeout(r, 30));
    w.close();
    expect(w.surelyWithin(10_000)).toBe(true);
    expect(w.surelyWithin(20)).toBe(false);
    expect(w.holdsEpoch(w.fromEpochMs + 10, 0)).toBe(true);
    expect(w.holdsEpoch(w.toEpochMs! + 5_000, 1_000)).toBe(false);
    expect(w.holdsEpoch(Number.NaN, 1_000)).toBe(false);
  });
});

describe('TimeWindow.spentWithin', () => {
  const at = (iso: string) => answer(201, { token: 'x' }, { date: new Date(iso).toUTCString() });
  it("a span the runner's clock stretched past the window is inside it when the target's own clock says so", () => {
    const stretched = openWindow(performance.now() - 61_000).close();
    expect(() =>
      stretched.spentWithin(60_000, 'the per-tenant mint budget', new TestRecorder({}), [at('2026-11-27T14:00:00Z'), at('2026-11-27T14:00:40Z')]),
    ).not.toThrow();
    expect(() =>
      stretched.spentWithin(60_000, 'the per-tenant mint budget', new TestRecorder({}), [at('2026-11-27T14:00:00Z'), at('2026-11-27T14:00:59Z')]),
    ).toThrow(/spending it took 61\.0 s \(60 s on the target's own clock\), not inside the 60 s window/);
    expect(() => stretched.spentWithin(60_000, 'the per-tenant mint budget', new TestRecorder({}), [undefined, at('2026-11-27T14:00:40Z')])).toThrow(
      OwnSideError,
    );
  });
});

describe('targetTime', () => {
  it('reads metadata.timestamp to the ms, else the Date header to the second', () => {
    expect(targetTime(answer(200, { metadata: { timestamp: '2026-11-27T14:00:00.123Z' } }))).toEqual({
      epochMs: Date.parse('2026-11-27T14:00:00.123Z'),
      resolutionMs: 1,
      from: 'metadata.timestamp',
    });
    expect(targetTime(answer(201, { token: 'x' }, { date: 'Fri, 27 Nov 2026 14:00:00 GMT' }))).toMatchObject({ resolutionMs: 1_000, from: 'Date' });
    expect(targetTime(answer(201, {}))).toBeUndefined();
  });
});

describe('pastThrottles', () => {
  const own = (res: ApiResponse) => typeof (res.json as { retryAfterSeconds?: unknown })?.retryAfterSeconds === 'number';
  const envelope429 = () => answer(429, { success: false, error: { code: 'RATE_LIMITED' } }, { 'retry-after': '0' });

  it("waits out a 429 in the API's envelope and returns the answer after it", async () => {
    const answers = [envelope429(), envelope429(), answer(201, { token: 'x' })];
    const got = await pastThrottles(async () => answers.shift()!, own, 'POST /calls/{id}/monitor-session');
    expect(got.res.status).toBe(201);
    expect(got.throttles).toHaveLength(2);
    expect(got.persisted).toBe(false);
  });

  it("returns the endpoint's own 429 at once", async () => {
    const got = await pastThrottles(async () => answer(429, { retryAfterSeconds: 30 }), own, 'POST /calls/{id}/monitor-session');
    expect(got).toMatchObject({ throttles: [], persisted: false });
    expect(got.res.status).toBe(429);
  });

  it('a throttle that does not lift is no verdict, or handed back as persisting where the caller has other evidence', async () => {
    await expect(pastThrottles(async () => envelope429(), own, 'POST /calls/{id}/monitor-session', { retries: 2 })).rejects.toBeInstanceOf(TargetError);
    const got = await pastThrottles(async () => envelope429(), own, 'POST /calls/{id}/monitor-session', { ...AT_LIMIT, retries: 2 });
    expect(got).toMatchObject({ persisted: true });
    expect(got.throttles).toHaveLength(2);
  });
});
