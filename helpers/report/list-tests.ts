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
  const m = /\[([^[\]]+)\]\s*$/.exec(name);
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

/** Pattern of a clause id (`5.6/rotated-key`), as the catalogue loader checks it. */
export const CLAUSE_ID = /^\d+(\.\d+)*\/[a-z0-9][a-z0-9.-]*$/;

/**
 * Clause ids written as string literals in TypeScript source files (comments excluded), found
 * with the TypeScript parser: the ids that checks name (`check(['6/a-secret-header', …])`) and that
 * helpers such as the envelope audit record on every answer. Returns id → files that name it.
 */
export async function clauseIdsInSource(files: string[], root = process.cwd()): Promise<Map<string, string[]>> {
  const ts = (await import('typescript')).default;
  const out = new Map<string, string[]>();
  for (const file of files) {
    const { readFileSync } = await import('node:fs');
    const { relative } = await import('node:path');
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const rel = relative(root, file);
    const visit = (node: import('typescript').Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CLAUSE_ID.test(node.text)) {
        const list = out.get(node.text) ?? [];
        if (!list.includes(rel)) list.push(rel);
        out.set(node.text, list);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}
