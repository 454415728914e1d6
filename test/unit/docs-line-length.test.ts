/**
 * Docs state, not narrate (issue 40 item 6): no line of the README, a page of docs/ or a folder's
 * README is over 300 characters, tables and code blocks included, so every line reads in one
 * glance and a diff shows what changed. A long table cell is split, or its detail moves into prose
 * under the table. Characters are counted as code points.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The longest a docs line may be, in characters. */
const MAX_CHARS = 300;
/** The pages measured: the README, every page of docs/, and the READMEs of the folders that have one. */
const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'simulator/README.md',
  'spec/clauses/README.md',
  'schemas/README.md',
  'reports/README.md',
].filter((f) => existsSync(f));
/**
 * Pages whose long lines another change owns, with why. Each must still have a long line: one that
 * no longer has any fails below, so the exception is removed once it is not needed.
 */
const NOT_YET: Record<string, string> = {};

/** Every line of `text` over {@link MAX_CHARS} characters, as `file:line: N characters`. */
function longLines(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const n = [...line].length;
    return n > MAX_CHARS ? [`${file}:${i + 1}: ${n} characters`] : [];
  });
}

describe('docs lines', () => {
  it(`names file:line and length of a line over ${MAX_CHARS} characters, a table row included`, () => {
    const cell = 'é'.repeat(MAX_CHARS - 7); // '| x | ' and ' |' make the row one character too long
    const text = ['# A page', '', '| a | b |', '|---|---|', `| x | ${cell} |`, `| y | ${cell.slice(1)} |`].join('\n');
    expect(longLines('docs/synthetic.md', text)).toEqual([`docs/synthetic.md:5: ${MAX_CHARS + 1} characters`]);
  });

  it('measures the README, every page of docs/ and the folders’ READMEs', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES).toContain('docs/writing-suites.md');
    expect(PAGES.length).toBeGreaterThan(15);
  });

  it(`no docs line is over ${MAX_CHARS} characters`, () => {
    const long = PAGES.filter((f) => !(f in NOT_YET)).flatMap((f) => longLines(f, readFileSync(f, 'utf8')));
    expect(long, 'split the table cell, or move its detail into prose under the table').toEqual([]);
  });

  it('an exception is kept only while its page still has a long line', () => {
    const done = Object.keys(NOT_YET).filter((f) => !existsSync(f) || longLines(f, readFileSync(f, 'utf8')).length === 0);
    expect(done, 'these pages have no long line left: remove them from NOT_YET').toEqual([]);
  });
});
