/**
 * Lists the conformance tests without running them (`vitest list --project conformance --json`
 * in a child process) and reads the clause ids each names: the bracketed ids at the end of a
 * test name, as `clauseTest` writes them (`… [5.6/rotated-key 7/error-envelope]`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One listed test: full name, file (absolute), and the clause ids in its name. */
export interface ListedTest {
  name: string;
  file: string;
  clauses: string[];
}

/** The clause ids in brackets at the end of a test name (`[]` when there are none). */
export function clauseIdsInName(name: string): string[] {
  const m = /\[([^\[\]]+)\]\s*$/.exec(name);
  return m ? m[1].trim().split(/\s+/) : [];
}

/**
 * Lists the tests of a vitest project (default `conformance`) without running them.
 * @param cwd project root (default the current folder).
 * @throws Error with vitest's output when listing fails (e.g. a suite file does not compile).
 */
export async function listConformanceTests(cwd = process.cwd(), project = 'conformance'): Promise<ListedTest[]> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-list-'));
  const out = join(dir, 'list.json');
  try {
    await run(process.execPath, [join(cwd, 'node_modules', 'vitest', 'vitest.mjs'), 'list', '--project', project, `--json=${out}`], {
      cwd,
      // The listing must not disturb the shared reports/ folder.
      env: { ...process.env, CONFORMANCE_REPORT_DIR: join(dir, 'reports') },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
    }).catch((e) => {
      throw new Error(`vitest list --project ${project} failed:\n${String(e.stderr ?? e.message).slice(0, 4000)}`);
    });
    const listed = JSON.parse(readFileSync(out, 'utf8')) as { name: string; file: string }[];
    return listed.map((t) => ({ name: t.name, file: t.file, clauses: clauseIdsInName(t.name) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
