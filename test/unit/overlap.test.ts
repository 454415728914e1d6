/** helpers/report/overlap.ts: the longest chain of requests one after another, and the most in flight. */
import { describe, expect, it } from 'vitest';
import { answerTimes, filesAtOnce, filesInFlight, overlapPerFile, requestOverlap, runTiming } from '../../helpers/report/overlap';
import { renderTiming } from '../../helpers/report/markdown';
import type { RunRecord } from '../../helpers/report/model';
import { renderHtml } from '../../helpers/report/html';
import { fixtureRun } from '../fixtures/report/records';

describe('requestOverlap', () => {
  it('counts nothing for no spans', () => {
    expect(requestOverlap([])).toEqual({ chain: 0, inFlight: 0 });
  });

  it('a run of requests one after another is one chain, one in flight', () => {
    const spans = [0, 1, 2, 3, 4].map((i) => [i * 100, i * 100 + 80] as const);
    expect(requestOverlap(spans)).toEqual({ chain: 5, inFlight: 1 });
  });

  it('a request sent the moment the previous one ended follows it (not in flight together)', () => {
    expect(
      requestOverlap([
        [0, 80],
        [80, 160],
        [160, 240],
      ]),
    ).toEqual({ chain: 3, inFlight: 1 });
  });

  it('eight requests at once are a chain of one, eight in flight', () => {
    const spans = Array.from({ length: 8 }, (_, i) => [i, 80 + i] as const);
    expect(requestOverlap(spans)).toEqual({ chain: 1, inFlight: 8 });
  });

  it('waves of four: the chain counts the waves, in any order of the spans', () => {
    const spans = [2, 0, 1].flatMap((w) => Array.from({ length: 4 }, (_, i) => [w * 100 + i, w * 100 + 80 + i] as const));
    expect(requestOverlap(spans)).toEqual({ chain: 3, inFlight: 4 });
  });

  it('a long request beside short ones in a row: the short ones make the chain', () => {
    expect(
      requestOverlap([
        [0, 1000],
        [0, 10],
        [20, 30],
        [40, 50],
      ]),
    ).toEqual({ chain: 3, inFlight: 2 });
  });
});

describe('overlapPerFile', () => {
  it('gives each file its own figures and leaves out files without spans', () => {
    const spans = new Map<string, [number, number][]>([
      [
        'suites/a.test.ts',
        [
          [0, 10],
          [10, 20],
        ],
      ],
      [
        'suites/b.test.ts',
        [
          [0, 10],
          [0, 10],
        ],
      ],
      ['suites/c.test.ts', []],
    ]);
    expect(overlapPerFile(spans)).toEqual({ 'suites/a.test.ts': { chain: 2, inFlight: 1 }, 'suites/b.test.ts': { chain: 1, inFlight: 2 } });
  });

  it("places each file's requests in the run's wall time when the run's start is given", () => {
    const spans = new Map<string, [number, number][]>([
      [
        'suites/a.test.ts',
        [
          [1_000.4, 1_080],
          [1_500, 1_450],
          [1_200, 1_900.6],
        ],
      ],
    ]);
    expect(overlapPerFile(spans, 900)).toEqual({ 'suites/a.test.ts': { chain: 2, inFlight: 1, firstMs: 100, lastMs: 1_001 } });
  });
});

