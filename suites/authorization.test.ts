/**
 * The authorization matrix (§4 × §5): every route path of §4.1–§4.5 crossed with the credentials
 * of §5.2/§5.6 (suites/authorization.matrix.ts), each cell checked against the outcome §5.6 and
 * §4.5 give. Unknown ids throughout, so an accepted cell touches nothing. After the file, the
 * matrix with each cell's outcome is written to `reports/authorization-matrix.md` (and `.json`)
 * for the report.
 */
import { afterAll, describe } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useWorld, type PrincipalName } from '../helpers/world';
import { clauseTest, check, skipWith } from '../helpers/clause';
import { hasCapability, capabilityReason } from '../helpers/target';
import type { ApiResponse } from '../helpers/client';
import {
  MATRIX_COLUMNS,
  MATRIX_ROUTES,
  acceptedPrincipal,
  expectedOutcome,
  type MatrixRoute,
  type Outcome,
} from './authorization.matrix';

const world = useWorld();

/** Whether an answer says the route itself is not served (§7 404 NOT_FOUND, or 405). */
function routeMissing(res: ApiResponse): boolean {
  return res.status === 405 || (res.status === 404 && res.json?.error?.code === 'NOT_FOUND');
}

function statusLine(res: ApiResponse): string {
  const e = res.json?.error;
  return `${res.status} ${typeof e === 'string' ? `{"error":"${e}"}` : e?.code ?? ''}`.trim();
}

/**
 * The §5.6 outcomes an answer can stand for. A 400 VALIDATION_ERROR on a route whose body is not
 * shown may be the body's fault, so it stands for both "400 VALIDATION_ERROR" and "accepted".
 */
function interpret(res: ApiResponse, row: MatrixRoute): Outcome[] {
  const code = res.json?.error?.code;
  if (res.status === 401) return code === 'UNAUTHORIZED' ? ['401 UNAUTHORIZED'] : [];
  if (res.status === 403) return code === 'FORBIDDEN' ? ['403 FORBIDDEN'] : code === 'ORG_SCOPE_REQUIRED' ? ['403 ORG_SCOPE_REQUIRED'] : [];
  if (res.status === 400 && code === 'VALIDATION_ERROR') return row.bodyShown ? ['400 VALIDATION_ERROR'] : ['400 VALIDATION_ERROR', 'accepted'];
  if (res.status === 400) return row.bodyShown ? [] : ['accepted'];
  if (res.status >= 200 && res.status < 300) return ['accepted'];
  if (res.status === 404 && res.json !== undefined && code !== 'NOT_FOUND') return ['accepted'];
  // A 429 never reaches here: the client waits it out and resends (it proves nothing about the request).
  if (res.status === 409) return ['accepted'];
  return [];
}

function send(row: MatrixRoute, principal: PrincipalName): Promise<ApiResponse> {
  return world().as(principal).request(row.method, row.path(), { body: row.body, query: row.query?.(), retry: false });
}

/** The probe of each row with its accepted principal, sent once. */
const probes = new Map<string, Promise<ApiResponse>>();
function probe(row: MatrixRoute): Promise<ApiResponse> {
  let p = probes.get(row.route);
  if (!p) {
    p = send(row, acceptedPrincipal(row.scope));
    probes.set(row.route, p);
  }
  return p;
}

/** Each cell's outcome for the written table, keyed `route|column`. */
const cells = new Map<string, string>();
const cellKey = (row: MatrixRoute, column: string) => `${row.route}|${column}`;

function skipCell(ctx: any, row: MatrixRoute, column: string, reason: string): never {
  cells.set(cellKey(row, column), `skipped: ${reason}`);
  skipWith(ctx, reason);
}

