/** helpers/report/overlap.ts: the longest chain of requests one after another, and the most in flight. */
import { describe, expect, it } from 'vitest';
import { overlapPerFile, requestOverlap } from '../../helpers/report/overlap';

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
