/**
 * The authorization matrix (§4 × §5): every route path of §4.1–§4.5 crossed with the credentials
 * of §5.2/§5.6 (suites/authorization.matrix.ts), each cell checked against the outcome §5.6 and
 * §4.5 give. Unknown ids throughout, so an accepted cell touches nothing. Each cell test records
 * its cell (route, credential, expected, answer); the report writers render
 * `authorization-matrix.md` (and `.json`) from the run record (helpers/report/authorization-matrix.ts).
 */
import { describe } from 'vitest';
import { useWorld, type PrincipalName } from '../helpers/world/world';
import { clauseTest, skipWith } from '../helpers/checks/clause';
import { hasCapability, capabilityReason, capabilitySwitch, switchReason } from '../helpers/target/target';
import { recordMatrixCell } from '../helpers/record/recorder';
import { routeNotServed as routeMissing, statusLine, type ApiResponse } from '../helpers/base/exchange';
import { MATRIX_COLUMNS, MATRIX_ROUTES, acceptedPrincipal, expectedOutcome, type MatrixRoute, type Outcome } from './authorization.matrix';

const world = useWorld();

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

/** Records the test's matrix cell: the route, the credential column, what is expected and `outcome`. */
function recordCell(row: MatrixRoute, column: string, expected: Outcome[], outcome: string): void {
  const position: [number, number] = [MATRIX_ROUTES.indexOf(row), MATRIX_COLUMNS.findIndex((c) => c.name === column)];
  recordMatrixCell({ route: row.route, section: row.section, scope: row.scope, column, expected, outcome, position });
}

function skipCell(ctx: any, row: MatrixRoute, column: string, expected: Outcome[], reason: string): never {
  recordCell(row, column, expected, `skipped: ${reason}`);
  skipWith(ctx, reason);
}

/** Why a row cannot run on this target (a capability it needs is missing), or undefined. */
function missingCapabilities(row: MatrixRoute): string | undefined {
  const caps = (row.requires ?? []).filter((c) => !hasCapability(c));
  if (!caps.length) return undefined;
  return switchReason(caps.map(capabilitySwitch), `${caps.map(capabilityReason).join('; ')}${row.requiresWhy ? ` (${row.requiresWhy})` : ''}`);
}

// One block per route, named by the whole route: describe.each's `$route` would shorten long routes
// until two of them share a name, and merged shard records key tests by file and name.
for (const row of MATRIX_ROUTES)
  describe.concurrent(row.route, () => {
    const requires = row.requires ?? [];

    clauseTest(
      '4/route-served',
      `${row.route} is served`,
      async (ctx) => {
        const res = await probe(row);
        if (routeMissing(res) && !row.methodShown) {
          skipWith(ctx, `precondition failed: ${row.method} ${row.route} is not served (${statusLine(res)}); §4.5 does not show the method`);
        }
        ctx.verify.that(`${row.route} does not answer 404 NOT_FOUND or 405`, !routeMissing(res), {
          expected: 'any answer but 404 NOT_FOUND or 405',
          actual: statusLine(res),
          res,
        });
      },
      { requires },
    );

    for (const column of MATRIX_COLUMNS) {
      const expected = expectedOutcome(row.scope, column.principal);
      clauseTest(expected.clauses, `${column.name}: ${expected.outcomes.join(' or ')}`, async (ctx) => {
        // Capabilities are checked here, not by clauseTest, so a skipped cell is recorded too.
        const cannot = missingCapabilities(row) ?? world().missing(column.principal);
        if (cannot) skipCell(ctx, row, column.name, expected.outcomes, cannot);
        const served = await probe(row);
        if (routeMissing(served)) skipCell(ctx, row, column.name, expected.outcomes, `precondition failed: the route is not served (${statusLine(served)})`);
        const res = await send(row, column.principal);
        const got = interpret(res, row);
        const ok = got.some((o) => expected.outcomes.includes(o));
        recordCell(
          row,
          column.name,
          expected.outcomes,
          `${ok ? 'pass' : 'FAIL'}: ${statusLine(res)}${ok ? '' : ` (expected ${expected.outcomes.join(' or ')})`}`,
        );
        ctx.verify.that(`${row.route} with ${column.name} answers ${expected.outcomes.join(' or ')}`, ok, {
          expected: expected.outcomes.join(' or '),
          actual: `${statusLine(res)}${got.length ? ` (read as ${got.join(' or ')})` : ''}`,
          res,
        });
      });
    }
  });