describe.each(MATRIX_ROUTES)('$route', (row) => {
  const requires = row.requires ?? [];

  clauseTest('4/route-served', `${row.route} is served`, async (ctx) => {
    const res = await probe(row);
    if (routeMissing(res) && !row.methodShown) {
      skipWith(ctx, `precondition failed: ${row.method} ${row.route} is not served (${statusLine(res)}); §4.5 does not show the method`);
    }
    check('4/route-served', `${row.route} does not answer 404 NOT_FOUND or 405`, !routeMissing(res), {
      expected: 'any answer but 404 NOT_FOUND or 405',
      actual: statusLine(res),
      res,
    });
  }, { requires });

  for (const column of MATRIX_COLUMNS) {
    const expected = expectedOutcome(row.scope, column.principal);
    clauseTest(expected.clauses, `${column.name}: ${expected.outcomes.join(' or ')}`, async (ctx) => {
      const why = world().missing(column.principal);
      if (why) skipCell(ctx, row, column.name, why);
      const served = await probe(row);
      if (routeMissing(served)) skipCell(ctx, row, column.name, `precondition failed: the route is not served (${statusLine(served)})`);
      const res = await send(row, column.principal);
      const got = interpret(res, row);
      const ok = got.some((o) => expected.outcomes.includes(o));
      cells.set(cellKey(row, column.name), `${ok ? 'pass' : 'FAIL'}: ${statusLine(res)}${ok ? '' : ` (expected ${expected.outcomes.join(' or ')})`}`);
      check(expected.clauses, `${row.route} with ${column.name} answers ${expected.outcomes.join(' or ')}`, ok, {
        expected: expected.outcomes.join(' or '),
        actual: `${statusLine(res)}${got.length ? ` (read as ${got.join(' or ')})` : ''}`,
        res,
      });
    }, { requires });
  }
});

/** Where run output goes (the same rule as helpers/report/vitest-reporter.ts). */
const REPORT_DIR = resolve(process.cwd(), process.env.CONFORMANCE_REPORT_DIR ?? 'reports');

afterAll(() => {
  const missingCaps = (row: MatrixRoute) => (row.requires ?? []).filter((c) => !hasCapability(c));
  const outcome = (row: MatrixRoute, column: string): string => {
    const recorded = cells.get(cellKey(row, column));
    if (recorded) return recorded;
    const caps = missingCaps(row);
    if (caps.length) return `skipped: ${caps.map(capabilityReason).join('; ')}${row.requiresWhy ? ` (${row.requiresWhy})` : ''}`;
    return 'not run';
  };
  const rows = MATRIX_ROUTES.map((row) => ({
    route: row.route,
    section: row.section,
    scope: row.scope,
    cells: Object.fromEntries(
      MATRIX_COLUMNS.map((c) => [c.name, { expected: expectedOutcome(row.scope, c.principal).outcomes, outcome: outcome(row, c.name) }]),
    ),
  }));
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const mark = (s: string) => (s.startsWith('pass: ') ? `✓ ${s.slice(6)}` : s.startsWith('FAIL: ') ? `✗ ${s.slice(6)}` : s.startsWith('skipped') ? 'skipped' : s);
  const scopes = [...new Set(MATRIX_ROUTES.map((r) => r.scope))];
  const lines = [
    '# Authorization matrix (§4 × §5)',
    '',
    'Written by suites/authorization.test.ts. Requests use ids that never existed, so `accepted` (authentication passed) shows as',
    '2xx, 404 RESOURCE_NOT_FOUND or the bare not_found; on routes whose body is not shown a 400 may also mean accepted.',
    '',
    '## Expected outcome by route scope (§5.6, §4.5)',
    '',
    `| scope | ${MATRIX_COLUMNS.map((c) => esc(c.name)).join(' | ')} |`,
    `|---|${MATRIX_COLUMNS.map(() => '---').join('|')}|`,
    ...scopes.map((scope) => `| ${scope} | ${MATRIX_COLUMNS.map((c) => esc(expectedOutcome(scope, c.principal).outcomes.join(' or '))).join(' | ')} |`),
    '',
    '## Answers (✓ as expected, ✗ not as expected)',
    '',
    `| route | § | scope | ${MATRIX_COLUMNS.map((c) => esc(c.name)).join(' | ')} |`,
    `|---|---|---|${MATRIX_COLUMNS.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| \`${esc(r.route)}\` | ${r.section} | ${r.scope} | ${MATRIX_COLUMNS.map((c) => esc(mark(r.cells[c.name].outcome))).join(' | ')} |`),
    '',
    '## Skipped cells',
    '',
    ...rows.flatMap((r) => MATRIX_COLUMNS.filter((c) => r.cells[c.name].outcome.startsWith('skipped') || r.cells[c.name].outcome === 'not run')
      .map((c) => `- \`${r.route}\` × ${c.name}: ${r.cells[c.name].outcome}`)),
    '',
  ];
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(resolve(REPORT_DIR, 'authorization-matrix.md'), lines.join('\n'));
  writeFileSync(resolve(REPORT_DIR, 'authorization-matrix.json'), `${JSON.stringify({ columns: MATRIX_COLUMNS.map((c) => c.name), rows }, null, 2)}\n`);
});
