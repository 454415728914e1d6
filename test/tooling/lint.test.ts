/**
 * The code base is clean under ESLint (eslint.config.js: typescript-eslint's recommended and
 * stylistic rules, the rules that catch real mistakes, and the rule that keeps suites to `verify`)
 * and laid out by Prettier (.prettierrc.json): `npm run lint` (scripts/lint.ts) run by `npm test`.
 */
import { describe, expect, it } from 'vitest';
import { eslintFindings, unformattedFiles } from '../../scripts/lint';

describe('lint and layout (npm run lint)', () => {
  it('ESLint reports nothing', async () => {
    const { files, findings } = await eslintFindings();
    expect(files, 'ESLint found no files to lint').toBeGreaterThan(100);
    expect(findings, `ESLint (npx eslint <file> shows each; npx eslint --fix fixes some):\n  ${findings.join('\n  ')}`).toEqual([]);
  }, 120_000);

  it('a suite checks and records through verify only: the record module and the check engine are closed to it', async () => {
    const { ESLint } = await import('eslint');
    const text = [
      "import { currentRecord } from '../helpers/record/current-test';",
      "import { recordTargetTrouble } from '../helpers/record/recorder';",
      "import { check } from '../helpers/checks/engine';",
      "import { recordMatrixCell } from '../helpers/record/recorder';",
      'export const used = [currentRecord, recordTargetTrouble, check, recordMatrixCell];',
      '',
    ].join('\n');
    const [result] = await new ESLint().lintText(text, { filePath: 'suites/probe.test.ts' });
    const refused = result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line);
    expect(refused).toEqual([1, 2, 3]);
  });

  it('Prettier would change no file it checks', async () => {
    const { files, unformatted } = await unformattedFiles();
    expect(files).toBeGreaterThan(5);
    expect(unformatted, `not in Prettier's layout (npm run format rewrites them):\n  ${unformatted.join('\n  ')}`).toEqual([]);
  });
});
