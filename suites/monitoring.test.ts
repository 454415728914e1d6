/**
 * Live call monitoring: §3 (live or not; not_live final, agent_absent retried), §4.5 (GET
 * /calls/live, monitor-session POST/DELETE, takeover, end, monitor-sessions audit) and §7
 * exceptions 2 and 3 (bare JSON, byte-identical 404, 409 body, 400 in the envelope, 429 with a
 * top-level retryAfterSeconds).
 *
 * Calls are made to happen by the target's event source (`requires: ['events']`, helpers/target/events.ts):
 * the control API on a simulator, the operator's trigger on a live tenant. The suite takes over
 * or ends only calls it started itself, through that source; a finished call of tenant A given as
 * `CORE_API_CALL_ID` is only read and refused (409 not_live), never otherwise touched. Requests to
 * the monitoring POSTs are sent with `retry: false`; a 429 is waited out by the client (a
 * gateway's or another limiter's, which says nothing about the call), except in the test of the
 * per-tenant mint rate, which asks to see it (`expect429`): there a 429 before the budget is spent
 * is a throttle to wait out, and at the budget so is one without the endpoint's top-level
 * retryAfterSeconds (helpers/checks/limits.ts); one that waiting does not lift is the tenant's refusal
 * only when a fresh tenant mints meanwhile. The budget is judged within its minute (helpers/checks/clock.ts). The number of slots
 * per call and the mint rate are not shown by the spec; on simulators they are read from the
 * control contract's config (`PUT /__control/config {}` changes nothing and answers the config);
 * on a live tenant the slot count is found by minting until a refusal, at most
 * {@link LIVE_MAX_SLOTS} times.
 *
 * Side by side on a simulator (issue 43): each test acts on calls it started itself (slots, sessions
 * and the assistant's absence are a call's), and the rate test spends the budgets of fresh tenants
 * of its own; tenant A's few mints per test stay far below its budget. On a live tenant the tests
 * run in order ({@link sideBySide}): real calls through the operator's trigger, one lane's tenant.
 */
import { afterEach, beforeAll } from 'vitest';
import { readSeed } from '../helpers/base/env';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { useWorld } from '../helpers/world/world';
import { eventsFor, type Events, type StartedCall } from '../helpers/target/events';
import { missingFixtureReason } from '../helpers/target/target';
import type { ApiClient, ApiResponse } from '../helpers/http/client';
import { clauseTest, sideBySide, skipWith, type Verify } from '../helpers/checks/clause';
import { assistantFixture, tenantWithAssistant } from '../helpers/world/fixtures';
import { withAgentAbsentRetry } from '../helpers/http/agent-absent-retry';
import { validate } from '../helpers/spec/validator';
import { rowsOf } from '../helpers/spec/shapes';
import { AT_LIMIT, pastThrottles, type PastThrottles } from '../helpers/checks/limits';
import { openWindow } from '../helpers/checks/clock';

/** Seed of fast-check in this file; printed when a test fails (CORE_API_SEED reproduces a run). */
const RUN_SEED = readSeed('CORE_API_SEED');
const SEED = RUN_SEED ^ 0x40f;
afterEach(({ task }) => {
  if (task.result?.state === 'fail') console.error(`[monitoring.test.ts] fast-check seed ${SEED} (CORE_API_SEED=${RUN_SEED} reproduces it)`);
});

const world = useWorld();
let assistant: { id: string };
/** The control API on a simulator, the operator's trigger on a live tenant; undefined when neither. */
let events: Events | undefined;

beforeAll(async () => {
  const w = world();
  events = eventsFor(w.target, w.control);
  // A live tenant's fixture assistant is found or created only where calls can be made to it.
  if (events) assistant = await assistantFixture(w, w.as('tenantA'), 'monitoring');
});

/**
 * What a test on a call needs: an event source. Its timeout allows for a live tenant, where each
 * call is a real one placed and ended by the operator's trigger.
 */
const CALLS = { requires: ['events' as const], timeout: 120_000 };

/** Most mints tried on one call of a live tenant to find its slot count (not shown by the spec). */
const LIVE_MAX_SLOTS = 8;

