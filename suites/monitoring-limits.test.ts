/**
 * §4.5 and §7 exception 3: the scope of the monitoring limits, member by member. The per-tenant
 * mint rate is one budget for the tenant whichever credential spends it (its tenant key, or an
 * organization key naming it with X-Tenant-Id, §5.2), and DELETE /calls/{id}/monitor-session
 * closes one session, so the call's other sessions keep their slots.
 *
 * The tests on fresh organizations and tenants need the control API (`requires: ['control']`).
 * Two run on every target with an event source (`requires: ['events']`: the control API, or the
 * operator's trigger on a live tenant), on calls the suite started itself: the per-tenant rate
 * found by minting on one call of tenant B until the first 429 (at most {@link MAX_RATE_MINTS}
 * mints within {@link MAX_RATE_MS}, each session closed again so the call's slots never fill),
 * then its top-level retryAfterSeconds and the other key type getting no second budget; and DELETE
 * closing one session of a call whose slots are full (the slot count found by minting until a
 * refusal on a live tenant, at most {@link MAX_SLOTS}). Tenant B spends its budget so that tenant
 * A's monitoring tests, running beside this file, keep theirs.
 *
 * Side by side on a simulator (issue 43): every test spends the mint budget of a tenant no other
 * test of the file mints on while it runs (a fresh tenant each for the control-only tests, tenant B
 * for the rate, tenant A for DELETE), so one test's spending never meets another's (§4.5: the
 * budget is the tenant's). On a live tenant they run in order ({@link sideBySide}).
 *
 * Mints are sent with `retry: false` and `expect429` so the client's own 429 policy never hides the
 * endpoint's answer; a 429 without the endpoint's own body (a top-level retryAfterSeconds, §7
 * exception 3) is a throttle, waited out and sent again (helpers/checks/limits.ts), never the limit. A
 * budget is judged only within the minute it was spent in (helpers/checks/clock.ts `spentWithin`). Slots per call and the mint rate are not shown by the spec; on simulators they
 * are read from the control contract's config (an empty `PUT /__control/config` changes nothing).
 */
import { beforeAll } from 'vitest';
import { useWorld } from '../helpers/world/world';
import { TargetError, type ApiClient, type ApiResponse } from '../helpers/http/client';
import { clauseTest, sideBySide, skipWith, type Verify } from '../helpers/checks/clause';
import { assistantFixture, tenantWithAssistant } from '../helpers/world/fixtures';
import { eventsFor, type Events, type StartedCall } from '../helpers/target/events';
import { validate } from '../helpers/spec/validator';
import { AT_LIMIT, pastThrottles } from '../helpers/checks/limits';
import { openWindow, stopwatch } from '../helpers/checks/clock';

const world = useWorld();
let assistant: { id: string };
/** The control API on a simulator, the operator's trigger on a live tenant; undefined when neither. */
let events: Events | undefined;
/** Tenant B's fixture assistant for the calls of the rate test (found or made once on a live tenant). */
let assistantB: { id: string } | undefined;

beforeAll(async () => {
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'monitoring-limits');
  events = eventsFor(w.target, w.control);
  if (events) assistantB = await assistantFixture(w, w.as('tenantB'), 'monitoring-limits-b');
});

/** Most mints the rate test sends before it gives up finding the per-tenant 429 (the rate is not shown, §4.5). */
const MAX_RATE_MINTS = 120;
/** Longest the rate test mints before it gives up finding the per-tenant 429, ms. */
const MAX_RATE_MS = 90_000;
/** Most mints tried on one call to find its slot count where no control API states it (not shown by §4.5). */
const MAX_SLOTS = 8;
/** What a test on calls started through the event source needs, with a timeout for a live tenant's real calls. */
const ON_STARTED_CALLS = { requires: ['events' as const], timeout: 240_000 };

/** A call the event source started for `tenant`; ended through it by the cleanup ledger (an already-ended call is fine). */
async function startedCall(tenant: 'tenantA' | 'tenantB', assistantId: string): Promise<StartedCall> {
  const w = world();
  const tenantId = w[tenant].id;
  const call = await events!.startCall(tenantId, assistantId);
  w.cleanup.add(`end call ${call.id}`, () => events!.endCall(tenantId, call, false).then(() => undefined));
  return call;
}

/** Whether a 429 carries the endpoint's own body: a top-level retryAfterSeconds (§7 exception 3), not a gateway's page. */
const endpoints429 = (res: ApiResponse) => res.status === 429 && validate('monitor#/$defs/rateLimited', res.json).ok;

