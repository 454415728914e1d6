/**
 * `npm run conformance -- [--baseline <conformance.json>] [--spec <core-api.md>] [vitest arguments…]`
 *
 * Runs `vitest run --project conformance` with every other argument passed through (files, `-t`,
 * `--shard 1/3`, …). `--baseline <file>` (or `--baseline=<file>`) is taken out — vitest rejects
 * unknown flags — checked to be a run record, and handed to the clause reporter as
 * `CONFORMANCE_BASELINE`, so the reports lead with the comparison (regressions, fixes, newly
 * skipped, new drift, request counts). Exit status: vitest's (0 only when no conformance test
 * failed); 2 when the baseline cannot be read or the target cannot be reached (global setup's
 * probe: one line naming the cause and the fix). `--spec <file>` names the spec document (the same
 * as `CORE_API_SPEC`); the run needs it only for section titles in the reports.
 */
import { spawn } from 'node:child_process';
import { resolve, join } from 'node:path';
import { readRunRecord } from '../helpers/report/record-io';
import { fileURLToPath } from 'node:url';

/**
 * Splits `--baseline <file>` / `--baseline=<file>` and `--spec <file>` / `--spec=<file>` from the
 * arguments vitest receives.
 * @throws Error when a flag has no file.
 */
export function splitBaseline(args: string[]): { baseline?: string; spec?: string; rest: string[] } {
  const rest: string[] = [];
  const found: { baseline?: string; spec?: string } = {};
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    const flag = (['baseline', 'spec'] as const).find((f) => a === `--${f}` || a.startsWith(`--${f}=`));
    if (!flag) {
      rest.push(a);
      continue;
    }
    if (a === `--${flag}`) {
      const v = args[i + 1];
      if (v === undefined || v.startsWith('-')) throw new Error(`--${flag} needs a file: --${flag} <${flag === 'spec' ? 'core-api.md' : 'conformance.json'}>`);
      found[flag] = v;
      i += 1;
    } else found[flag] = a.slice(`--${flag}=`.length);
  }
  return { ...found, rest };
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof splitBaseline>;
  try {
    parsed = splitBaseline(process.argv.slice(2));
  } catch (e) {
    console.error(`conformance: ${(e as Error).message}`);
    return 2;
  }
  const env = { ...process.env };
  if (parsed.spec) env.CORE_API_SPEC = resolve(parsed.spec);
  if (parsed.baseline) {
    const file = resolve(parsed.baseline);
    try {
      readRunRecord(file);
    } catch (e) {
      console.error(`conformance: ${(e as Error).message}`);
      return 2;
    }
    env.CONFORMANCE_BASELINE = file;
  }
  const vitest = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--project', 'conformance', ...parsed.rest], { stdio: 'inherit', env });
  return new Promise((done) => {
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', (e) => {
      console.error(`conformance: cannot start vitest: ${e.message}`);
      done(2);
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => process.exit(code));
}