/** A call the suite started through its event source; ended again by the cleanup ledger (an already-ended call is ignored). */
async function liveCall(tenantId = world().tenantA.id, assistantId = assistant.id): Promise<StartedCall> {
  const w = world();
  const call = await events!.startCall(tenantId, assistantId);
  w.cleanup.add(`end call ${call.id}`, () => events!.endCall(tenantId, call, false).catch(() => undefined));
  return call;
}

/** Ends a call {@link liveCall} started, through the event source (the caller hangs up). */
async function hangUp(call: StartedCall, tenantId = world().tenantA.id): Promise<void> {
  await events!.endCall(tenantId, call, false);
}

/**
 * A finished call of tenant A and whether the suite ended it just now: `CORE_API_CALL_ID` on a live
 * tenant when given (only read, never acted on with success), else a call started and ended here.
 * @throws EventUnsupportedError when the trigger cannot start or end calls.
 */
async function finishedCall(ctx: Parameters<typeof skipWith>[0]): Promise<{ id: string; endedNow: boolean }> {
  const given = world().target.live?.callId;
  if (given) {
    // Acting on a live call the suite did not start is never done, even if the variable names one by mistake.
    const { listed, res } = await listedLive(given);
    if (res.status !== 200 || listed)
      skipWith(
        ctx,
        `precondition failed: CORE_API_CALL_ID must name a finished call; GET /calls/live ${listed ? 'lists it as live' : `answered ${res.status}`}`,
      );
    return { id: given, endedNow: false };
  }
  if (!events) skipWith(ctx, missingFixtureReason('callId'), ['callId', 'trigger']);
  const call = await liveCall();
  await hangUp(call);
  return { id: call.id, endedNow: true };
}

/** The simulator's monitoring config (control contract): slots per call and mints per minute. */
async function monitorConfig(): Promise<{ slots: number; mintsPerMinute: number }> {
  const cfg = await world().control!.config({});
  return { slots: Number(cfg.monitorSlotsPerCall ?? 2), mintsPerMinute: Number(cfg.monitorMintsPerMinute ?? 30) };
}

/**
 * Mints on a call until every slot is taken: `slots` times on a simulator (its config), else until
 * the first refusal, at most {@link LIVE_MAX_SLOTS} times. Each accepted mint is checked as bare
 * JSON under `verify`; returns the number accepted and the refusal, when one came.
 */
async function fillSlots(verify: Verify, c: ApiClient, id: string): Promise<{ minted: number; refusal?: ApiResponse }> {
  const slots = world().control ? (await monitorConfig()).slots : undefined;
  let minted = 0;
  for (let i = 1; i <= (slots ?? LIVE_MAX_SLOTS); i++) {
    const res = await mint(c, id, `slot ${i}`);
    if (slots === undefined && res.status >= 400 && res.status < 500) return { minted, refusal: res };
    checkBareSuccess(verify, `mint ${i}${slots === undefined ? '' : ` of ${slots}`} (slots free)`, res);
    minted += 1;
  }
  return { minted };
}

const mint = (c: ApiClient, id: string, actorLabel = 'conformance monitor', expect429 = false) =>
  c.post(`/calls/${id}/monitor-session`, { actorLabel }, { retry: false, expect429 });
/** Whether a 429 carries the top-level retryAfterSeconds of §7 exception 3 (the endpoint's own, not a gateway's). */
const topLevelRetryAfter = (res: ApiResponse) => typeof res.json?.retryAfterSeconds === 'number';
/** A tenant whose mint budget is untouched: its id, a client with its tenant key, and an assistant of its own. */
interface RateTenant {
  tenantId: string;
  client: ApiClient;
  assistantId: string;
}

/**
 * A fresh tenant of a fresh organization with its own assistant, made through the control API
 * (simulators only): its mint budget (§4.5) is untouched. The assistant's creation is checked under
 * `4.5/monitor-session-429` as a fixture.
 */
