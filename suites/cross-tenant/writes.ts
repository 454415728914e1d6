/**
 * §5.7 no cross-tenant effect, §7 exception 2: writes on tenant B's resources with tenant A's
 * credentials (PATCH, PUT, DELETE of assistants, tools, text overrides, monitor sessions; ending or
 * taking over B's call) answer 404 and change nothing B reads.
 *
 * How these files' fixtures are made on each target: suites/cross-tenant/fixture.ts.
 *
 * The refused writes on B's assistant and on B's text override go side by side in refusal rounds
 * (helpers/world/refusals.ts): B's resource is read once before a round, every refused write of the
 * round is sent at once, each by its own test, and each test reads B's resource back itself; a round
 * whose reads differ sends each write again alone between two reads, so a change is still tied to
 * one request. B's resources are held by one round or one test at a time: B's own writes (the text
 * override given before a round, the tool's read-back PUT) never fall between another test's reads.
 */
import { afterAll, describe, onTestFinished } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { answerOf, documented, WHOLE, type Shape } from '../../helpers/spec/documented';
import { fixturePool } from '../../helpers/world/concurrency';
import { RefusalRounds, type CompareReads, type RefusalRoundsOptions } from '../../helpers/world/refusals';
import { putBackBody } from '../../helpers/world/assistant-slots';
import { movedKeys, sameValue } from '../../helpers/spec/unchanged';
import { isObject } from '../../helpers/base/values';
import { clauseTest, skipWith, type Verify } from '../../helpers/checks/clause';
import type { ApiResponse } from '../../helpers/http/client';
import { routeNotServed as routeMissing, statusLine } from '../../helpers/base/exchange';
import { capabilityReason } from '../../helpers/target/target';
import { EVENT_UNSUPPORTED_NAME } from '../../helpers/base/error-names';
import type { StartedCall } from '../../helpers/target/events';
import { ACTOR, ASKERS, STEP, stepSuffix, toolBody, type CrossTenantFixture } from './fixture';