/** A call the control API made live; ended again by the cleanup ledger (an already-ended call is fine). */
async function liveCall(tenantId: string, assistantId: string): Promise<{ id: string }> {
  const w = world();
  const call = await w.control!.startCall({ tenantId, assistantId });
  w.cleanup.add(`end call ${call.id}`, () => w.control!.endCall(call.id).catch(() => undefined));
  return call;
}

/** The simulator's monitoring config (control contract): slots per call and mints per minute. */
async function monitorConfig(): Promise<{ slots: number; mintsPerMinute: number }> {
  const cfg = await world().control!.config({});
  return { slots: Number(cfg.monitorSlotsPerCall ?? 2), mintsPerMinute: Number(cfg.monitorMintsPerMinute ?? 30) };
}

const mint = (c: ApiClient, id: string, actorLabel = 'conformance monitor') =>
  c.post(`/calls/${id}/monitor-session`, { actorLabel }, { retry: false, expect429: true });

/**
 * A mint for a test that judges the rate: a 429 without the endpoint's own body (a gateway's,
 * another limiter's, §7 "throttled") is waited out and the mint sent again (helpers/checks/limits.ts); the
 * answer returned is a 2xx, another refusal, or the endpoint's own 429.
 * @throws TargetError (`throttled`, an `error`) when such throttles do not lift
 */
const mintPastThrottles = async (c: ApiClient, id: string, actorLabel?: string): Promise<ApiResponse> =>
  (await pastThrottles(() => mint(c, id, actorLabel), endpoints429, 'POST /calls/{id}/monitor-session')).res;

/**
 * A mint for a test that judges slots, not the rate: a 429 is the tenant's mint budget (spent by
 * earlier tests or another run within the minute, §4.5), never the slot rule's answer, so the
 * client waits it out as it does every 429 (helpers/http/client.ts) and ends the test in `error` only
 * when the throttling outlasts its retries.
 */
const mintPastBudget = (c: ApiClient, id: string, actorLabel: string) => c.post(`/calls/${id}/monitor-session`, { actorLabel }, { retry: false });

/**
 * A fresh organization with one tenant and an assistant of it (its creation checked through the
 * test's `verify` on `clause`, one of the test's own), so the tenant's mint budget is untouched and
 * no other test mints on it: its tenant key and the organization key acting for it (X-Tenant-Id).
 */
async function freshTenant(
  verify: Verify,
  label: string,
  clause = '4.5/monitor-session-per-tenant',
): Promise<{ tenantId: string; assistantId: string; tenantKey: ApiClient; orgKey: ApiClient }> {
  const w = world();
  const org = await w.control!.organization(`${w.runPrefix}mint-scope-${label}`);
  const t = await tenantWithAssistant(w, org, `mint-scope-${label}`, label);
  verify.on(clause).success(t.created, undefined, `fixture: assistant of tenant ${label}`);
  return { tenantId: t.tenantId, assistantId: t.assistantId!, tenantKey: t.tenantKey, orgKey: t.orgKey };
}

/**
 * Mints with `client` until the tenant is refused with the endpoint's own 429 (a throttle without
 * its body is waited out, helpers/checks/limits.ts; once the stated budget is spent, one that
 * waiting does not lift counts as the refusal), each mint before it checked 2xx through
 * the test's `verify`, opening a new call whenever the
 * current one's slots are full. Returns the 429 (`throttled`, undefined when none came within
 * `mintsPerMinute + 5` mints) and every answer judged, for the target's clock over the spending.
 */
async function spendBudget(
  verify: Verify,
  client: ApiClient,
  t: { tenantId: string; assistantId: string },
  cfg: { slots: number; mintsPerMinute: number },
): Promise<{ throttled?: ApiResponse; answers: ApiResponse[] }> {
  let call = await liveCall(t.tenantId, t.assistantId);
  let onCall = 0;
  const answers: ApiResponse[] = [];
  for (let i = 0; i < cfg.mintsPerMinute + 5; i++) {
    if (onCall === cfg.slots) {
      call = await liveCall(t.tenantId, t.assistantId);
      onCall = 0;
    }
    // Once the stated budget is spent, a refusal that waiting does not lift is the budget's, whatever its body (its body is 4.5/monitor-session-429's concern).
    const atBudget = i >= cfg.mintsPerMinute;
    const { res } = await pastThrottles(() => mint(client, call.id), endpoints429, 'POST /calls/{id}/monitor-session', atBudget ? AT_LIMIT : {});
    answers.push(res);
    if (res.status === 429) return { throttled: res, answers };
    verify.on('4.5/monitor-session-per-tenant').success(res, undefined, `mint ${i + 1} within the rate (${cfg.mintsPerMinute} per minute)`);
    onCall += 1;
  }
  return { answers };
}

