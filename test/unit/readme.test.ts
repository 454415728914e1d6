/**
 * The README stays a two-minute read (issue 33): at most 200 lines, none over 200 characters, and
 * its index names every page of docs/, so what moves out of the README can still be found from it.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';

const README = readFileSync('README.md', 'utf8');
const lines = README.replace(/\n$/, '').split('\n');

describe('README', () => {
  it('has at most 200 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(200);
  });

  it('has no line over 200 characters', () => {
    const long = lines.flatMap((l, i) => ([...l].length > 200 ? [`line ${i + 1}: ${[...l].length} characters`] : []));
    expect(long, 'move the detail to a page under docs/ and link it').toEqual([]);
  });

  it('links every page of docs/ (its documentation index)', () => {
    const pages = readdirSync('docs').filter((f) => f.endsWith('.md'));
    expect(pages.filter((f) => !README.includes(`](docs/${f})`))).toEqual([]);
  });
});
