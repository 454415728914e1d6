/**
 * The authorization matrix report (§4 × §5): rendered from the cells the authorization suite
 * recorded on its tests (`tests[].matrixCell` of the run record), so it is written wherever the
 * other reports go (shards included) and rebuilt by `npm run report:merge` from merged records.
 * Rows and columns keep the suite's order (each cell records its position), whatever the order of
 * the tests in the record.
 */
import type { MatrixCell } from '../base/meta';
import type { RunRecord } from './model';

/** File names of the matrix next to `conformance.md`. */
export const AUTHORIZATION_MATRIX = 'authorization-matrix.md';
/** The same cells as data: `{ columns, rows: [{ route, section, scope, cells: { <column>: { expected, outcome } } }] }`. */
export const AUTHORIZATION_MATRIX_JSON = 'authorization-matrix.json';

/** The matrix as data, in the suite's order. */
export interface AuthorizationMatrix {
  columns: string[];
  rows: { route: string; section: string; scope: string; cells: Record<string, { expected: string[]; outcome: string }> }[];
}

/** The matrix of a run, or undefined when the run recorded no cell (the suite did not run). */
export function authorizationMatrix(run: RunRecord): AuthorizationMatrix | undefined {
  const cells = run.tests
    .map((t) => t.matrixCell)
    .filter((c): c is MatrixCell => c !== undefined)
    .sort((a, b) => a.position[0] - b.position[0] || a.position[1] - b.position[1]);
  if (cells.length === 0) return undefined;
  const columnAt = new Map<string, number>();
  for (const c of cells) columnAt.set(c.column, Math.min(columnAt.get(c.column) ?? Infinity, c.position[1]));
  const columns = [...columnAt.keys()].sort((a, b) => columnAt.get(a)! - columnAt.get(b)!);
  const rows = new Map<string, AuthorizationMatrix['rows'][number]>();
  for (const c of cells) {
    const row = rows.get(c.route) ?? { route: c.route, section: c.section, scope: c.scope, cells: {} };
    row.cells[c.column] = { expected: c.expected, outcome: c.outcome };
    rows.set(c.route, row);
  }
  return { columns, rows: [...rows.values()] };
}

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const mark = (s: string) => (s.startsWith('pass: ') ? `✓ ${s.slice(6)}` : s.startsWith('FAIL: ') ? `✗ ${s.slice(6)}` : s.startsWith('skipped') ? 'skipped' : s);

/** `authorization-matrix.md`: expected outcome by scope, each cell's answer, and the skipped cells with reasons. */
export function renderAuthorizationMatrix(m: AuthorizationMatrix): string {
  const scopes = [...new Set(m.rows.map((r) => r.scope))];
  const expectedFor = (scope: string, column: string) => m.rows.find((r) => r.scope === scope && r.cells[column])?.cells[column].expected.join(' or ') ?? '';
  const outcome = (r: AuthorizationMatrix['rows'][number], column: string) => r.cells[column]?.outcome ?? 'not run';
  return [
    '# Authorization matrix (§4 × §5)',
    '',
    'Recorded by suites/authorization.test.ts. Requests use ids that never existed, so `accepted` (authentication passed) shows as',
    '2xx, 404 RESOURCE_NOT_FOUND or the bare not_found; on routes whose body is not shown a 400 may also mean accepted.',
    '',
    '## Expected outcome by route scope (§5.6, §4.5)',
    '',
    `| scope | ${m.columns.map(esc).join(' | ')} |`,
    `|---|${m.columns.map(() => '---').join('|')}|`,
    ...scopes.map((scope) => `| ${scope} | ${m.columns.map((c) => esc(expectedFor(scope, c))).join(' | ')} |`),
    '',
    '## Answers (✓ as expected, ✗ not as expected)',
    '',
    `| route | § | scope | ${m.columns.map(esc).join(' | ')} |`,
    `|---|---|---|${m.columns.map(() => '---').join('|')}|`,
    ...m.rows.map((r) => `| \`${esc(r.route)}\` | ${r.section} | ${r.scope} | ${m.columns.map((c) => esc(mark(outcome(r, c)))).join(' | ')} |`),
    '',
    '## Skipped cells',
    '',
    ...m.rows.flatMap((r) =>
      m.columns.filter((c) => outcome(r, c).startsWith('skipped') || outcome(r, c) === 'not run').map((c) => `- \`${r.route}\` × ${c}: ${outcome(r, c)}`),
    ),
    '',
  ].join('\n');
}
