/**
 * §5.7 cross-tenant isolation, §4.4 (SMS fromNumber), §7 exceptions 1 and 2 (bare 404 bodies): a
 * resource of tenant B, asked for with tenant A's credentials, is indistinguishable from one that
 * never existed (same status, error.code, error.message, headers and body, compared by
 * helpers/checks/indistinguishable.ts), for every route of suites/cross-tenant/routes.ts.
 *
 * How these files' fixtures are made on each target: suites/cross-tenant/fixture.ts.
 */
import { describe } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { clauseTest, sharedVerifier, skipWith, type Verify } from '../../helpers/checks/clause';
import { compareAnswers, explainDifferences } from '../../helpers/checks/indistinguishable';
import { hasCapability, capabilityReason } from '../../helpers/target/target';
import type { ApiClient, ApiResponse } from '../../helpers/http/client';
import { routeNotServed as routeMissing, statusLine } from '../../helpers/base/exchange';
import { ASKERS, checkForeignNotFound, type CrossTenantFixture } from './fixture';
import { isolationRoutes, type IsolationRow, type Req } from './routes';

/** Registers this concern's tests on the cross-tenant fixture (suites/cross-tenant.test.ts: tenant B's resources made once per run). */
/**
 * §7: an id that never existed answers 404 RESOURCE_NOT_FOUND, checked on `clause` (the route's)
 * and 7/resource-not-found (a shared verifier: a test that calls it lists it among its clauses).
 */
const checkNeverExistedNotFound = sharedVerifier('7/resource-not-found', (verify: Verify, clause: string, res: ApiResponse, words: string): void =>
  verify.on([clause, ...checkNeverExistedNotFound.clauses]).error(res, 404, 'RESOURCE_NOT_FOUND', words),
);

export function indistinguishableTests({ world, fx }: CrossTenantFixture): void {
  const ISOLATION_ROUTES = isolationRoutes(fx);

  function send(client: ApiClient, req: Exclude<Req, { skip: string }>): Promise<ApiResponse> {
    return client.request(req.method, req.path, { body: req.body, query: req.query });
  }

  /** Checks the never-existed answer against what the spec states for the route, on the row's clause (through the test's `verify`). */
  function checkStated(verify: Verify, row: IsolationRow, res: ApiResponse): void {
    const stated = verify.on(row.clause);
    if (!row.bodyShown && res.status === 400 && res.json?.error?.code === 'VALIDATION_ERROR') {
      stated.inform(
        `${row.route} validated the request body before looking the id up`,
        true,
        `the never-existed id answered 400 VALIDATION_ERROR (§4.5 does not show this body); the comparison below still requires the other case to answer the same`,
      );
      return;
    }
    switch (row.stated) {
      case 'RESOURCE_NOT_FOUND':
        checkNeverExistedNotFound(verify, row.clause, res, `${row.route} with an id that never existed answers 404 RESOURCE_NOT_FOUND`);
        return;
      case 'status-404':
        stated.error(res, 404, undefined, `${row.route} with an id that never existed answers 404`);
        return;
      case 'bare-not-found':
        stated.that(
          `${row.route} with an id that never existed answers 404 { "error": "not_found" }`,
          res.status === 404 && isDeepStrictEqual(res.json, { error: 'not_found' }),
          {
            expected: '404 {"error":"not_found"}',
            actual: `${res.status} ${res.text.slice(0, 200)}`,
            res,
          },
        );
        return;
      case 'batch-call-not-found':
        stated.that(
          `${row.route} with one unknown id answers 2xx and reports it as call_not_found`,
          res.status >= 200 && res.status < 300 && res.text.includes('"call_not_found"'),
          {
            expected: '2xx naming call_not_found',
            actual: `${res.status} ${res.text.slice(0, 200)}`,
            res,
          },
        );
    }
  }

  describe.concurrent('a resource of another tenant is indistinguishable from one that never existed (§5.7)', () => {
    for (const row of ISOLATION_ROUTES) {
      describe.concurrent(row.route, () => {
        for (const pair of row.pairs) {
          for (const asker of ASKERS) {
            const clauses = pair.clauses ?? [row.clause, '5.7/foreign-indistinguishable'];
            const declared = row.stated === 'RESOURCE_NOT_FOUND' ? [...clauses, checkNeverExistedNotFound, checkForeignNotFound] : clauses;
            clauseTest(declared, `${asker.words}: ${pair.name} answers exactly like never-existed`, async (ctx) => {
              for (const cap of pair.requires ?? []) if (!hasCapability(cap)) skipWith(ctx, capabilityReason(cap));
              const first = pair.baseline();
              const probe = pair.probe();
              if ('skip' in first) skipWith(ctx, first.skip);
              if ('skip' in probe) skipWith(ctx, probe.skip);
              const client = world().as(asker.principal);
              const base = await send(client, first);
              if (routeMissing(base)) skipWith(ctx, `precondition failed: ${row.route} is not served by the target (${statusLine(base)})`);
              // Control: two never-existed ids must already answer alike, or a difference proves nothing.
              const second = pair.baseline() as Exclude<Req, { skip: string }>;
              const again = await send(client, second);
              const control = compareAnswers(base, again, {
                labels: ['never-existed', 'second never-existed'],
                body: row.body,
                ids: first.subject && second.subject ? [first.subject, second.subject] : undefined,
              });
              if (!control.same) {
                skipWith(ctx, `precondition failed: two never-existed answers already differ, so a comparison proves nothing:\n${explainDifferences(control)}`);
              }
              checkStated(ctx.verify, row, base);
              const other = await send(client, probe);
              const cmp = compareAnswers(base, other, {
                labels: ['never-existed', pair.name],
                body: row.body,
                ids: first.subject && probe.subject ? [first.subject, probe.subject] : undefined,
              });
              ctx.verify.that(
                `${row.route}: the ${pair.name} answer equals the never-existed answer (status, error.code, error.message, headers, body)`,
                cmp.same,
                {
                  expected: `the never-existed answer: ${statusLine(base)}`,
                  actual: `${statusLine(other)}, differing in:\n${explainDifferences(cmp)}`,
                  res: other,
                },
              );
              if (row.stated === 'RESOURCE_NOT_FOUND' && base.status === 404) {
                checkForeignNotFound(ctx.verify, other, `${row.route}: the ${pair.name} id answers 404 RESOURCE_NOT_FOUND`);
              }
            });
          }
        }
      });
    }

    clauseTest('7/bare-404-embed', 'the embed-facing endpoints answer the identical bare 404 (not testable)', (ctx) => {
      skipWith(ctx, 'not testable: §7 exception 1 does not name the two embed-facing endpoints');
    });
  });
}