async function freshRateTenant(verify: Verify, label: string): Promise<RateTenant> {
  const w = world();
  const org = await w.control!.organization(`${w.runPrefix}monitor-rate-org`);
  const t = await tenantWithAssistant(w, org, `monitor-rate-${label}`, label);
  verify.on('4.5/monitor-session-429').success(t.created, undefined, `fixture: assistant of tenant ${label}`);
  return { tenantId: t.tenantId, client: t.tenantKey, assistantId: t.assistantId! };
}

/**
 * Mints on tenant `m`'s calls, a new call whenever its `slots` are taken, until the first 429 the
 * endpoint gives at the budget, at most `mintsPerMinute + 5` times (§4.5, §7 exception 3). Each
 * accepted mint is checked as bare JSON. Returns that 429 with the throttles before it (undefined
 * when none came), the mints accepted, and how many 429s without the endpoint's body were waited out, and every answer judged (for the target's clock over the spending).
 */
async function mintUntilThrottled(
  verify: Verify,
  m: RateTenant,
  slots: number,
  mintsPerMinute: number,
): Promise<{ throttled?: PastThrottles; minted: number; noise: number; answers: ApiResponse[] }> {
  let call = await liveCall(m.tenantId, m.assistantId);
  let onCall = 0;
  let throttled: PastThrottles | undefined;
  let minted = 0;
  let noise = 0;
  const answers: ApiResponse[] = [];
  for (let i = 0; i < mintsPerMinute + 5 && !throttled; i++) {
    if (onCall === slots) {
      call = await liveCall(m.tenantId, m.assistantId);
      onCall = 0;
    }
    // Before the budget is spent every 429 is a throttle (a gateway's, another limiter's); at it, one without the endpoint's body is (§7).
    const atBudget = i >= mintsPerMinute;
    const got = await pastThrottles(
      () => mint(m.client, call.id, undefined, true),
      (r) => atBudget && topLevelRetryAfter(r),
      'POST /calls/{id}/monitor-session',
      atBudget ? AT_LIMIT : {},
    );
    noise += got.persisted ? 0 : got.throttles.length;
    answers.push(got.res);
    if (got.res.status === 429) throttled = got;
    else {
      checkBareSuccess(verify.on(['4.5/monitor-session-429']), `mint ${i + 1} within the rate (${mintsPerMinute} per minute)`, got.res);
      minted += 1;
      onCall += 1;
    }
  }
  return { throttled, minted, noise, answers };
}

const takeover = (c: ApiClient, id: string, actorLabel: string) => c.post(`/calls/${id}/takeover`, { actorLabel }, { retry: false });
const endCall = (c: ApiClient, id: string, actorLabel: string) => c.post(`/calls/${id}/end`, { actorLabel }, { retry: false });

/** Checks a bare JSON success body (not the §2.1 envelope). */
function checkBareSuccess(verify: Verify, words: string, res: ApiResponse): void {
  verify.success(res, undefined, `${words} answers 2xx`);
  verify.schema(`${words} answers bare JSON, not the envelope`, 'monitor#/$defs/bare', res.json, res);
}

/** Checks a bare 409 `{ error: 'conflict', reason }` with the given reason. */
function checkConflict(verify: Verify, words: string, res: ApiResponse, reason: string): void {
  verify.error(res, 409, undefined, `${words} answers 409`);
  verify.schema(`${words} answers the bare body { error: 'conflict', reason }`, 'monitor#/$defs/conflict', res.json, res);
  verify.equal(`${words} gives reason ${reason}`, res.json?.reason, reason, res);
}

/**
 * The row of a live-calls answer that carries the call id `id` (used in /calls/{id} paths). The
 * key of that id is not stated (§4.5 "rows carry a call id and a separate callId"), so the row is
 * the one with `id` as the value of any of its fields other than `callId`.
 */
function liveRow(data: unknown, id: string): any {
  return rowsOf(data).find((r) => !!r && typeof r === 'object' && Object.entries(r).some(([k, v]) => k !== 'callId' && v === id));
}

/** The call ids GET /calls/live lists: every string field of its rows but callId (the row shape beyond the two ids is not shown, §4.5). */
function liveIds(data: unknown): string[] {
  return rowsOf(data).flatMap((r) =>
    !!r && typeof r === 'object' ? Object.entries(r).flatMap(([k, v]) => (k !== 'callId' && typeof v === 'string' ? [v] : [])) : [],
  );
}