sideBySide('§4.5 / §7 exception 3: one mint budget per tenant, whichever key spends it', () => {
  const ORDERS = [
    { spend: 'tenantKey', then: 'orgKey', words: 'spent with the tenant key, an organization key acting for the tenant is throttled too' },
    { spend: 'orgKey', then: 'tenantKey', words: 'spent with an organization key acting for the tenant, the tenant key is throttled too' },
  ] as const;
  for (const [i, o] of ORDERS.entries()) {
    clauseTest(
      ['4.5/monitor-session-per-tenant', '4.5/monitor-session-429'],
      `the per-tenant mint budget ${o.words}`,
      async ({ verify }) => {
        const cfg = await monitorConfig();
        const t = await freshTenant(verify, `${i}`);
        const spending = openWindow();
        const { throttled, answers } = await spendBudget(verify, t[o.spend], t, cfg);
        // The budget is spent: a refusal of the other key type that waiting does not lift is the budget's too.
        const otherCall = await liveCall(t.tenantId, t.assistantId);
        const { res: other } = await pastThrottles(() => mint(t[o.then], otherCall.id), endpoints429, 'POST /calls/{id}/monitor-session', AT_LIMIT);
        // Spent past the minute (429s of a gateway waited out), the first mints may have aged out: no verdict.
        if (!throttled || other.status !== 429) spending.close().spentWithin(60_000, 'the per-tenant mint budget', verify.record, [answers[0], other]);
        verify
          .on('4.5/monitor-session-429')
          .arrived(`minting beyond ${cfg.mintsPerMinute} per minute answers 429`, throttled, `a 429 by mint ${cfg.mintsPerMinute + 1}`, 'no 429');
        verify
          .on('4.5/monitor-session-per-tenant')
          .error(
            other,
            429,
            undefined,
            `the same tenant minting with the other key type (${o.then === 'orgKey' ? 'organization key with X-Tenant-Id' : 'tenant key'}) is throttled as well: 429`,
          );
      },
      { requires: ['control'], timeout: 60_000 },
    );
  }
});

sideBySide('§4.5 / §7 exception 3: the budget is the tenant’s, not its organization’s', () => {
  clauseTest(
    ['4.5/monitor-session-per-tenant', '4.5/monitor-session-429'],
    'a tenant throttled for minting leaves the other tenants of its organization free to mint',
    async ({ verify }) => {
      const w = world();
      const cfg = await monitorConfig();
      const org = await w.control!.organization(`${w.runPrefix}mint-scope-siblings`);
      const tenants = [];
      for (const label of ['first', 'second']) {
        const t = await tenantWithAssistant(w, org, `mint-scope-${label}`, label);
        verify.on('4.5/monitor-session-per-tenant').success(t.created, undefined, `fixture: assistant of tenant ${label}`);
        tenants.push({ tenantId: t.tenantId, assistantId: t.assistantId!, tenantKey: t.tenantKey });
      }
      const [first, second] = tenants;
      const spending = openWindow();
      const { throttled, answers } = await spendBudget(verify, first.tenantKey, first, cfg);
      if (!throttled) spending.close().spentWithin(60_000, 'the per-tenant mint budget', verify.record, [answers[0], answers[answers.length - 1]]);
      verify
        .on('4.5/monitor-session-429')
        .arrived(`minting beyond ${cfg.mintsPerMinute} per minute answers 429`, throttled, `a 429 by mint ${cfg.mintsPerMinute + 1}`, 'no 429');
      const sibling = await mintPastThrottles(second.tenantKey, (await liveCall(second.tenantId, second.assistantId)).id);
      verify.on('4.5/monitor-session-per-tenant').success(sibling, undefined, 'another tenant of the same organization still mints: 2xx');
    },
    { requires: ['control'], timeout: 60_000 },
  );
});