describe('where the time went (format 1.18)', () => {
  it('answer times: the median and the 90th percentile of every span, by nearest rank', () => {
    const spans = new Map([
      ['a', Array.from({ length: 9 }, (_, i) => [i * 1000, i * 1000 + 100] as const)],
      ['b', [[0, 1000] as const]],
    ]);
    expect(answerTimes(spans)).toEqual({ medianMs: 100, p90Ms: 100, count: 10 });
    spans.set('c', [[0, 900] as const, [0, 950] as const]);
    expect(answerTimes(spans)).toEqual({ medianMs: 100, p90Ms: 950, count: 12 });
    expect(answerTimes(new Map())).toBeUndefined();
  });

  it('files in flight: the most whose first request and last answer overlap', () => {
    expect(
      filesInFlight({
        a: { chain: 1, inFlight: 1, firstMs: 0, lastMs: 100 },
        b: { chain: 1, inFlight: 1, firstMs: 50, lastMs: 150 },
        c: { chain: 1, inFlight: 1, firstMs: 150, lastMs: 200 },
      }),
    ).toBe(2);
    expect(filesInFlight({ a: { chain: 1, inFlight: 1 } })).toBe(0);
  });

  it('the floor, and the file that needs longest at the most it had in flight', () => {
    const overlap = { big: { chain: 90, inFlight: 8 }, wide: { chain: 10, inFlight: 64 } };
    const t = runTiming(1000, { big: 720, wide: 280 }, overlap, 1500, 2, 8);
    expect(t.floorMs).toBe((1000 * 1500) / 16);
    expect(t.bound).toEqual({ file: 'big', requests: 720, inFlight: 8, ms: (720 * 1500) / 8 });
  });

  it("files at once: the run's file workers, at most the files that sent requests; before 1.19 the most measured at once", () => {
    const overlap = {
      a: { chain: 1, inFlight: 1, firstMs: 0, lastMs: 10 },
      b: { chain: 1, inFlight: 1, firstMs: 20, lastMs: 30 },
      c: { chain: 1, inFlight: 1, firstMs: 25, lastMs: 40 },
    };
    const perFile = { a: 5, b: 5, c: 5, quiet: 0 };
    expect(filesAtOnce(8, overlap, perFile)).toBe(3);
    expect(filesAtOnce(2, overlap, perFile)).toBe(2);
    // Measured, the three files were never all under way at once: two at most.
    expect(filesAtOnce(undefined, overlap, perFile)).toBe(2);
    expect(filesAtOnce(undefined, {}, {})).toBe(1);
  });

  it('the report says the floor and the bounding file, and leaves the section out of an older record', () => {
    const run = {
      startedAt: '2026-11-27T00:00:00.000Z',
      finishedAt: '2026-11-27T00:03:00.000Z',
      requests: {
        total: 1000,
        retries: 0,
        perFile: { 'suites/big.test.ts': 720, 'suites/wide.test.ts': 280 },
        overlap: {
          'suites/big.test.ts': { chain: 90, inFlight: 8, firstMs: 0, lastMs: 170_000 },
          'suites/wide.test.ts': { chain: 10, inFlight: 64, firstMs: 1000, lastMs: 20_000 },
        },
        answerMs: { medianMs: 1500, p90Ms: 1600, count: 1000 },
        concurrency: 8,
      },
    } as unknown as RunRecord;
    const text = renderTiming(run).join('\n');
    expect(text).toContain('The run took 180.0 s for 1000 requests; the median answer took 1500 ms (90% within 1600 ms).');
    expect(text).toContain('(2 files at once × 8 in flight) = 93.8 s; the run took 1.9× it.');
    expect(text).toContain('suites/big.test.ts, 720 requests × 1500 ms ÷ 8 = 135.0 s');
    expect(text).toContain('| suites/big.test.ts | 720 | 90 | 135.0 s | 8 | 0.0 s – 170.0 s |');
    expect(renderTiming({ ...run, requests: { ...run.requests, answerMs: undefined } } as RunRecord)).toEqual([]);
    // The HTML report says the same, and leaves the section out of an older record.
    const full = fixtureRun();
    const html = renderHtml({ ...full, startedAt: run.startedAt, finishedAt: run.finishedAt, requests: run.requests });
    expect(html).toContain('<section id="timing"><h2>Where the time went</h2>');
    expect(html).toContain('suites/big.test.ts, 720 requests × 1500 ms ÷ 8 = 135.0 s');
    expect(renderHtml(full)).not.toContain('id="timing"');
  });
});
