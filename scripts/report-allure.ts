/**
 * `npm run report:allure [-- --results <dir>] [--out <dir>]`: builds Allure's HTML report (the
 * `allure` npm package, "awesome" report, one self-contained index.html) from the Allure results a
 * run wrote (default `$CONFORMANCE_REPORT_DIR/allure-results`, else `reports/allure-results`) into
 * `<report dir>/allure-report/`. Exit 0 when built, 1 when there are no results or Allure failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readEnv } from '../helpers/base/env';

/**
 * Builds the report; answers the path of its index.html.
 * @throws Error when `results` holds no result file or the allure command fails.
 */
export function buildAllureReport(results: string, out: string): string {
  if (!existsSync(results) || !readdirSync(results).some((f) => f.endsWith('-result.json'))) {
    throw new Error(`no Allure results in ${results}: run the suite first (npm run conformance or npm test)`);
  }
  const cli = resolve('node_modules', 'allure', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'awesome', results, '--output', out, '--single-file', '--report-name', 'Core API conformance'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`allure failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').slice(-500)}`);
  return join(out, 'index.html');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = readEnv('CONFORMANCE_REPORT_DIR');
  const { values } = parseArgs({
    options: { results: { type: 'string', default: join(dir, 'allure-results') }, out: { type: 'string', default: join(dir, 'allure-report') } },
  });
  try {
    console.log(`report:allure: ${buildAllureReport(resolve(values.results!), resolve(values.out!))}`);
  } catch (e) {
    console.error(`report:allure: ${(e as Error).message}`);
    process.exit(1);
  }
}