sideBySide('§4.5 monitor slots are per call', () => {
  clauseTest(
    '4.5/monitor-session-slots',
    'a call whose slots are full does not stop a mint on another call of the tenant',
    async ({ verify }) => {
      const { slots } = await monitorConfig();
      // A tenant of its own: the DELETE test mints on tenant A beside it.
      const t = await freshTenant(verify, 'slots', '4.5/monitor-session-slots');
      const c = t.tenantKey;
      const full = await liveCall(t.tenantId, t.assistantId);
      for (let i = 1; i <= slots; i++) verify.success(await mintPastBudget(c, full.id, `slot ${i}`), undefined, `mint ${i} of ${slots} on the first call`);
      const other = await liveCall(t.tenantId, t.assistantId);
      const res = await mintPastBudget(c, other.id, 'on another call');
      verify.success(res, undefined, 'a mint on another call of the tenant answers 2xx: the slots are the call’s');
    },
    { requires: ['control'] },
  );
});

sideBySide('§4.5 / §7 exception 3 on calls the suite started: the per-tenant rate found by minting', () => {
  clauseTest(
    ['4.5/monitor-session-429', '7/monitor-429-top-level', '4.5/monitor-session-per-tenant'],
    `minting on a call until the first 429 (at most ${MAX_RATE_MINTS} mints in ${MAX_RATE_MS / 1000} s) finds the per-tenant rate; the 429 carries a top-level retryAfterSeconds, and the other key type gets no second budget`,
    async (ctx) => {
      const { verify } = ctx;
      const w = world();
      const tenantKey = w.as('tenantB');
      const orgKey = w.as('orgB');
      const call = await startedCall('tenantB', assistantB!.id);
      const { throttled, minted, noise, minting } = await mintUntilRate(ctx, verify, tenantKey, call.id);
      verify
        .on('4.5/monitor-session-429')
        .inform(
          `the per-tenant mint rate found: ${minted} mint(s) accepted before the first 429`,
          true,
          minted === 0
            ? 'the first mint was already throttled: the budget was spent before this test (an earlier run within the window)'
            : `${minted} mints in ${Math.round(minting.elapsedMs() / 1000)} s${noise ? `; ${noise} 429s without the endpoint's body waited out` : ''}`,
        );
      verify
        .on(['4.5/monitor-session-429', '7/monitor-429-top-level'])
        .schema('the 429 body carries a top-level retryAfterSeconds', 'monitor#/$defs/rateLimited', throttled.json, throttled);
      // The other key type (organization key acting for B) right away, then the tenant key again: it proves the budget was still spent.
      const other = await mintWithOtherKey(verify, orgKey, tenantKey, call.id);
      verify
        .on('4.5/monitor-session-per-tenant')
        .error(other, 429, undefined, 'the same tenant minting with the other key type (organization key with X-Tenant-Id) is throttled as well: 429');
    },
    ON_STARTED_CALLS,
  );
});

sideBySide('§4.5 DELETE /calls/{id}/monitor-session closes one session, on a call the suite started', () => {
  clauseTest(
    '4.5/monitor-session-delete',
    'on a call whose slots are all taken, DELETE frees one slot and the other sessions keep theirs',
    async (ctx) => {
      const w = world();
      const c = w.as('tenantA');
      const call = await startedCall('tenantA', assistant.id);
      const stated = w.control ? (await monitorConfig()).slots : undefined;
      let open = 0;
      let refusal: ApiResponse | undefined;
      for (let i = 1; i <= (stated ?? MAX_SLOTS); i++) {
        const res = await mintPastBudget(c, call.id, `slot ${i}`);
        if (stated === undefined && res.status >= 400 && res.status < 500) {
          refusal = res;
          break;
        }
        ctx.verify.success(res, undefined, `mint ${i}${stated === undefined ? '' : ` of ${stated}`} (slots free)`);
        open += 1;
      }
      if (stated === undefined && !refusal)
        skipWith(ctx, `precondition failed: ${open} mints on one call were all accepted; the slot count is not shown (§4.5), so no full call could be made`);
      if (open < 2)
        skipWith(
          ctx,
          `not applicable to this target: ${open} monitor slot per call (a second mint was refused: ${refusal ? `${refusal.status} ${refusal.text.slice(0, 120)}` : 'slots config'}), so no second session can stay open while one is closed`,
        );
      const del = await c.delete(`/calls/${call.id}/monitor-session`);
      ctx.verify.success(del, undefined, 'DELETE /calls/{id}/monitor-session answers 2xx');
      const again = await mintPastBudget(c, call.id, 'into the freed slot');
      ctx.verify.success(again, undefined, 'the closed session freed its slot: one new mint succeeds');
      const beyond = await mintPastBudget(c, call.id, 'one too many');
      ctx.verify.refused(beyond, `the other ${open - 1} session(s) kept their slots: a further mint is refused`, [429]);
    },
    ON_STARTED_CALLS,
  );
});