/** Whether GET /calls/live lists the call (by its call id), with the ids it lists and the answer. */
async function listedLive(id: string): Promise<{ listed: boolean; ids: string[]; res: ApiResponse }> {
  const res = await world().as('tenantA').get('/calls/live');
  const ids = liveIds(res.json?.data);
  return { listed: ids.includes(id), ids, res };
}

sideBySide('§4.5 GET /calls/live', () => {
  clauseTest('4.5/calls-live-envelope', 'answers the envelope; every row has the documented shape', async ({ verify }) => {
    const res = await world().as('tenantA').get('/calls/live');
    verify.success(res, 200, 'GET /calls/live answers 200');
    for (const row of rowsOf(res.json?.data)) verify.schema('a live row carries id and callId', 'live-call', row, res);
  });

  clauseTest(
    ['4.5/calls-live-envelope', '4.5/calls-live-row-ids', '7/bare-json-monitoring'],
    'lists a call in progress with a call id and a separate callId, and drops it once the call ends',
    async ({ verify }) => {
      const call = await liveCall();
      const { ids, res } = await listedLive(call.id);
      verify.on('4.5/calls-live-envelope').success(res, 200, 'GET /calls/live answers 200 (envelope, §7 exception 2)');
      verify.on('4.5/calls-live-envelope').contains('the live call is listed by its call id', ids, call.id, res);
      const row = liveRow(res.json.data, call.id);
      verify.on('4.5/calls-live-row-ids').schema('the row carries a call id and a callId', 'live-call', row, res);
      verify
        .on('4.5/calls-live-row-ids')
        .that('callId is separate from the call id', row.callId !== call.id, { expected: `a callId other than ${call.id}`, actual: row.callId, res });
      await hangUp(call);
      const after = await listedLive(call.id);
      verify.on('4.5/calls-live-envelope').lacks('an ended call is no longer listed as in progress', after.ids, call.id, after.res);
    },
    CALLS,
  );

  clauseTest(
    '4.5/calls-live-callid-not-in-path',
    "a live row's callId is never accepted in a path",
    async ({ verify }) => {
      const call = await liveCall();
      const { res } = await listedLive(call.id);
      const row = liveRow(res.json?.data, call.id);
      verify.reads('the live call is listed with a callId', row, ['callId'], { kind: 'type', type: 'string' }, res);
      const c = world().as('tenantA');
      const tries: [string, () => Promise<ApiResponse>][] = [
        ['GET /calls/{callId}', () => c.get(`/calls/${encodeURIComponent(row.callId)}`)],
        ['GET /calls/{callId}/monitor-sessions', () => c.get(`/calls/${encodeURIComponent(row.callId)}/monitor-sessions`)],
        ['POST /calls/{callId}/monitor-session', () => mint(c, encodeURIComponent(row.callId))],
        ['GET /calls/{callId}/insights', () => c.get(`/calls/${encodeURIComponent(row.callId)}/insights`)],
      ];
      for (const [what, send] of tries) {
        const r = await send();
        verify.refused(r, `${what} is refused with a 4xx`);
      }
    },
    CALLS,
  );
});

