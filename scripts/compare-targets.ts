/**
 * `npm run compare-targets -- a/conformance.json b/conformance.json … [--out <dir>]`
 *
 * One clause table across runs (targets or releases): writes `compare-targets.md` and
 * `compare-targets.html` into `--out` (default reports/) and prints the Markdown. Rows where the
 * runs disagree come first. Exit 0; 1 on bad input (fewer than two records, unreadable file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readRunRecord } from '../helpers/report/record-io';
import { compareTargets, renderTargetsHtml, renderTargetsMarkdown } from '../helpers/report/compare-targets';
import { redact } from '../helpers/base/redact';

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, options: { out: { type: 'string' } }, allowPositionals: true, strict: true });
  if (positionals.length < 2) {
    console.error('usage: npm run compare-targets -- <a/conformance.json> <b/conformance.json> [...] [--out <dir>]');
    return 1;
  }
  const table = compareTargets(positionals.map((f) => readRunRecord(resolve(f))));
  const out = values.out ?? 'reports';
  mkdirSync(out, { recursive: true });
  const markdown = redact(renderTargetsMarkdown(table));
  writeFileSync(join(out, 'compare-targets.md'), markdown);
  writeFileSync(join(out, 'compare-targets.html'), redact(renderTargetsHtml(table)));
  console.log(markdown);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  console.error(`compare-targets: ${(e as Error).message}`);
  process.exitCode = 1;
}
