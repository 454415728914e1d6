/**
 * The authorization matrix is a report like the others: rendered from the cells the suite
 * recorded in the run record, written into the report folder by writeReports, and rebuilt from
 * merged shard records in the suite's order.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixCell } from '../../helpers/base/meta';
import type { RunRecord, TestRecord } from '../../helpers/report/model';
import { authorizationMatrix, renderAuthorizationMatrix } from '../../helpers/report/authorization-matrix';
import { mergeRuns } from '../../helpers/report/merge';
import { writeReports } from '../../helpers/report/writers';
import { fixtureRun } from '../fixtures/report/records';
import { scratchDir } from '../support/scratch';

const COLUMNS = ['tenant key', 'no key'];
const ROUTES = [
  { route: 'PATCH /assistants/{id}', section: '4.1', scope: 'tenant' },
  { route: 'GET /organization/tenants', section: '4.5', scope: 'org-only' },
];

function cellTest(r: number, c: number, outcome: string): TestRecord {
  const route = ROUTES[r];
  const cell: MatrixCell = { ...route, column: COLUMNS[c], expected: c === 1 ? ['401 UNAUTHORIZED'] : ['accepted'], outcome, position: [r, c] };
  return {
    name: `${route.route} > ${COLUMNS[c]}`,
    file: 'suites/authorization.test.ts',
    clauses: ['5.6/401-unknown-key'],
    status: outcome.startsWith('FAIL') ? 'fail' : outcome.startsWith('skipped') ? 'skip' : 'pass',
    durationMs: 1,
    checks: [],
    requests: 1,
    retries: 0,
    drift: [],
    matrixCell: cell,
  };
}

function withCells(run: RunRecord, tests: TestRecord[]): RunRecord {
  return { ...run, tests: [...run.tests, ...tests] };
}

describe('authorization matrix report', () => {
  test('no cells, no matrix', () => {
    expect(authorizationMatrix(fixtureRun())).toBeUndefined();
  });

  test('renders expected outcomes by scope, each answer marked, and the skipped cells with reasons', () => {
    const run = withCells(fixtureRun(), [
      cellTest(0, 0, 'pass: 404 RESOURCE_NOT_FOUND'),
      cellTest(0, 1, 'FAIL: 200 (expected 401 UNAUTHORIZED)'),
      cellTest(1, 0, 'skipped: missing optional fixture'),
    ]);
    const md = renderAuthorizationMatrix(authorizationMatrix(run)!);
    expect(md).toContain('| tenant | accepted | 401 UNAUTHORIZED |');
    expect(md).toContain('| `PATCH /assistants/{id}` | 4.1 | tenant | ✓ 404 RESOURCE_NOT_FOUND | ✗ 200 (expected 401 UNAUTHORIZED) |');
    expect(md).toContain('- `GET /organization/tenants` × tenant key: skipped: missing optional fixture');
    // A cell no test recorded (the file ran only partly) reads "not run".
    expect(md).toContain('- `GET /organization/tenants` × no key: not run');
  });

  test('merged shards keep the suite order of rows and columns', () => {
    const one = withCells(fixtureRun({ sections: ['5'] }), [cellTest(1, 1, 'pass: 401 UNAUTHORIZED'), cellTest(0, 1, 'pass: 401 UNAUTHORIZED')]);
    const two = withCells(fixtureRun({ sections: ['7'] }), [cellTest(1, 0, 'pass: 403 ORG_SCOPE_REQUIRED'), cellTest(0, 0, 'pass: 404 RESOURCE_NOT_FOUND')]);
    one.shard = { index: 1, count: 2 };
    two.shard = { index: 2, count: 2 };
    const m = authorizationMatrix(mergeRuns([two, one]))!;
    expect(m.columns).toEqual(COLUMNS);
    expect(m.rows.map((r) => r.route)).toEqual(ROUTES.map((r) => r.route));
    expect(m.rows[1].cells['tenant key'].outcome).toBe('pass: 403 ORG_SCOPE_REQUIRED');
  });

  test('writeReports writes the matrix next to the reports and links it', async () => {
    const dir = scratchDir('matrix-');
    const out = await writeReports(withCells(fixtureRun(), [cellTest(0, 0, 'pass: 404 RESOURCE_NOT_FOUND')]), dir);
    expect(out.authorizationMatrix).toBe(join(dir, 'authorization-matrix.md'));
    expect(existsSync(join(dir, 'authorization-matrix.json'))).toBe(true);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('[authorization matrix](authorization-matrix.md)');
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain('href="authorization-matrix.md"');
    const none = scratchDir('matrix-none-');
    expect((await writeReports(fixtureRun(), none)).authorizationMatrix).toBeUndefined();
    expect(existsSync(join(none, 'authorization-matrix.md'))).toBe(false);
  });
});