sideBySide('§4.5 / §7 POST /calls/{id}/monitor-session', () => {
  clauseTest(
    ['4.5/monitor-session-mint', '7/bare-json-monitoring'],
    'mints a join credential on a live call in bare JSON',
    async ({ verify }) => {
      const call = await liveCall();
      const res = await mint(world().as('tenantA'), call.id);
      checkBareSuccess(verify, 'POST /calls/{id}/monitor-session', res);
    },
    CALLS,
  );

  clauseTest(
    ['4.5/monitor-session-slots', '7/bare-json-monitoring'],
    'minting on a call whose slots are full is refused in bare JSON of the §7 shape',
    async (ctx) => {
      const { verify } = ctx;
      const call = await liveCall();
      const c = world().as('tenantA');
      const { minted, refusal } = await fillSlots(verify.on(['4.5/monitor-session-slots']), c, call.id);
      if (!world().control && !refusal)
        skipWith(ctx, `precondition failed: ${minted} mints on one call were all accepted; the slot count is not shown (§4.5), so no full call could be made`);
      const full = refusal ?? (await mint(c, call.id, 'one too many'));
      ctx.verify.on('4.5/monitor-session-slots').refused(full, 'a mint beyond the per-call slots is refused');
      verify.schema('the refusal is bare JSON { error, reason? }, not an envelope', 'monitor#/$defs/refusal', full.json, full);
    },
    CALLS,
  );

  clauseTest(
    ['4.5/monitor-session-delete', '3/monitoring-not-live-final'],
    'DELETE closes one session (a slot frees up) and the call stays live',
    async (ctx) => {
      const call = await liveCall();
      const c = world().as('tenantA');
      const { minted, refusal } = await fillSlots(ctx.verify.on(['4.5/monitor-session-delete']), c, call.id);
      if (!world().control && !refusal)
        skipWith(
          ctx,
          `precondition failed: ${minted} mints on one call were all accepted; the slot count is not shown (§4.5), so no slot could be shown to free up`,
        );
      const del = await c.delete(`/calls/${call.id}/monitor-session`);
      ctx.verify.on('4.5/monitor-session-delete').success(del, undefined, 'DELETE /calls/{id}/monitor-session answers 2xx');
      const { ids, res } = await listedLive(call.id);
      ctx.verify.on('4.5/monitor-session-delete').contains('the call is still listed by GET /calls/live', ids, call.id, res);
      const again = await mint(c, call.id, 'after delete');
      ctx.verify.on('4.5/monitor-session-delete').that('the call is still live: minting is not refused with not_live', again.json?.reason !== 'not_live', {
        expected: 'no 409 not_live',
        actual: `${again.status} ${again.text.slice(0, 120)}`,
        res: again,
      });
      ctx.verify.on('4.5/monitor-session-delete').success(again, undefined, 'the closed session freed its slot: a new mint succeeds');
    },
    CALLS,
  );

  clauseTest(
    ['4.5/monitor-session-429', '7/monitor-429-top-level', '4.5/monitor-session-per-tenant'],
    'minting beyond the per-tenant rate answers 429 with a top-level retryAfterSeconds; another tenant still mints',
    async ({ verify }) => {
      const { slots, mintsPerMinute } = await monitorConfig();
      const m = await freshRateTenant(verify, 'M');
      const spending = openWindow();
      const { throttled, minted, noise, answers } = await mintUntilThrottled(verify, m, slots, mintsPerMinute);
      // No 429 by the budget, or a refusal without its body taken as the budget's, rests on the minute: spent past it (throttles waited out, a slow target), no verdict.
      if (!throttled || throttled.persisted)
        spending.close().spentWithin(60_000, 'the per-tenant mint budget', verify.record, [answers[0], answers[answers.length - 1]]);
      if (noise)
        verify
          .on('4.5/monitor-session-429')
          .inform(
            `${noise} 429 answers without the endpoint's body were waited out`,
            true,
            'a 429 before the budget, or without the top-level retryAfterSeconds, says nothing about the per-tenant limit on its own (a gateway or another limiter throttled)',
          );
      verify
        .on('4.5/monitor-session-429')
        .arrived(`minting beyond ${mintsPerMinute} per minute answers 429`, throttled, `a 429 by mint ${mintsPerMinute + 1}`, `${minted} mints accepted`);
      const n = await freshRateTenant(verify, 'N');
      const nCall = await liveCall(n.tenantId, n.assistantId);
      // N's budget is untouched: a 429 without the endpoint's body is a throttle, waited out; one that does not lift ends the test in error.
      // So M's refusal that waiting did not lift (persisted) is M's own limit's: a fresh tenant mints through the same route meanwhile.
      const { res: other } = await pastThrottles(
        () => mint(n.client, nCall.id, undefined, true),
        topLevelRetryAfter,
        'POST /calls/{id}/monitor-session of a fresh tenant',
      );
      verify
        .on(['4.5/monitor-session-429', '7/monitor-429-top-level'])
        .schema('the 429 body carries a top-level retryAfterSeconds', 'monitor#/$defs/rateLimited', throttled!.res.json, throttled!.res);
      checkBareSuccess(verify.on(['4.5/monitor-session-per-tenant']), 'another tenant mints while the first is throttled', other);
    },
    { requires: ['control'], timeout: 60_000 },
  );
});