/** Registers this concern's tests on the cross-tenant fixture (suites/cross-tenant.test.ts: tenant B's resources made once per run). */
export function writeTests({ world, fx }: CrossTenantFixture): void {
  /** Reads a resource as tenant B; `undefined` when the read itself is not served. */
  async function readAsB(path: string): Promise<ApiResponse> {
    return world().as('tenantB').get(path);
  }

  /**
   * Checks that tenant B reads the resource as before. For an assistant the documented fields are
   * compared (§2.2 response column; undocumented ones may change on every read, §9.4); other
   * resources, whose answers the spec shows only in part, are compared whole. The status is compared
   * too (`answerOf`); {@link movedIn} says the same for a round.
   */
  function checkUnchanged(verify: Verify, what: string, before: ApiResponse, after: ApiResponse, shape: Shape): void {
    verify.unchanged(`${what} is unchanged, as tenant B reads it`, before, after, answerOf(shape), after);
  }

  /** Refused means: not 2xx, and not a route-level NOT_FOUND (which proves nothing). */
  function checkRefused(verify: Verify, what: string, res: ApiResponse, ctx: any, exact404 = false): void {
    if (routeMissing(res)) skipWith(ctx, `precondition failed: ${what.split(' on ')[0]} is not served by the target (${statusLine(res)})`);
    if (exact404) verify.error(res, 404, 'RESOURCE_NOT_FOUND', `${what} answers 404 RESOURCE_NOT_FOUND`);
    else verify.error(res, 404, undefined, `${what} is refused with 404`);
  }

  /**
   * Gives B's tool textInstructions and B's assistant a text override of it, so a write by another
   * tenant (a DELETE above all) would have something to change. Idempotent (PUT, §8). A target that
   * refuses leaves the read-back comparing whatever is stored.
   */
  async function giveBATextOverride(): Promise<void> {
    const B = world().as('tenantB');
    const text = { title: 'B text', description: 'tenant B text instructions', steps: [] };
    await B.put(`/tools/${fx.toolB}`, { ...toolBody(fx.toolBName!), textInstructions: text });
    await B.put(`/assistants/${fx.assistantB.id}/tools/${fx.toolB}/text-description-override`, { description: "tenant B's own text description" });
  }

  /** B's resources (assistant, tool, text override) as one thing held: one round or one test at a time. */
  const B_RESOURCES = {};
  const holdB = fixturePool(async () => B_RESOURCES, 1);
  afterAll(() => holdB.close());
  const assistantPath = () => `/assistants/${fx.assistantB.id}`;
  const overridePath = () => `/assistants/${fx.assistantB.id}/tools/${fx.toolB}/text-override`;

  /**
   * What moved between two of B's reads, as {@link checkUnchanged} compares them (the status and `shape`'s part of
   * the data): `status` when it moved, and the fields of the part that moved (`data` when the part is no object).
   */
  const movedIn =
    (shape: Shape): CompareReads =>
    (before, after) => {
      const was = shape.part(before.json?.data);
      const now = shape.part(after.json?.data);
      const data = isObject(was) && isObject(now) ? movedKeys(was, now) : sameValue(was, now) ? [] : ['data'];
      return before.status === after.status ? data : ['status', ...data];
    };

  /** Rounds on one of B's resources: read as B, compared by {@link movedIn} of `shape`, never known ahead. */
  const roundsOn = (read: () => Promise<ApiResponse>, shape: Shape, o: Pick<RefusalRoundsOptions<object>, 'hold' | 'restore'>) =>
    new RefusalRounds<object>({ ...o, read, compare: movedIn(shape), known: () => undefined, remember: () => undefined });

  const assistantShape = documented('assistant');
  /** B's assistant: a round that changed it is put back by B's own PATCH of the documented fields that moved. */
  const assistantRounds = roundsOn(() => readAsB(assistantPath()), assistantShape, {
    hold: (fn) => holdB.use(fn),
    restore: async (_b, before, moved) => {
      const was = before.json?.data;
      if (isObject(was)) await world().as('tenantB').patch(assistantPath(), putBackBody(was, moved));
    },
  });

  /** B's text override: given (B's own PUTs) before each round, on no test's behalf, and given again to put it back. */
  const overrideRounds = roundsOn(() => readAsB(overridePath()), WHOLE, {
    hold: (fn) =>
      holdB.use(async (b) => {
        await giveBATextOverride();
        return fn(b);
      }),
    restore: () => giveBATextOverride(),
  });

  describe("writes on another tenant's resources answer 404 and change nothing (§5.7)", () => {
    const C = ['5.7/no-cross-tenant-write'];
    // B's resources: side by side, in rounds or holding B's resources alone (module comment).
    const side = { concurrent: true };
    for (const asker of ASKERS) {
      clauseTest(
        C,
        `${asker.words}: PATCH of B's assistant answers 404 RESOURCE_NOT_FOUND and B's assistant is unchanged`,
        async (ctx) => {
          const seen = await assistantRounds.refuse((_b, before) =>
            world()
              .as(asker.principal)
              .patch(assistantPath(), { name: `${world().runPrefix}must-not-apply`, recordingEnabled: !before.json?.data?.recordingEnabled }),
          );
          checkRefused(ctx.verify, "PATCH /assistants/{id} on B's assistant", seen.res, ctx, true);
          checkUnchanged(ctx.verify, "B's assistant", seen.before, seen.after, assistantShape);
        },
        side,
      );

      clauseTest(
        C,
        `${asker.words}: PATCH chatapp-enabled on B's assistant is refused and B's assistant is unchanged`,
        async (ctx) => {
          const seen = await assistantRounds.refuse(() => world().as(asker.principal).patch(`${assistantPath()}/chatapp-enabled`, { enabled: true }));
          checkRefused(ctx.verify, "PATCH /assistants/{id}/chatapp-enabled on B's assistant", seen.res, ctx);
          checkUnchanged(ctx.verify, "B's assistant", seen.before, seen.after, assistantShape);
        },
        side,
      );

      clauseTest(
        C,
        `${asker.words}: PUT of B's tool is refused with 404 and B's tool keeps its textInstructions`,
        async (ctx) => {
          if (!fx.toolB) skipWith(ctx, fx.why.toolB);
          // B's own PUT below is a write: no round reads B's resources meanwhile.
          await holdB.use(async () => {
            const marker = { title: `${world().runPrefix}must-not-apply`, description: 'written by another tenant', steps: [] };
            const res = await world()
              .as(asker.principal)
              .put(`/tools/${fx.toolB}`, { ...toolBody(`${world().runPrefix}must-not-apply`), textInstructions: marker });
            checkRefused(ctx.verify, "PUT /tools/{id} on B's tool", res, ctx);
            // §4.5 names no read of a single tool. Read-back through the owner's own PUT instead: "on PUT
            // omitting textInstructions keeps the stored value", so B's PUT without it shows what is stored.
            const own = await world().as('tenantB').put(`/tools/${fx.toolB}`, toolBody(fx.toolBName!));
            if (own.status >= 300 || own.json?.data === undefined) {
              return ctx.verify.inform(
                "read-back of B's tool not possible",
                true,
                `tenant B's own PUT /tools/{id} answered ${statusLine(own)} without a tool in data`,
              );
            }
            ctx.verify.lacks("B's tool does not carry the textInstructions another tenant tried to write", JSON.stringify(own.json.data), marker.title, own, {
              text: true,
            });
          });
        },
        side,
      );

      for (const [method, suffix, body] of [
        ['PUT', '/text-description-override', { description: 'must not apply' }],
        ['DELETE', '/text-override', undefined],
        ['PUT', stepSuffix(), { text: 'must not apply' }],
        ['DELETE', stepSuffix(), undefined],
        ['PUT', '/description-override', { description: '' }],
      ] as const) {
        clauseTest(
          C,
          `${asker.words}: ${method} /assistants/{id}/tools/{toolId}${suffix.replace(STEP, '{stepId}')} on B's assistant and tool is refused and B's text override is unchanged`,
          async (ctx) => {
            if (!fx.toolB) skipWith(ctx, fx.why.toolB);
            const seen = await overrideRounds.refuse(() =>
              world().as(asker.principal).request(method, `/assistants/${fx.assistantB.id}/tools/${fx.toolB}${suffix}`, { body }),
            );
            checkRefused(ctx.verify, `${method} ${suffix} on B's assistant`, seen.res, ctx);
            if (routeMissing(seen.before))
              return ctx.verify.inform(
                'read-back of the text override not possible',
                true,
                `GET /assistants/{id}/tools/{toolId}/text-override answered ${statusLine(seen.before)}`,
              );
            checkUnchanged(ctx.verify, "B's text override", seen.before, seen.after, WHOLE);
          },
          side,
        );
      }
    }

    // Calls of B, one after another: the trigger holds one call per assistant (docs/event-trigger.md).
    for (const asker of ASKERS) {
      clauseTest(
        C,
        `${asker.words}: DELETE /calls/{id}/monitor-session on B's live call is refused and B's monitor audit is unchanged`,
        async (ctx) => {
          if (!fx.callBLive) skipWith(ctx, fx.why.callBLive);
          const audit = `/calls/${fx.callBLive.id}/monitor-sessions`;
          const before = await readAsB(audit);
          const res = await world().as(asker.principal).delete(`/calls/${fx.callBLive.id}/monitor-session`);
          checkRefused(ctx.verify, "DELETE /calls/{id}/monitor-session on B's call", res, ctx);
          checkUnchanged(ctx.verify, "B's monitor-session audit", before, await readAsB(audit), WHOLE);
        },
        { requires: ['events'] },
      );

      for (const action of ['end', 'takeover'] as const) {
        clauseTest(
          [...C, `7/bare-404-${action}`],
          `${asker.words}: POST /calls/{id}/${action} on B's live call answers the bare 404 and the call stays live`,
          async (ctx) => {
            const w = world();
            if (!fx.events || !fx.assistantBCalls) skipWith(ctx, fx.why.assistantBCalls ?? capabilityReason('events'));
            const events = fx.events;
            let call: StartedCall;
            try {
              // A call of B the suite starts itself (the trigger on a live tenant): the only kind A's credentials may try to end or take over.
              call = await events.startCall(w.tenantB.id, fx.assistantBCalls.id);
            } catch (e) {
              if ((e as Error).name === EVENT_UNSUPPORTED_NAME) throw e;
              skipWith(ctx, `precondition failed: a live call of tenant B could not be made (${(e as Error).message.slice(0, 200)})`);
            }
            // Ended at the test's end, so B's call assistant holds one call at a time (docs/event-trigger.md).
            onTestFinished(() => events.endCall(w.tenantB.id, call, false).then(() => undefined));
            const liveBefore = await readAsB('/calls/live');
            const auditBefore = await readAsB(`/calls/${call.id}/monitor-sessions`);
            const res = await w.as(asker.principal).post(`/calls/${call.id}/${action}`, ACTOR);
            if (routeMissing(res)) skipWith(ctx, `precondition failed: POST /calls/{id}/${action} is not served by the target (${statusLine(res)})`);
            ctx.verify.that(
              `POST /calls/{id}/${action} on B's call answers 404 { "error": "not_found" }`,
              res.status === 404 && isDeepStrictEqual(res.json, { error: 'not_found' }),
              {
                expected: '404 {"error":"not_found"}',
                actual: `${res.status} ${res.text.slice(0, 200)}`,
                res,
              },
            );
            if (!routeMissing(liveBefore) && liveBefore.text.includes(call.id)) {
              const liveAfter = await readAsB('/calls/live');
              ctx.verify.on(C).contains("B's call is still listed in B's GET /calls/live", liveAfter.text, call.id, liveAfter, { text: true });
            }
            if (!routeMissing(auditBefore))
              checkUnchanged(ctx.verify.on(C), "B's monitor-session audit", auditBefore, await readAsB(`/calls/${call.id}/monitor-sessions`), WHOLE);
          },
          { requires: ['events'], timeout: 120_000 },
        );
      }
    }
  });
}
