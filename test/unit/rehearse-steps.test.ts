/**
 * How a rehearsal (test/integration/rehearse.ts) turns a workflow step into a command: the narrowed
 * files, one shard for the runs after the first night, and `npm run` steps as package.json's own
 * command without npm's start-up.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { narrowed, withoutNpm } from '../integration/rehearse';
import { verdictTrouble } from '../integration/run-suite';
import type { RunRecord } from '../../helpers/report/model';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('rehearsal steps', () => {
  it('narrows a conformance step to the files, and to one shard with oneShard', () => {
    const files = ['suites/auth.test.ts', 'suites/envelope.test.ts'];
    expect(narrowed('npm run conformance -- --shard=2/3', files)).toBe('npm run conformance -- --shard=2/3 suites/auth.test.ts suites/envelope.test.ts');
    expect(narrowed('npm run conformance -- --shard=2/3', files, true)).toBe('npm run conformance -- suites/auth.test.ts suites/envelope.test.ts');
    expect(narrowed('npm run gate -- --baseline b.json', files, true)).toBe('npm run gate -- --baseline b.json --allow-partial');
    expect(narrowed('cat reports/conformance.md', files, true)).toBe('cat reports/conformance.md');
  });

  it("runs an npm script step as package.json's command, its program from node_modules/.bin", () => {
    const [program, ...rest] = scripts.gate.split(' ');
    expect(withoutNpm('npm run gate -- --baseline b.json --allow-errors')).toBe(
      [resolve('node_modules/.bin', program), ...rest, '--baseline', 'b.json', '--allow-errors'].join(' '),
    );
    expect(withoutNpm('npm run cleanup')).toBe([resolve('node_modules/.bin', scripts.cleanup.split(' ')[0]), ...scripts.cleanup.split(' ').slice(1)].join(' '));
    expect(withoutNpm('cat x >> "$GITHUB_STEP_SUMMARY"')).toBe('cat x >> "$GITHUB_STEP_SUMMARY"');
    expect(() => withoutNpm('npm run no-such-script')).toThrow(/no script no-such-script/);
  });
});

describe('what a "no fail, no error" rehearsal judges', () => {
  it("leaves aside only the errors of the runner's own clock", () => {
    const test = (name: string, status: string, ownSide?: string) => ({ name, status, ownSide }) as unknown as RunRecord['tests'][number];
    const record = {
      tests: [
        test('a', 'pass'),
        test('b', 'fail'),
        test('c', 'error'),
        test('d', 'error', 'late-runner'),
        test('e', 'error', 'window'),
        test('f', 'error', 'foreign-write'),
        test('g', 'fail', 'late-runner'),
      ],
    } as unknown as RunRecord;
    const { bad, runnersOwn } = verdictTrouble(record);
    expect(bad.map((t) => t.name)).toEqual(['b', 'c', 'f', 'g']);
    expect(runnersOwn.map((t) => t.name)).toEqual(['d', 'e']);
    expect(verdictTrouble(undefined)).toEqual({ bad: [], runnersOwn: [] });
  });
});