sideBySide('§7 exception 2: the monitoring POSTs on an unknown call', () => {
  clauseTest(
    ['4.5/monitor-unknown-call-404', '7/monitor-404-bare-identical'],
    'monitor-session, takeover and end answer 404 with the byte-identical body { "error": "not_found" }',
    async ({ verify }) => {
      const c = world().as('tenantA');
      const answers: [string, ApiResponse][] = [];
      for (const id of [randomUUID(), randomUUID()]) {
        answers.push([`POST /calls/{unknown}/monitor-session`, await mint(c, id)]);
        answers.push([`POST /calls/{unknown}/takeover`, await takeover(c, id, 'conformance')]);
        answers.push([`POST /calls/{unknown}/end`, await endCall(c, id, 'conformance')]);
      }
      for (const [what, res] of answers) {
        verify.on('4.5/monitor-unknown-call-404').error(res, 404, undefined, `${what} answers 404`);
        verify.on('7/monitor-404-bare-identical').schema(`${what} answers exactly { "error": "not_found" }`, 'monitor#/$defs/notFound', res.json, res);
      }
      const first = answers[0][1].text;
      for (const [what, res] of answers) {
        verify.on('7/monitor-404-bare-identical').equal(`${what}: the body is byte-identical to the others`, res.text, first, res);
      }
    },
  );
});