/** Closes the session just minted on a call (DELETE without a session id closes one), checking it through `verify`. */
async function closeOne(verify: Verify, c: ApiClient, id: string): Promise<void> {
  const del = await c.delete(`/calls/${id}/monitor-session`);
  verify.on('4.5/monitor-session-429').success(del, undefined, 'DELETE /calls/{id}/monitor-session closes the session just minted');
}

/**
 * Mints with `tenantKey` on call `callId` until the endpoint's own 429 (§4.5, §7 exception 3), each
 * session closed again at once so the call's slots never fill and only the rate can refuse a mint;
 * at most {@link MAX_RATE_MINTS} mints within {@link MAX_RATE_MS}. A 429 without the endpoint's
 * body is waited out and counted as `noise`. Returns the 429, the mints accepted before it and the
 * stopwatch started at the first mint. Skips the test when another refusal comes first, or when no
 * 429 came within those bounds (the rate is not shown).
 */
async function mintUntilRate(
  ctx: Parameters<typeof skipWith>[0],
  verify: Verify,
  tenantKey: ApiClient,
  callId: string,
): Promise<{ throttled: ApiResponse; minted: number; noise: number; minting: ReturnType<typeof stopwatch> }> {
  const minting = stopwatch();
  let minted = 0;
  let noise = 0;
  let throttled: ApiResponse | undefined;
  while (!throttled && minted < MAX_RATE_MINTS && !minting.over(MAX_RATE_MS)) {
    // A 429 without the endpoint's own body (a gateway's, §7 "throttled") is waited out; the endpoint's own 429 persists once the budget is spent.
    const got = await pastThrottles(() => mint(tenantKey, callId, 'conformance rate probe'), endpoints429, 'POST /calls/{id}/monitor-session');
    noise += got.throttles.length;
    const res = got.res;
    if (res.status === 429) throttled = res;
    else if (res.status < 200 || res.status >= 300) return refused(ctx, res, minted);
    else {
      minted += 1;
      // Closed again at once, so the call's slots never fill and only the rate can refuse a mint.
      await closeOne(verify, tenantKey, callId);
    }
  }
  if (!throttled)
    skipWith(
      ctx,
      `precondition failed: ${minted} mints in ${Math.round(minting.elapsedMs() / 1000)} s were all accepted; the per-tenant rate is not shown (§4.5), so no 429 could be met within this test's bounds (${MAX_RATE_MINTS} mints, ${MAX_RATE_MS / 1000} s)`,
    );
  return { throttled, minted, noise, minting };
}

/**
 * Right after the tenant's budget is spent: one mint with the other key type (`orgKey`, the
 * organization key acting for the tenant), then one with `tenantKey` again, which proves the budget
 * was still spent (§4.5); each accepted session is closed again. Returns the other key type's answer.
 * @throws TargetError (`throttled`, an `error`) when the tenant key mints again while the other key
 *   type was not refused: the spent budget left its window before the other key type could be judged
 */
async function mintWithOtherKey(verify: Verify, orgKey: ApiClient, tenantKey: ApiClient, callId: string): Promise<ApiResponse> {
  const other = await mintPastThrottles(orgKey, callId, 'conformance rate probe, organization key');
  if (other.status >= 200 && other.status < 300) await closeOne(verify, orgKey, callId);
  const still = await mintPastThrottles(tenantKey, callId, 'conformance rate probe, tenant key again');
  if (still.status >= 200 && still.status < 300) {
    await closeOne(verify, tenantKey, callId);
    if (other.status !== 429)
      throw new TargetError(
        `the tenant key minted again (${still.status}) after the organization key's ${other.status}: the spent budget left its window before the other key type could be judged (a loaded runner or a slow target); no verdict`,
        still.request,
        'throttled',
      );
  }
  return other;
}

/** Ends the rate test when a mint is refused with something other than 429: the call's state or slots, not the rate. */
function refused(ctx: Parameters<typeof skipWith>[0], res: ApiResponse, minted: number): never {
  skipWith(
    ctx,
    `precondition failed: mint ${minted + 1} on a call the suite started was refused with ${res.status} ${res.text.slice(0, 160)} before any 429 (its sessions were closed after each mint), so the rate could not be found`,
  );
}
