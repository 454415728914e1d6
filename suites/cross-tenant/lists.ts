/**
 * §5.7 and §5.2: lists show the acting tenant's resources only, and an organization key acts on
 * the tenant X-Tenant-Id names and on no other.
 *
 * How these files' fixtures are made on each target: suites/cross-tenant/fixture.ts.
 */
import { describe } from 'vitest';
import { clauseTest, skipWith } from '../../helpers/checks/clause';
import { routeNotServed as routeMissing, statusLine } from '../../helpers/base/exchange';
import { ASKERS, checkForeignNotFound, type CrossTenantFixture } from './fixture';

/** Registers this concern's tests on the cross-tenant fixture (suites/cross-tenant.test.ts: tenant B's resources made once per run). */
export function listTests({ world, fx }: CrossTenantFixture): void {
  /** Lists of §4.5, the B ids each must never show to A, and the capability that makes them. */
  const LISTS: { route: string; path: string; query?: Record<string, string>; ids: () => string[] | { skip: string }; ownId?: () => string | undefined }[] = [
    { route: 'GET /assistants', path: '/assistants', ids: () => [fx.assistantB.id], ownId: () => fx.assistantA.id },
    {
      route: 'GET /calls',
      path: '/calls',
      ids: () => {
        const calls = [fx.callBLive, fx.callBDone].filter((c): c is { id: string; callId?: string } => !!c);
        return calls.length ? calls.flatMap((c) => [c.id, ...(c.callId ? [c.callId] : [])]) : { skip: fx.why.callBDone ?? fx.why.callBLive };
      },
    },
    {
      route: 'GET /calls/live',
      path: '/calls/live',
      ids: () => (fx.callBLive ? [fx.callBLive.id, ...(fx.callBLive.callId ? [fx.callBLive.callId] : [])] : { skip: fx.why.callBLive }),
    },
    { route: 'GET /conversations', path: '/conversations', ids: () => (fx.conversationB ? [fx.conversationB] : { skip: fx.why.conversationB }) },
    { route: 'GET /prompts?type=chat', path: '/prompts', query: { type: 'chat' }, ids: () => (fx.promptB ? [fx.promptB] : { skip: fx.why.promptB }) },
  ];

  describe.concurrent("lists never show another tenant's resources (§5.7, §5.2)", () => {
    for (const list of LISTS) {
      for (const asker of ASKERS) {
        const clauses = asker.principal === 'orgA' ? ['5.7/lists-own-tenant-only', '5.2/org-key-acts-on-named-tenant-only'] : ['5.7/lists-own-tenant-only'];
        clauseTest(clauses, `${asker.words}: ${list.route} never contains tenant B's ids`, async (ctx) => {
          const ids = list.ids();
          if (!Array.isArray(ids)) skipWith(ctx, ids.skip);
          // Positive control: B's own list shows its ids, otherwise their absence from A's proves nothing.
          const own = await world().as('tenantB').get(list.path, { query: list.query });
          if (routeMissing(own)) skipWith(ctx, `precondition failed: ${list.route} is not served by the target (${statusLine(own)})`);
          if (!ids.some((id) => own.text.includes(id))) {
            skipWith(
              ctx,
              `precondition failed: tenant B's own ${list.route} does not show its ids (the list may be paginated or filtered), so their absence from A's list proves nothing`,
            );
          }
          const res = await world().as(asker.principal).get(list.path, { query: list.query });
          ctx.verify.success(res, undefined, `${list.route} as ${asker.words} answers 2xx`);
          ctx.verify.none(
            `${list.route} as ${asker.words} contains none of tenant B's ids`,
            ids.filter((id) => res.text.includes(id)),
            "no id of tenant B's resources",
            res,
          );
          const ownId = list.ownId?.();
          if (ownId) ctx.verify.contains(`${list.route} as ${asker.words} shows tenant A's own resource`, res.text, ownId, res, { text: true });
        });
      }
    }

    clauseTest(
      ['5.2/org-key-acts-on-named-tenant-only', checkForeignNotFound],
      "the organization key with X-Tenant-Id A reads A's assistant and not B's",
      async ({ verify }) => {
        const org = world().as('orgA');
        const mine = await org.get(`/assistants/${fx.assistantA.id}`);
        verify.success(mine, 200, "GET of A's assistant with X-Tenant-Id A answers 200");
        const theirs = await org.get(`/assistants/${fx.assistantB.id}`);
        checkForeignNotFound(verify, theirs, "GET of B's assistant with X-Tenant-Id A answers 404 RESOURCE_NOT_FOUND");
      },
    );
  });
}