sideBySide('§4.5 takeover, end and the audit read', () => {
  /** Labels with unicode, quotes and markup, plus one generated (seeded) label. */
  const LABELS = [
    'Zoë “O’Brien” <b>supervisor</b> & 監督者 👩🏽‍💼',
    `it's "quoted" \\ back\\slash <script>alert('x')</script>`,
    `fc:${fc.sample(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }), { numRuns: 1, seed: SEED })[0]}`,
  ];

  clauseTest(
    ['4.5/takeover-end-bare', '4.5/actor-label-verbatim', '4.5/monitor-sessions-audit', '7/bare-json-monitoring', '4.5/monitor-session-mint'],
    'takeover and end answer bare JSON; actorLabel is recorded verbatim during and after the call',
    async ({ verify }) => {
      const c = world().as('tenantA');
      for (const [i, label] of LABELS.entries()) {
        const call = await liveCall();
        const m = await mint(c, call.id, label);
        checkBareSuccess(verify.on(['4.5/monitor-session-mint']), 'mint before the takeover', m);
        const t = await takeover(c, call.id, label);
        checkBareSuccess(verify.on(['4.5/takeover-end-bare', '7/bare-json-monitoring']), 'POST /calls/{id}/takeover', t);
        const during = await c.get(`/calls/${call.id}/monitor-sessions`);
        verify.on('4.5/monitor-sessions-audit').success(during, 200, 'GET /calls/{id}/monitor-sessions during the call answers 200 (envelope)');
        verify.on('4.5/monitor-sessions-audit').schema('data is the audit read', 'monitor-sessions', during.json?.data, during);
        verify.on('4.5/actor-label-verbatim').contains(`label ${i + 1} is recorded verbatim during the call`, during.json?.data, label, during);
        const endLabel = `${label} (end)`;
        const e = await endCall(c, call.id, endLabel);
        checkBareSuccess(verify.on(['4.5/takeover-end-bare', '7/bare-json-monitoring']), 'POST /calls/{id}/end', e);
        const after = await c.get(`/calls/${call.id}/monitor-sessions`);
        verify.on('4.5/monitor-sessions-audit').success(after, 200, 'GET /calls/{id}/monitor-sessions after the call answers 200 (envelope)');
        verify.on('4.5/actor-label-verbatim').contains(`the takeover label ${i + 1} is still recorded verbatim after the call`, after.json?.data, label, after);
        verify.on('4.5/actor-label-verbatim').contains(`the end label ${i + 1} is recorded verbatim`, after.json?.data, endLabel, after);
      }
    },
    CALLS,
  );

  clauseTest(
    ['3/monitoring-not-live-final', '7/monitor-409-body', '4.5/monitor-sessions-audit'],
    'every action on a finished call is refused with 409 { error: conflict, reason: not_live }',
    async (ctx) => {
      const { verify } = ctx;
      const call = await finishedCall(ctx);
      const c = world().as('tenantA');
      checkConflict(
        verify.on(['3/monitoring-not-live-final', '7/monitor-409-body']),
        'POST monitor-session on a finished call',
        await mint(c, call.id),
        'not_live',
      );
      checkConflict(
        verify.on(['3/monitoring-not-live-final', '7/monitor-409-body']),
        'POST takeover on a finished call',
        await takeover(c, call.id, 'late'),
        'not_live',
      );
      checkConflict(
        verify.on(['3/monitoring-not-live-final', '7/monitor-409-body']),
        'POST end on a finished call',
        await endCall(c, call.id, 'late'),
        'not_live',
      );
      const { res, attempts } = await withAgentAbsentRetry(() => takeover(c, call.id, 'late, via the retry policy'), { delayMs: 50 });
      checkConflict(verify.on(['3/monitoring-not-live-final']), 'not_live stays final', res, 'not_live');
      ctx.verify.on('3/monitoring-not-live-final').equal('the retry policy sends a not_live action once', attempts, 1);
      const audit = await c.get(`/calls/${call.id}/monitor-sessions`);
      ctx.verify.on('4.5/monitor-sessions-audit').success(audit, 200, 'the audit read works after the call (envelope)');
    },
    { timeout: 120_000 },
  );

  clauseTest(
    ['3/monitoring-agent-absent', '7/monitor-409-body', '4.5/takeover-end-bare'],
    'a takeover while the assistant is away is refused with agent_absent and succeeds on a retry once it is back',
    async ({ verify }) => {
      // A call the suite started; on a live tenant the trigger sends the assistant briefly away (docs/event-trigger.md `agent-absent`).
      const call = await liveCall();
      const tenantId = world().tenantA.id;
      const c = world().as('tenantA');
      await events!.agentAbsent(tenantId, call, true);
      checkConflict(
        verify.on(['3/monitoring-agent-absent', '7/monitor-409-body']),
        'POST takeover while the assistant is away',
        await takeover(c, call.id, 'conformance'),
        'agent_absent',
      );
      const { res, attempts } = await withAgentAbsentRetry(() => takeover(c, call.id, 'conformance retry'), {
        retries: 2,
        delayMs: 100,
        onRetry: () => events!.agentAbsent(tenantId, call, false),
      });
      verify.on('3/monitoring-agent-absent').equal('the first attempt is refused with agent_absent and one retry follows', attempts, 2);
      checkBareSuccess(verify.on(['3/monitoring-agent-absent', '4.5/takeover-end-bare']), 'the retried takeover once the assistant is back', res);
    },
    CALLS,
  );

  clauseTest(
    '7/monitor-400-envelope',
    'an over-length actorLabel, when refused with 400, uses the normal envelope',
    async ({ verify }) => {
      const call = await liveCall();
      const c = world().as('tenantA');
      const label = 'L'.repeat(100_000);
      for (const [what, send] of [
        ['takeover', () => takeover(c, call.id, label)],
        ['end', () => endCall(c, call.id, label)],
      ] as const) {
        const res = await send();
        if (res.status === 400) {
          verify.error(res, 400, 'VALIDATION_ERROR', `POST ${what} with a 100,000-character actorLabel`);
          verify.schema('the 400 is the normal error envelope', 'envelope.error', res.json, res);
        } else {
          // The limit itself is not shown (§4.5): acceptance is no failure.
          verify.inform(
            `POST ${what} with a 100,000-character actorLabel was not refused with 400`,
            res.status < 300,
            `answered ${res.status}; ${validate('monitor#/$defs/bare', res.json).ok ? 'bare JSON' : 'not bare JSON'}`,
          );
        }
      }
    },
    CALLS,
  );
});
