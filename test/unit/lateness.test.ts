/**
 * A loaded runner's clock is not the API's schedule (helpers/base/lateness.ts, and the timing checks of
 * helpers/webhooks/verifiers.ts that use it). Pure: a schedule that is not exponential still fails
 * when the runner was on time, and a stretched one is no verdict when the runner's lateness can
 * explain it. Rehearsed: a sender in a worker thread keeps an exact doubling schedule while the
 * receiver's thread is blocked on purpose; the backoff check then gives `pass` or `error`, never a
 * `fail`. And a limit check that outran its window is `error`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { analyseBackoff, couldBeExponential } from '../../helpers/webhooks/timing';
import { latenessOver, TICK_MS, watchLateness } from '../../helpers/base/lateness';
import { WebhookReceiver } from '../../helpers/webhooks/receiver';
import { backoffSpoilt, verifyBackoff } from '../../helpers/webhooks/verifiers';
import { verifier } from '../../helpers/checks/engine';
import { OwnSideError } from '../../helpers/live/own-side';
import { TestRecorder } from '../../helpers/record/test-recorder';
import { openWindow } from '../../helpers/checks/clock';

/** Blocks this thread (the receiver's) for `ms`: a busy runner. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Arrival times from gaps (ms). */
const arrivals = (gaps: number[]) => gaps.reduce((t, g) => [...t, t[t.length - 1] + g], [0]);

describe('couldBeExponential', () => {
  it('a doubling schedule is exponential whatever the lateness', () => {
    expect(couldBeExponential(arrivals([50, 100, 200, 400, 800]), 0)).toBe(true);
  });
  it('constant waits are not, on time or a few ms late', () => {
    expect(couldBeExponential(arrivals([50, 50, 50, 50, 50]), 0)).toBe(false);
    expect(couldBeExponential(arrivals([50, 50, 50, 50, 50]), 5)).toBe(false);
    expect(couldBeExponential(arrivals([200, 200, 200, 200, 200]), 40)).toBe(false);
  });
  it('waits stretched by a busy runner (the pipelines rehearsal: 97, 124, 493, 512 ms) fail on time, and are no verdict when the runner was 300 ms late', () => {
    const seen = arrivals([97, 124, 493, 512]);
    expect(couldBeExponential(seen, 0)).toBe(false);
    expect(couldBeExponential(seen, 300)).toBe(true);
  });
});

describe('a loaded runner (rehearsed)', () => {
  let rx: WebhookReceiver;
  beforeAll(async () => {
    rx = await WebhookReceiver.start();
    // The receiver's thread is busy for 250 ms after the second attempt and 600 ms after the fourth: seen
    // on its clock, the waits of an exact doubling schedule read about 50, 250, 50, 600, 600 ms (two that do not grow).
    rx.route('/b', (_req, nth) => {
      if (nth === 1) busy(250);
      if (nth === 3) busy(600);
      return 500;
    });
    rx.route('/c', () => 500);
  });
  afterAll(async () => {
    await rx?.close();
  });

  /** Sends 6 POSTs to `url` from a worker thread, `gaps` ms apart on the worker's own clock. */
  function sender(url: string, gaps: number[]): Promise<void> {
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const http = require('node:http');
      const { url, gaps } = workerData;
      const send = (i) => {
        const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => res.resume());
        req.on('error', () => {});
        req.end('{"type":"chatapp.onboarding.completed"}');
        if (i < gaps.length) setTimeout(() => send(i + 1), gaps[i]);
        else setTimeout(() => parentPort.postMessage('done'), 100);
      };
      send(0);`;
    const w = new Worker(code, { eval: true, workerData: { url, gaps } });
    return new Promise((resolve, reject) => {
      w.once('message', () => void w.terminate().then(() => resolve()));
      w.once('error', reject);
    });
  }

  /** The backoff verdict on what the receiver saw at `path`: pass, fail (a failed check) or error (OwnSideError). */
  function verdict(path: string): 'pass' | 'fail' | 'error' {
    const record = new TestRecorder({});
    try {
      verifyBackoff(verifier('6/b-backoff-exponential', { record }), rx.at(path), 50);
    } catch (e) {
      if (e instanceof OwnSideError) return 'error';
      throw e;
    }
    return record.checks.some((c) => !c.ok && c.level !== 'informational') ? 'fail' : 'pass';
  }

  it('the runner blocked twice while a doubling schedule arrives: pass or error (naming the lateness), never fail', async () => {
    watchLateness();
    await sender(rx.url('/b'), [50, 100, 200, 400, 800]);
    const seen = rx.at('/b').map((r) => r.arrivedAtMs);
    expect(seen).toHaveLength(6);
    expect(latenessOver(seen[0] - TICK_MS, seen[5]).maxMs).toBeGreaterThanOrEqual(150);
    const v = verdict('/b');
    expect(['pass', 'error']).toContain(v);
    // A test reads a fresh event exactly when the verdict would be no verdict.
    expect(backoffSpoilt(rx.at('/b'))).toBe(v === 'error');
    // What the runner saw would have failed the check on its own: the lateness is what kept it from a false fail.
    if (!analyseBackoff(seen).exponential) expect(v).toBe('error');
  });

  it('a constant schedule on a runner that was not held back fails (or is no verdict if the machine was loaded)', async () => {
    watchLateness();
    await sender(rx.url('/c'), [60, 60, 60, 60, 60]);
    const seen = rx.at('/c').map((r) => r.arrivedAtMs);
    const late = latenessOver(seen[0] - TICK_MS, seen[5]).maxMs;
    const v = verdict('/c');
    expect(backoffSpoilt(rx.at('/c'))).toBe(v === 'error');
    if (late < 15) expect(v).toBe('fail');
    else expect(['fail', 'error']).toContain(v);
  });
});

describe('TimeWindow.spentWithin', () => {
  it('a limit check that outran its window is error (window), one inside it goes on', () => {
    const record = new TestRecorder({});
    expect(() =>
      openWindow(performance.now() - 5_000)
        .close()
        .spentWithin(60_000, 'the per-tenant mint budget', record),
    ).not.toThrow();
    const e = (() => {
      try {
        openWindow(performance.now() - 61_000)
          .close()
          .spentWithin(60_000, 'the per-tenant mint budget', record);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(OwnSideError);
    expect((e as Error).message).toMatch(/^the per-tenant mint budget: spending it took 61\.0 s, not inside the 60 s window it judges/);
    expect(record.meta).toMatchObject({ ownSide: 'window', targetTrouble: true });
  });
});
