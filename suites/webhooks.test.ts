/**
 * §6 events: delivery models A and B, retries, routing (§2.3 rules 3–5), a call keeping the
 * configuration it began with (§1), and the payload fields §6 names.
 *
 * Events are made to happen through helpers/events.ts: the control API on a simulator, the
 * operator's trigger (`CORE_API_EVENT_TRIGGER`, docs/event-trigger.md) on a live tenant. Tests that
 * `requires: ['receiver', 'events']` run on every target; on a live tenant the receiver is reached
 * through `CORE_API_WEBHOOK_PUBLIC_URL`, an https URL a tunnel forwards (path kept) to this file's
 * receiver on `CORE_API_WEBHOOK_PORT`, and the assistants pointed at it are live fixtures, restored
 * afterwards. Tests that need what only a control API gives (a tenant-level URL per test, a down
 * endpoint, the deliveries log, the attempt timeout, tool invocations) `requires: ['control']`.
 * Deliveries are observed by the receiver (helpers/webhooks/receiver.ts) and, on a simulator, the
 * control deliveries log; signatures are checked with the very module integrators are given
 * (helpers/webhooks/verify.ts). Retry timing is judged by ratios between gaps
 * (helpers/webhooks/timing.ts), never by absolute times; every "nothing more arrives" wait is
 * bounded and outlasts the retry schedule of the run config read from a simulator (on a live
 * tenant, whose schedule is not known, fixed generous windows).
 *
 * Isolation: on a simulator every test has its own organization and tenants (usePerTestWorld,
 * helpers/world.ts), so the tests run concurrently although each sets a tenant-level URL; on a
 * live tenant they share tenant A, and each test has assistants of its own. Receiver paths are
 * unique to each test, and the only run-wide config written is `webhookConnectTo` keys for this
 * file's own host names (helpers/webhooks/connect-to.ts).
 */
import { afterAll, beforeAll, describe, vi } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { usePerTestWorld, useWorld, type World } from '../helpers/world';
import { clauseTest, check, checkSchema, checkSuccess, continueOnFailure, inform, skipWith, softCheck } from '../helpers/clause';
import { assistantFixture } from '../helpers/fixtures';
import { eventsFor, type Events, type StartedCall } from '../helpers/events';
import { getTarget, hasCapability } from '../helpers/target';
import { RUN_CONFIG } from '../helpers/global-setup';
import type { ControlClient, ControlDelivery } from '../helpers/control';
import { WebhookReceiver, WaitTimeoutError, describeRequest, downEndpoint, isRefusing, jsonOf, type ReceivedRequest } from '../helpers/webhooks/receiver';
import { verifyModelA, verifyModelB, deliveryIdOf, getHeader, HEADER_SIGNATURE, UUID_PATTERN } from '../helpers/webhooks/verify';
import { Deduper } from '../helpers/webhooks/dedupe';
import { analyseBackoff, nextRetryWindowMs, retryReading, retryScheduleMs } from '../helpers/webhooks/timing';
import { ensureConnectTo, routeHostTo } from '../helpers/webhooks/connect-to';

/** The file's world: the receiver's host names and connect-to entries, and their cleanup. */
const fileWorld = useWorld();
/**
 * Each test's own organization and tenants, so each may point the tenant-level URL where it
 * likes while the others run (every describe below is concurrent).
 */
const world = usePerTestWorld(fileWorld);
const NEEDS = { requires: ['control' as const] };
/**
 * What a test needs to run on every target: a receiver the target reaches, and events made to
 * happen. Its timeout allows for a live target, where each event is a real call or message placed
 * by the operator's trigger and delivered through a tunnel.
 */
const REACH = { requires: ['receiver' as const, 'events' as const], timeout: 120_000 };

/** How long a live target's silence counts as "no retry", ms: its retry schedule is not known to the suite. */
const LIVE_QUIET_MS = 5_000;
/**
 * Longest wait for an expected model B retry on a live tenant, ms: its schedule is not known, so
 * the wait is generous (it ends as soon as the retry arrives), and so are those tests' timeouts.
 */
const LIVE_RETRY_WAIT_MS = 300_000;
/** Options of a model B retry test that runs on every target. */
const RETRIES = { requires: ['receiver' as const, 'events' as const], timeout: 2 * LIVE_RETRY_WAIT_MS + 60_000 };

/** How long to wait for `retries` further model B attempts, ms: from the target's config on a simulator, else {@link LIVE_RETRY_WAIT_MS}. */
function retryWaitMs(retries: number): number {
  return control ? retryScheduleMs(retryBaseMs, retries) + ARRIVAL_MS : LIVE_RETRY_WAIT_MS;
}

/**
 * How long an expected delivery may take to arrive, ms: generous on a simulator (shared CPUs),
 * more so on a live tenant (a real call connecting, a tunnel between).
 */
let ARRIVAL_MS = 4_000;

let rx: WebhookReceiver;
let control: ControlClient;
/** The control API on a simulator, the operator's trigger on a live tenant (helpers/events.ts). */
let events: Events | undefined;
/** Calls this file started and has not ended: ended in afterAll, so a failed test leaves no call live. */
const openCalls = new Map<string, { tenantId: string; call: StartedCall }>();
/** Retry base delay and attempt timeout of the target, ms (read from the target, else RUN_CONFIG). */
let retryBaseMs = RUN_CONFIG.webhookRetryBaseMs;
let timeoutMs = RUN_CONFIG.webhookTimeoutMs;
/** This file's public host names and their connect-to entries. */
const hosts = { hooks: '', bare: '', tunnel: '' };
let connectTo: Record<string, string> = {};
/**
 * Where the target reaches the receiver: on a simulator `https://<hooks host>` (routed by the control
 * API's DNS and connect-to), on a live tenant the public URL a tunnel forwards (no trailing slash).
 */
let hookBase = '';
/** Path prefix the receiver sees before a test's own path: the public URL's path on a live tenant, else ''. */
let seenPrefix = '';

beforeAll(async () => {
  if (!hasCapability('control')) {
    // A live tenant reaches the receiver through the operator's tunnel (CORE_API_WEBHOOK_PUBLIC_URL).
    const reach = getTarget().webhook;
    if (!reach) return;
    rx = await WebhookReceiver.start({ port: reach.port });
    events = eventsFor();
    ARRIVAL_MS = 30_000;
    hookBase = reach.publicUrl;
    seenPrefix = new URL(reach.publicUrl).pathname.replace(/\/+$/, '');
    return;
  }
  const w = fileWorld();
  control = w.control!;
  events = eventsFor(w.target, control);
  rx = await WebhookReceiver.start();
  const cfg = await control.config({});
  if (typeof cfg.webhookRetryBaseMs === 'number') retryBaseMs = cfg.webhookRetryBaseMs;
  if (typeof cfg.webhookTimeoutMs === 'number') timeoutMs = cfg.webhookTimeoutMs;
  const tag = w.runPrefix.replace(/-+$/, '');
  hosts.hooks = `hooks-${tag}.example.com`;
  hosts.bare = `bare-${tag}.example.com`;
  hosts.tunnel = `tunnel-${tag}.example.com`;
  hookBase = `https://${hosts.hooks}`;
  for (const h of Object.values(hosts)) Object.assign(connectTo, await routeHostTo(control, h, rx.origin, (l, fn) => w.cleanup.add(l, fn)));
});

afterAll(async () => {
  for (const { tenantId, call } of openCalls.values()) await events?.endCall(tenantId, call, false).catch(() => undefined);
  await rx?.close();
});

// ---------------------------------------------------------------------------------------------
// Small helpers of this file

/** Points the test's tenant A's (or B's) tenant-level server URL at a receiver path unique to the test. */
async function tenantUrl(path: string, tenant: 'tenantA' | 'tenantB' = 'tenantA'): Promise<string> {
  const url = rx.url(path);
  const w = world();
  await control.tenantServerUrl(w[tenant].id, url);
  w.cleanup.add(`tenant-level server URL of ${tenant === 'tenantA' ? 'A' : 'B'}`, () => control.tenantServerUrl(w[tenant].id, null));
  return url;
}

/**
 * A serverUrl the target can deliver to, for a path unique to the test, and the path the receiver
 * will see for it (a tunnel keeps the path, so the public URL's own path comes first).
 */
function hook(path: string): { url: string; seen: string } {
  return { url: hookBase + path, seen: seenPrefix + path };
}

/** Whether a received request is about the call (its `call_id` is the call's id or its `callId`, §4.5). */
function aboutCall(r: ReceivedRequest, call: { id: string; callId?: string }): boolean {
  const b = jsonOf(r);
  return !!b && b.call_id !== undefined && (b.call_id === call.id || b.call_id === call.callId);
}

function typeOf(r: ReceivedRequest): unknown {
  return jsonOf(r)?.type;
}

/**
 * Whether a received request is an onboarding event (a `chatapp.*` type, §6). Onboarding events go
 * to the tenant-level URL, which on a live tenant stays where the last one was sent; events of
 * other files' calls without a serverUrl may then arrive at the same path, so onboarding tests
 * count only these.
 */
function isOnboarding(r: ReceivedRequest): boolean {
  const t = typeOf(r);
  return typeof t === 'string' && t.startsWith('chatapp.');
}

/** The onboarding events received at `path` (without query), in arrival order. */
function onboardingAt(path: string): ReceivedRequest[] {
  return rx.at(path).filter(isOnboarding);
}

/**
 * Waits for requests satisfying `pred`; a timeout becomes a clause-tagged failure that lists what
 * did arrive (redacted), not a bare timeout. `wrong`, when given, is checked on every arrival too:
 * when it returns a text (e.g. "delivered to the tenant-level URL"), the wait ends at once with a
 * failure saying so.
 */
async function arrival(
  clauses: string | string[],
  requirement: string,
  pred: (all: ReceivedRequest[]) => ReceivedRequest[] | undefined | false,
  opts: { timeoutMs?: number; wrong?: (all: ReceivedRequest[]) => string | undefined; expected?: string } = {},
): Promise<ReceivedRequest[]> {
  const timeout = opts.timeoutMs ?? ARRIVAL_MS;
  let found: ReceivedRequest[] = [];
  let wrong: string | undefined;
  try {
    await rx.waitFor((all) => {
      wrong = opts.wrong?.(all);
      if (wrong) return true;
      const r = pred(all);
      if (r && r.length) {
        found = r;
        return true;
      }
      return false;
    }, timeout, requirement);
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    check(clauses, requirement, false, { expected: opts.expected ?? `within ${timeout} ms`, actual: `nothing matching arrived; the receiver saw: ${rx.summary()}` });
  }
  if (wrong) check(clauses, requirement, false, { expected: opts.expected ?? 'delivery as stated', actual: wrong });
  check(clauses, requirement, true, { expected: '', actual: '' }); // records the pass on the clauses
  return found;
}

/** Starts a call on tenant A through the target's event source (assistant-request is delivered); tracked until {@link finishCall}. */
async function beginCall(assistantId: string): Promise<StartedCall> {
  const tenantId = world().tenantA.id;
  const call = await events!.startCall(tenantId, assistantId);
  openCalls.set(call.id, { tenantId, call });
  return call;
}

/**
 * Ends a call {@link beginCall} started (the end-of-call report is delivered).
 * @returns whether the supervisor answered, when the event source says what really happened
 */
async function finishCall(call: StartedCall, supervisorAnswered = false): Promise<boolean | undefined> {
  const open = openCalls.get(call.id);
  openCalls.delete(call.id);
  return (await events!.endCall(open?.tenantId ?? world().tenantA.id, call, supervisorAnswered)).supervisorAnswered;
}

/**
 * A new (simulator) or fixture (live) assistant of tenant A whose serverUrl leads to the receiver
 * at a path unique to the test; `seen` is the path the receiver sees.
 */
async function hookedAssistant(purpose: string, path: string): Promise<{ a: { id: string; name: string }; seen: string }> {
  if (control) await ensureConnectTo(control, connectTo);
  const a = await assistant(purpose);
  const { url, seen } = hook(path);
  await setServerUrl(a.id, url);
  return { a, seen };
}

/**
 * Where an onboarding event of tenant A must go for the receiver to see it at a path unique to the
 * test: on a simulator the tenant-level URL is pointed there now (control API); on a live tenant
 * the trigger is asked to deliver to the public URL (§6: onboarding events go to the tenant-level URL).
 */
async function onboardingTo(path: string): Promise<{ deliverTo: string; seen: string }> {
  if (control) return { deliverTo: await tenantUrl(path), seen: path };
  const { url, seen } = hook(path);
  return { deliverTo: url, seen };
}

/** Skips the test when tenant A's client server secret is unknown (live: `CORE_API_CLIENT_SERVER_SECRET`). */
function needSecret(ctx: Parameters<typeof skipWith>[0]): void {
  if (!world().tenantA.clientServerSecret) skipWith(ctx, world().missing('secretAsKey') ?? 'the client server secret of tenant A is unknown');
}

/** Starts a call through the control API (assistant-request is delivered). */
async function startCall(assistantId: string, customerNumber: string, tenant: 'tenantA' | 'tenantB' = 'tenantA') {
  return control.startCall({ tenantId: world()[tenant].id, assistantId, customerNumber });
}

/** A new assistant of tenant A (or B) for one test. */
async function assistant(purpose: string, body: Record<string, unknown> = {}, tenant: 'tenantA' | 'tenantB' = 'tenantA'): Promise<{ id: string; name: string }> {
  const w: World = world();
  return assistantFixture(w, w.as(tenant), `webhooks-${purpose}`, body);
}

/**
 * PATCHes the assistant's serverUrl and makes sure the write took (§4.1: the response includes
 * serverUrl). A refusal is a precondition failure (the URL rules of §2.3 rules 1–2 belong to the
 * assistant suites), so it throws instead of recording a verdict.
 * @throws Error naming the request and answer when the PATCH is refused or does not store the URL.
 */
async function setServerUrl(assistantId: string, url: string | null): Promise<void> {
  const res = await world().as('tenantA').patch(`/assistants/${assistantId}`, { serverUrl: url });
  if (res.status !== 200 || res.json?.data?.serverUrl !== url) {
    throw new Error(`precondition: PATCH /assistants/{id} serverUrl=${JSON.stringify(url)} answered ${res.status} ${res.text.slice(0, 300)}`);
  }
}

/**
 * The routing fixture: the test's tenant-level URL at `tenantPath`, and a new assistant whose
 * serverUrl is `serverUrl` (one of this file's public host names, routed to the receiver).
 */
async function routedAssistant(purpose: string, tenantPath: string, serverUrl: string): Promise<{ id: string; name: string }> {
  await tenantUrl(tenantPath);
  await ensureConnectTo(control, connectTo);
  const a = await assistant(purpose);
  await setServerUrl(a.id, serverUrl);
  return a;
}

/** The deliveries log entries of a tenant whose URL is `url`. */
async function deliveriesTo(url: string, tenant: 'tenantA' | 'tenantB' = 'tenantA'): Promise<ControlDelivery[]> {
  return (await control.deliveries(world()[tenant].id)).filter((d) => d.url === url);
}

/** Checks method and content type of a delivery (§6 first paragraph); soft. */
function checkPostJson(r: ReceivedRequest, what: string): void {
  const ct = String(r.headers['content-type'] ?? '');
  softCheck('6/events-post-json', `${what} is an HTTP POST with Content-Type application/json`, r.method === 'POST' && /^application\/json\s*(;|$)/i.test(ct), {
    expected: 'POST, content-type: application/json',
    actual: `${r.method}, content-type: ${ct || '(none)'}`,
  });
}

/** Checks the model A secret header of a delivery (§6 Model A rule 1) without ever printing it; soft. */
function checkModelA(r: ReceivedRequest, what: string): void {
  const secret = world().tenantA.clientServerSecret!;
  const v = verifyModelA(r.headers, secret);
  softCheck(['6/a-secret-header', '6/delivery-model-per-event'], `${what} (model A) carries x-service-core-secret equal to the client server secret`, v.ok, {
    expected: 'the client server secret, verbatim',
    actual: v.ok ? 'equal' : `${v.reason}: ${v.message}`,
  });
}

/** Checks `type` (§6: every body carries it); soft. Returns the parsed body. */
function checkType(r: ReceivedRequest, what: string): any {
  const body = jsonOf(r);
  softCheck('6/type-field', `${what} is a JSON object carrying a string \`type\``, !!body && typeof body === 'object' && typeof body.type === 'string' && body.type.length > 0, {
    expected: 'a JSON object with a non-empty string `type`',
    actual: body === undefined ? `not JSON (${r.body.length} bytes)` : `type ${JSON.stringify(body?.type)}`,
  });
  return body;
}

/** A distinct E.164 test number per use (555-01xx range). */
let numberSeq = 0;
function testNumber(): string {
  numberSeq += 1;
  return `+1555010${String(1000 + numberSeq).slice(-4)}`;
}

// ---------------------------------------------------------------------------------------------

describe.concurrent('model A: shared-secret header', () => {
  clauseTest(
    ['6/a-secret-header', '6/events-post-json', '6/type-field', '6/voice-call-id', '6/a-end-of-call-fields', '2.3/path-kept'],
    'voice events carry the client server secret verbatim, call_id, and the end-of-call report its fields',
    async (ctx) => {
      needSecret(ctx);
      const { a, seen: path } = await hookedAssistant('a-voice', '/a-voice');
      for (const supervisorAnswered of [true, false]) {
        const call = await beginCall(a.id);
        const [req] = await arrival(['6/voice-call-id', '2.3/path-kept'], `assistant-request of call ${call.id} reaches the assistant's serverUrl, path kept`, (all) =>
          all.filter((r) => r.path === path && aboutCall(r, call)), {
          expected: `a POST to ${path}`,
          wrong: (all) => {
            const elsewhere = all.find((r) => r.path !== path && aboutCall(r, call));
            return elsewhere && `delivered to ${elsewhere.path}`;
          },
        });
        checkPostJson(req, 'assistant-request');
        checkModelA(req, 'assistant-request');
        checkType(req, 'assistant-request');
        ctx.verify.on('6/voice-call-id').schema('assistant-request carries call_id', 'events/assistant-request', jsonOf(req));
        ctx.verify.on('6/type-field').inform('assistant-request carries type "assistant-request"', typeOf(req) === 'assistant-request', `type ${JSON.stringify(typeOf(req))}`);
        ctx.verify.on('6/voice-call-id').inform('call_id is the call id (not the support correlation callId)', jsonOf(req).call_id === call.id, `call_id ${JSON.stringify(jsonOf(req).call_id)}; call id ${call.id}`);

        const answered = await finishCall(call, supervisorAnswered);
        const [eoc] = await arrival('6/a-end-of-call-fields', `the end-of-call report of call ${call.id} reaches the assistant's serverUrl`, (all) =>
          all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq));
        checkPostJson(eoc, 'end-of-call-report');
        checkModelA(eoc, 'end-of-call-report');
        const body = checkType(eoc, 'end-of-call-report');
        ctx.verify.on(['6/a-end-of-call-fields', '6/voice-call-id']).schema('end-of-call-report carries call_id, customer_number and a boolean supervisor_answered', 'events/end-of-call-report', body);
        if (answered !== undefined) ctx.verify.on('6/a-end-of-call-fields').inform(`supervisor_answered reflects the call (${answered})`, body?.supervisor_answered === answered, `supervisor_answered ${JSON.stringify(body?.supervisor_answered)}`);
        if (call.customerNumber) ctx.verify.on('6/a-end-of-call-fields').inform('customer_number is the caller number', body?.customer_number === call.customerNumber, `customer_number ${JSON.stringify(body?.customer_number)}`);
      }
    },
    REACH,
  );

  clauseTest(
    ['6/a-no-retry', '6/missed-calls-readable'],
    'a non-2xx answer or a down endpoint loses a model A event: exactly one attempt, no retry',
    async ({ verify }) => {
      const w = world();
      // Tenant A answers 500; tenant B's URL is a port nothing listens on. Both run at once.
      const path = '/t/a-500';
      const urlA = await tenantUrl(path);
      rx.route(path, () => 500);
      const down = await downEndpoint();
      const urlB = `${down.origin}/t/a-down`;
      await control.tenantServerUrl(w.tenantB.id, urlB);
      const [aA, aB] = await Promise.all([assistant('a-500'), assistant('a-down', {}, 'tenantB')]);
      const [callA, callB] = await Promise.all([startCall(aA.id, testNumber()), startCall(aB.id, testNumber(), 'tenantB')]);
      await arrival('6/a-no-retry', 'the first attempt reaches the receiver', (all) => all.filter((r) => r.path === path && aboutCall(r, callA)));
      const refusing = await isRefusing(down.port);
      verify.on('6/a-no-retry').inform('the down endpoint really refuses connections (precondition)', refusing, refusing ? 'connection refused' : 'something answers on that port: the "down endpoint" half proves less');

      // Nothing more may arrive for longer than a whole model B retry schedule would take.
      const window = retryScheduleMs(retryBaseMs) + 250;
      const more = await rx.holdsOff((all) => all.filter((r) => r.path === path && aboutCall(r, callA)).length > 1, window);
      const attemptsA = rx.at(path).filter((r) => aboutCall(r, callA));
      verify.on('6/a-no-retry').soft.that('after a 500 answer the model A event is not retried', !more.violated, {
        expected: `1 attempt within ${window} ms`,
        actual: `${attemptsA.length} attempts: ${attemptsA.map((r) => `#${r.seq} -> ${r.answeredStatus}`).join(', ')}`,
      });
      const logA = await deliveriesTo(urlA);
      const logB = await deliveriesTo(urlB, 'tenantB');
      verify.on('6/a-no-retry').soft.that('the deliveries log shows one attempt for the 500-answered event', logA.length >= 1 && logA.every((d) => d.attempts.length === 1), {
        expected: 'each delivery to the failing URL: 1 attempt',
        actual: logA.map((d) => `${d.type} (${d.model}): ${d.attempts.length} attempts, ${d.state}`).join('; ') || 'no delivery logged',
      });
      verify.on('6/a-no-retry').soft.that('the deliveries log shows one attempt for the event sent to a down endpoint', logB.length >= 1 && logB.every((d) => d.attempts.length === 1), {
        expected: 'each delivery to the down URL: 1 attempt',
        actual: logB.map((d) => `${d.type} (${d.model}): ${d.attempts.length} attempts, ${d.state}`).join('; ') || 'no delivery logged',
      });
      verify.on('6/a-no-retry').inform('the lost deliveries are logged as failed', [...logA, ...logB].every((d) => d.state === 'failed'), [...logA, ...logB].map((d) => d.state).join(', '));

      // §6: calls missed by a webhook remain readable through the calls API.
      await control.endCall(callB.id, { supervisorAnswered: false });
      const read = await w.as('tenantB').get(`/calls/${callB.id}`);
      verify.on('6/missed-calls-readable').success(read, 200, 'the call whose events were lost is readable with GET /calls/{id}');
      await control.endCall(callA.id, {});
    },
    NEEDS,
  );

  clauseTest(
    '6/a-empty-2xx',
    'an empty 2xx answer to assistant-request is safe: the call proceeds to its end-of-call report',
    async ({ verify }) => {
      const { a, seen: path } = await hookedAssistant('a-empty', '/a-empty');
      rx.route(path, (_r, n) => (n === 0 ? 204 : 200));
      const call = await beginCall(a.id);
      const [req] = await arrival('6/a-empty-2xx', 'assistant-request arrives', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
      const live = await world().as('tenantA').get('/calls/live');
      verify.success(live, 200, 'GET /calls/live answers');
      const rows = JSON.stringify(live.json?.data ?? null);
      verify.that('the call is live after an empty 2xx to its assistant-request', rows.includes(call.id), {
        expected: `a row for call ${call.id}`,
        actual: rows.length > 300 ? `${rows.slice(0, 300)}…` : rows,
        res: live,
      });
      await finishCall(call);
      await arrival('6/a-empty-2xx', 'the call reaches its end-of-call report', (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq));
    },
    REACH,
  );

  clauseTest(
    '6/a-overrides-accepted',
    'an assistant-request answered with per-call overrides is accepted and the call proceeds',
    async ({ verify }) => {
      const { a, seen: path } = await hookedAssistant('a-overrides', '/a-overrides');
      // Keys §6 names; values are not shown, so harmless ones are chosen.
      rx.route(path, (_r, n) => (n === 0 ? { status: 200, body: { overrides: { maxSessionDuration: 600, model: { settings: { temperature: 0.2 } } } } } : 200));
      const call = await beginCall(a.id);
      const [req] = await arrival('6/a-overrides-accepted', 'assistant-request arrives', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
      if (control) {
        const log = (await control.deliveries(world().tenantA.id)).filter((d) => d.url === hook('/a-overrides').url);
        const first = log.find((d) => d.attempts.length > 0);
        verify.inform('the deliveries log marks the answered assistant-request delivered', first?.state === 'delivered', `state ${first?.state}`);
      }
      const live = await world().as('tenantA').get('/calls/live');
      verify.that('the call is live after overrides were answered', live.status === 200 && JSON.stringify(live.json?.data ?? null).includes(call.id), {
        expected: `GET /calls/live lists call ${call.id}`,
        actual: `${live.status}`,
        res: live,
      });
      await finishCall(call);
      await arrival('6/a-overrides-accepted', 'the call reaches its end-of-call report', (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq));
    },
    REACH,
  );

  clauseTest(
    ['6/tool-invocation-event', '6/voice-call-id'],
    "a tool invocation in a call delivers a model A event carrying the call's call_id",
    async (ctx) => {
      const path = '/t/a-tool';
      await tenantUrl(path);
      // The POST /tools request body is not shown (§4.5); this one uses the named fields only.
      const tool = await world().as('tenantA').post('/tools', {
        name: `${world().runPrefix}webhooks-tool`,
        instruction: { title: 'Order lookup', description: 'Look up an order by its number.', steps: [{ title: 'Ask', description: 'Ask for the order number.' }] },
      });
      const toolId = tool.json?.data?.id;
      if (tool.status >= 300 || typeof toolId !== 'string') skipWith(ctx, `fixture: POST /tools answered ${tool.status}; its request body is not shown (§4.5), so no tool could be made`);
      const a = await assistant('a-tool', { toolIds: [toolId] });
      const call = await startCall(a.id, testNumber());
      const [start] = await arrival('6/voice-call-id', 'assistant-request arrives', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
      await control.toolInvocation({ callId: call.id, toolId });
      const [ev] = await arrival('6/tool-invocation-event', 'the tool invocation event arrives for the call', (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > start.seq));
      checkPostJson(ev, 'tool invocation');
      checkModelA(ev, 'tool invocation');
      checkType(ev, 'tool invocation');
      ctx.verify.schema('the tool invocation carries type and call_id', 'events/tool-invocation', jsonOf(ev));
      ctx.verify.on('6/tool-invocation-event').inform('the event names the tool', JSON.stringify(jsonOf(ev)).includes(toolId), `type ${JSON.stringify(typeOf(ev))}`);
      await control.endCall(call.id, {});
    },
    NEEDS,
  );

  clauseTest(
    ['6/messaging-fields', '6/a-secret-header', '6/type-field'],
    'messaging events carry conversation_id, channel and customer_identifier, under model A',
    async (ctx) => {
      needSecret(ctx);
      const { a, seen: path } = await hookedAssistant('a-messaging', '/a-messaging');
      for (const channel of ['web', 'sms'] as const) {
        const conv = await events!.startConversation(world().tenantA.id, a.id, channel);
        const customerIdentifier = conv.customerIdentifier;
        const about = (r: ReceivedRequest) => jsonOf(r)?.conversation_id === conv.id;
        const [start] = await arrival('6/messaging-fields', `the ${channel} conversation's assistant-request arrives carrying its conversation_id`, (all) => all.filter((r) => r.path === path && about(r)));
        checkPostJson(start, `${channel} assistant-request`);
        checkModelA(start, `${channel} assistant-request`);
        checkType(start, `${channel} assistant-request`);
        ctx.verify.on('6/messaging-fields').schema(`${channel} assistant-request carries conversation_id, channel, customer_identifier`, 'events/assistant-request.messaging', jsonOf(start));
        if (customerIdentifier) ctx.verify.on('6/messaging-fields').inform(`customer_identifier is the one the conversation started with (${channel})`, jsonOf(start)?.customer_identifier === customerIdentifier, `customer_identifier ${JSON.stringify(jsonOf(start)?.customer_identifier)}`);
        ctx.verify.on('6/messaging-fields').inform(`channel names the ${channel} channel`, String(jsonOf(start)?.channel).toLowerCase().includes(channel), `channel ${JSON.stringify(jsonOf(start)?.channel)}`);
        await events!.endConversation(world().tenantA.id, conv.id);
        const [end] = await arrival('6/messaging-fields', `the ${channel} conversation's end-of-conversation report arrives`, (all) => all.filter((r) => r.path === path && about(r) && r.seq > start.seq));
        checkModelA(end, `${channel} end-of-conversation-report`);
        checkType(end, `${channel} end-of-conversation-report`);
        ctx.verify.on('6/messaging-fields').schema(`${channel} end-of-conversation-report carries the messaging fields`, 'events/end-of-conversation-report', jsonOf(end));
      }
    },
    REACH,
  );
});

// ---------------------------------------------------------------------------------------------

const ONBOARDING_TYPES = ['chatapp.onboarding.tier_pending', 'chatapp.onboarding.completed', 'chatapp.onboarding.failed', 'chatapp.calling.live'];

describe.concurrent('model B: HMAC signature', () => {
  clauseTest(
    ['6/b-signature', '6/b-delivery-id-uuid', '6/b-raw-bytes', '6/onboarding-events', '6/events-post-json', '6/type-field'],
    'onboarding events are signed over the raw bytes with the client server secret and carry a UUID delivery id',
    async (ctx) => {
      needSecret(ctx);
      const { deliverTo, seen: path } = await onboardingTo('/b-signed');
      const secret = world().tenantA.clientServerSecret!;
      for (const type of ONBOARDING_TYPES) await events!.onboarding(world().tenantA.id, type, deliverTo);
      const got = await arrival('6/onboarding-events', 'all four onboarding events arrive', () => {
        const mine = onboardingAt(path);
        return ONBOARDING_TYPES.every((t) => mine.some((r) => typeOf(r) === t)) && mine;
      });
      const ids = new Set<string>();
      for (const type of ONBOARDING_TYPES) {
        const r = got.find((x) => typeOf(x) === type)!;
        continueOnFailure(() => checkPostJson(r, type));
        continueOnFailure(() => checkType(r, type));
        ctx.verify.on('6/onboarding-events').soft.schema(`${type} body`, 'events/chatapp-onboarding', jsonOf(r));
        const sig = getHeader(r.headers, HEADER_SIGNATURE);
        const v = verifyModelB(r.body, r.headers, secret);
        ctx.verify.on(['6/b-signature', '6/delivery-model-per-event']).soft.that(`${type} (model B): X-Service-Signature is sha256=<hex> HMAC-SHA256 of the raw body keyed by the client server secret`, v.ok, {
          expected: 'sha256= followed by the 64-digit hex HMAC of the bytes received',
          actual: v.ok ? 'verified' : `${v.reason}: ${v.message} (header starts ${JSON.stringify(sig?.slice(0, 14) ?? null)})`,
        });
        const upper = !!sig && /[A-F]/.test(sig.slice(7));
        ctx.verify.on('6/b-signature').inform(`${type}: the hex digest is lower case`, !upper, upper ? 'upper-case hex digits: accepted (hex case carries no meaning), but receivers comparing strings literally would refuse them' : 'lower-case hex digits');
        const id = deliveryIdOf(r.headers);
        ctx.verify.on('6/b-delivery-id-uuid').soft.that(`${type}: X-Service-Delivery is a UUID`, !!id && UUID_PATTERN.test(id), { expected: 'a UUID', actual: id ?? '(absent)' });
        if (id) ids.add(id);
        // Re-serialising or reformatting the body must invalidate the signature (rule 2).
        const parsed = JSON.parse(r.body.toString('utf8'));
        for (const [how, text] of [['re-serialised', JSON.stringify(parsed)], ['reformatted', JSON.stringify(parsed, null, 2)]] as const) {
          const changed = Buffer.from(text, 'utf8');
          if (changed.equals(r.body)) {
            ctx.verify.on('6/b-raw-bytes').inform(`${type}: the ${how} body differs from the bytes sent`, false, `the body was sent exactly as JSON.stringify writes it, so ${how} bytes are identical and prove nothing`);
            continue;
          }
          const again = verifyModelB(changed, r.headers, secret);
          ctx.verify.on('6/b-raw-bytes').soft.that(`${type}: the signature does not verify once the body is ${how} (it covers the raw bytes only)`, !again.ok, {
            expected: 'mismatch',
            actual: 'the signature verified over the changed bytes: it was computed over a re-serialised body, not the bytes sent',
          });
        }
      }
      ctx.verify.on('6/b-dedupe').soft.that('distinct events carry distinct delivery ids (otherwise deduplication would drop events)', ids.size === ONBOARDING_TYPES.length, {
        expected: `${ONBOARDING_TYPES.length} distinct ids`,
        actual: `${ids.size}`,
      });
    },
    REACH,
  );

  clauseTest(
    ['6/b-dedupe', '6/b-retry-on-failure'],
    'a receiver that deduplicates on the delivery id processes a retried event once',
    async ({ verify }) => {
      const { deliverTo, seen: path } = await onboardingTo('/b-dedupe');
      const dedupe = new Deduper();
      let processed = 0;
      // The integrator's handler: claim the id, process; it fails (500) on the first two tries after
      // processing, as a crash after the work would. (A real receiver verifies first; signatures are
      // proved by the other model B tests, so a signing fault does not blur this verdict.)
      let n = 0;
      rx.route(path, (r) => {
        if (!isOnboarding(r)) return 200;
        const id = deliveryIdOf(r.headers);
        if (id && dedupe.claim(id) === 'process') processed += 1;
        return n++ < 2 ? 500 : 200;
      });
      await events!.onboarding(world().tenantA.id, 'chatapp.onboarding.tier_pending', deliverTo);
      const got = await arrival('6/b-retry-on-failure', 'the event is retried after two 500 answers', () => {
        const mine = onboardingAt(path);
        return mine.length >= 3 && mine;
      }, { timeoutMs: retryWaitMs(3) });
      verify.on('6/b-retry-on-failure').that('two 500 answers were each followed by a retry', got.length >= 3 && got[0].answeredStatus === 500 && got[1].answeredStatus === 500, {
        expected: '500, 500, then a third attempt',
        actual: got.map((r) => `#${r.seq} -> ${r.answeredStatus}`).join(', '),
      });
      verify.on('6/b-dedupe').soft.that('the event was processed exactly once over all attempts', processed === 1, {
        expected: 1,
        actual: `${processed} times over ${got.length} attempts with delivery ids ${got.map((r) => deliveryIdOf(r.headers)).join(', ')}`,
      });
    },
    RETRIES,
  );

  clauseTest(
    '6/b-retry-on-failure',
    'a model B attempt that times out is retried with the same delivery id',
    async ({ verify }) => {
      const path = '/t/b-timeout';
      await tenantUrl(path);
      // Hold the first attempt well past the target's attempt timeout, then answer 200 to the rest.
      rx.route(path, (_r, n) => (n === 0 ? { hang: true, holdMs: timeoutMs + 1_500 } : 200));
      await control.onboardingEvent({ tenantId: world().tenantA.id, type: 'chatapp.onboarding.failed' });
      const got = await arrival('6/b-retry-on-failure', 'a second attempt follows the unanswered first one', (all) => {
        const mine = all.filter((r) => r.path === path);
        return mine.length >= 2 && mine;
      }, { timeoutMs: timeoutMs + retryScheduleMs(retryBaseMs, 2) + ARRIVAL_MS });
      verify.that('the unanswered first attempt was followed by a retry', got.length >= 2 && got[0].answeredStatus === undefined, {
        expected: 'attempt 1 unanswered (held past the timeout), then attempt 2',
        actual: got.map((r) => `#${r.seq} -> ${r.answeredStatus ?? 'held'}`).join(', '),
      });
      verify.on('6/b-same-delivery-id').that('the retry after a timeout reuses the delivery id', deliveryIdOf(got[0].headers) === deliveryIdOf(got[1].headers), {
        expected: deliveryIdOf(got[0].headers),
        actual: deliveryIdOf(got[1].headers),
      });
    },
    { ...NEEDS, timeout: 20_000 },
  );

  clauseTest(
    ['6/b-retry-every-non-2xx', '6/b-same-delivery-id'],
    'every non-2xx answer (400, 401, 404, 409, 429, 503) and a refused connection are retried, with the same delivery id',
    async ({ verify }) => {
      const w = world();
      const { deliverTo, seen: path } = await onboardingTo('/b-every-non-2xx');
      // The first attempt of each event is answered with its own status, every later one with 200.
      const STATUSES = [400, 401, 404, 409, 429, 503];
      const statusOf = new Map<string, number>();
      rx.route(path, (r) => {
        if (!isOnboarding(r)) return 200;
        const id = deliveryIdOf(r.headers) ?? '';
        if (statusOf.has(id)) return 200;
        statusOf.set(id, STATUSES[statusOf.size] ?? 200);
        return statusOf.get(id)!;
      });
      // On a simulator, tenant B's URL is a port nothing listens on: a refused connection, seen in the
      // deliveries log (a live target's log is not readable, so there only the statuses are proved).
      const down = control ? await downEndpoint() : undefined;
      const downUrl = down && `${down.origin}/t/b-refused`;
      if (control) await control.tenantServerUrl(w.tenantB.id, downUrl!);
      for (let i = 0; i < STATUSES.length; i++) await events!.onboarding(w.tenantA.id, 'chatapp.onboarding.tier_pending', deliverTo);
      const refused = control ? await control.onboardingEvent({ tenantId: w.tenantB.id, type: 'chatapp.onboarding.tier_pending' }) : undefined;
      const got = await arrival('6/b-retry-every-non-2xx', 'each event is attempted again after its non-2xx answer', () => {
        const mine = onboardingAt(path);
        const byId = new Map<string, number>();
        for (const r of mine) byId.set(deliveryIdOf(r.headers) ?? '', (byId.get(deliveryIdOf(r.headers) ?? '') ?? 0) + 1);
        return byId.size >= STATUSES.length && [...byId.values()].every((n) => n >= 2) && mine;
      }, { timeoutMs: retryWaitMs(2) });
      for (const [id, status] of statusOf) {
        if (status === 200) continue;
        const attempts = got.filter((r) => deliveryIdOf(r.headers) === id);
        verify.soft.that(`after a ${status} answer the event is sent again with the same delivery id`, attempts.length >= 2, {
          expected: `2 or more attempts with delivery id ${id}`,
          actual: `${attempts.length} attempt(s): ${attempts.map((r) => `#${r.seq} -> ${r.answeredStatus}`).join(', ')}`,
        });
      }
      if (!control || !down || !refused) return;
      const refusing = await isRefusing(down.port);
      if (!refusing) verify.on('6/b-retry-every-non-2xx').inform('the down endpoint really refuses connections (precondition)', false, 'something answers on that port');
      let log: ControlDelivery[] = [];
      await vi
        .waitFor(async () => {
          log = await deliveriesTo(downUrl!, 'tenantB');
          if (!log.some((d) => d.deliveryId === refused.deliveryId && d.attempts.length >= 2)) throw new Error('no second attempt yet');
        }, { timeout: retryScheduleMs(retryBaseMs, 2) + ARRIVAL_MS, interval: 50 })
        .catch(() => undefined);
      const entry = log.find((d) => d.deliveryId === refused.deliveryId);
      verify.on('6/b-retry-every-non-2xx').soft.that('an event whose connection is refused is attempted again (deliveries log)', !!entry && entry.attempts.length >= 2, {
        expected: '2 or more attempts of the refused delivery',
        actual: entry ? `${entry.attempts.length} attempt(s), ${entry.state}` : 'no delivery logged',
      });
      await control.tenantServerUrl(w.tenantB.id, null);
    },
    RETRIES,
  );

  clauseTest(
    ['6/a-no-retry', '6/missed-calls-readable'],
    'a model A event answered 4xx (429 included) is not retried; the call whose events were lost stays readable',
    async ({ verify }) => {
      const { a, seen: path } = await hookedAssistant('a-429', '/a-4xx');
      rx.route(path, () => 429);
      const call = await beginCall(a.id);
      await arrival('6/a-no-retry', 'the first attempt reaches the receiver', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
      // Longer than a whole model B retry schedule of the target (a live target's is not known: a fixed quiet window).
      const window = control ? retryScheduleMs(retryBaseMs) + 250 : LIVE_QUIET_MS;
      const more = await rx.holdsOff((all) => all.filter((r) => r.path === path && aboutCall(r, call)).length > 1, window);
      verify.that('after a 429 answer the model A event is not retried', !more.violated, {
        expected: `1 attempt within ${window} ms`,
        actual: `${rx.at(path).filter((r) => aboutCall(r, call)).length} attempts`,
      });
      await finishCall(call);
      // §6: calls missed by a webhook remain readable through the calls API.
      verify.on('6/missed-calls-readable').success(await world().as('tenantA').get(`/calls/${call.id}`), 200, 'the call whose events were all answered 429 is readable with GET /calls/{id}');
    },
    REACH,
  );

  clauseTest(
    '6/b-host-independent',
    'the signature verifies when the delivery reaches the receiver through another host name (a tunnel)',
    async (ctx) => {
      needSecret(ctx);
      // A simulator routes this file's tunnel host name to the receiver; a live target reaches it through the operator's real tunnel.
      let deliverTo: string;
      let path: string;
      if (control) {
        path = '/t/b-tunnel';
        deliverTo = `https://${hosts.tunnel}${path}`;
        await ensureConnectTo(control, connectTo);
        await control.tenantServerUrl(world().tenantA.id, deliverTo);
      } else ({ url: deliverTo, seen: path } = hook('/b-tunnel'));
      await events!.onboarding(world().tenantA.id, 'chatapp.calling.live', deliverTo);
      const [r] = await arrival('6/b-host-independent', 'the event arrives through the tunnel host', () => onboardingAt(path));
      const v = verifyModelB(r.body, r.headers, world().tenantA.clientServerSecret!);
      ctx.verify.that('the signature verifies on a receiver whose own address differs from the URL the sender used', v.ok, {
        expected: 'verified',
        actual: v.ok ? 'verified' : `${v.reason}: ${v.message}`,
      });
    },
    REACH,
  );
});

// ---------------------------------------------------------------------------------------------

describe.concurrent('routing (§6, §2.3 rules 3–5, §1)', () => {
  clauseTest(
    '2.3/patch-no-test-request',
    'a PATCH that sets serverUrl validates it and sends no test request to it',
    async ({ verify }) => {
      const { url, seen } = hook('/r-no-test-request');
      if (control) await ensureConnectTo(control, connectTo);
      const a = await assistant('no-test-request');
      await setServerUrl(a.id, url);
      // A test request would follow the PATCH at once; a live target's path through the tunnel is slower.
      const window = hasCapability('control') ? 250 : 2_000;
      const probe = await rx.holdsOff(() => rx.at(seen).length > 0, window);
      verify.that('setting serverUrl sends no request to it', !probe.violated, {
        expected: `no request at ${seen} within ${window} ms of the PATCH`,
        actual: probe.violated ? rx.at(seen).map(describeRequest).join('; ') : 'none',
      });
    },
    { requires: ['receiver'] },
  );

  clauseTest(
    ['6/route-server-url', '2.3/path-kept'],
    "with serverUrl set, events go to that URL (path kept) and not to the tenant-level URL",
    async ({ verify }) => {
      const tenantPath = '/t/r-set';
      const path = '/integrations/core-api/r-set';
      const a = await routedAssistant('r-set', tenantPath, `https://${hosts.hooks}${path}`);
      const call = await startCall(a.id, testNumber());
      const [req] = await arrival(['6/route-server-url', '2.3/path-kept'], "assistant-request goes to the assistant's serverUrl, path kept", (all) => all.filter((r) => r.path === path && aboutCall(r, call)), {
        expected: `a POST to ${path} on the serverUrl host`,
        wrong: (all) => {
          const elsewhere = all.find((r) => r.path !== path && aboutCall(r, call));
          return elsewhere && `delivered to ${elsewhere.path}${elsewhere.path === tenantPath ? ' (the tenant-level URL)' : ''}`;
        },
      });
      checkModelA(req, 'assistant-request via serverUrl');
      await control.endCall(call.id, {});
      await arrival('6/route-server-url', "the end-of-call report goes to the assistant's serverUrl", (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq));
      const toTenant = await deliveriesTo(rx.url(tenantPath));
      verify.on('6/route-server-url').that('no delivery of this call went to the tenant-level URL', rx.at(tenantPath).filter((r) => aboutCall(r, call)).length === 0 && toTenant.length === 0, {
        expected: 'none',
        actual: `${toTenant.length} logged deliveries to the tenant-level URL`,
      });
    },
    NEEDS,
  );

  clauseTest(
    '1/call-keeps-server-url',
    'a call keeps the serverUrl it began with: changing it mid-call does not move that call’s end-of-call report',
    async ({ verify }) => {
      const before = hook('/r-keep/before');
      const after = hook('/r-keep/after');
      const { a } = await hookedAssistant('r-keep', '/r-keep/before');
      const first = await beginCall(a.id);
      const [start1] = await arrival('6/route-server-url', 'the first call’s assistant-request reaches the serverUrl', (all) => all.filter((r) => r.path === before.seen && aboutCall(r, first)), {
        wrong: (all) => (all.some((r) => r.path !== before.seen && aboutCall(r, first)) ? 'delivered elsewhere than the serverUrl' : undefined),
      });
      await setServerUrl(a.id, after.url);
      await finishCall(first);
      const [eoc] = await arrival('1/call-keeps-server-url', 'the first call’s end-of-call report arrives', (all) =>
        all.filter((r) => (r.path === before.seen || r.path === after.seen) && aboutCall(r, first) && r.seq > start1.seq));
      verify.that('the end-of-call report of a call in progress goes to the serverUrl the call began with', eoc.path === before.seen, {
        expected: before.seen,
        actual: eoc.path,
      });
      // A call started after the change must use the new URL: proves the change took effect (one call at a time, as a single test line allows).
      const second = await beginCall(a.id);
      await arrival('6/route-server-url', 'a call started after the change delivers to the new URL', (all) => all.filter((r) => r.path === after.seen && aboutCall(r, second)));
      await finishCall(second);
    },
    REACH,
  );

  clauseTest(
    ['2.3/unset-tenant-url', '6/route-tenant-url'],
    'after serverUrl is set to null, events go to the tenant-level URL',
    async () => {
      const tenantPath = '/t/r-null';
      const path = '/r-null/assistant';
      const a = await routedAssistant('r-null', tenantPath, `https://${hosts.hooks}${path}`);
      await setServerUrl(a.id, null);
      const call = await startCall(a.id, testNumber());
      await arrival(['2.3/unset-tenant-url', '6/route-tenant-url'], 'assistant-request reaches the tenant-level URL', (all) => all.filter((r) => r.path === tenantPath && aboutCall(r, call)), {
        expected: tenantPath,
        wrong: (all) => (all.some((r) => r.path === path && aboutCall(r, call)) ? `delivered to the cleared serverUrl (${path})` : undefined),
      });
      await control.endCall(call.id, {});
    },
    NEEDS,
  );

  clauseTest(
    '2.3/bare-host-root',
    'a serverUrl that is a bare hostname delivers to /',
    async ({ verify }) => {
      // A simulator routes this file's bare host name to the receiver; a live target's public URL's
      // host is bare once its path is dropped, and a tunnel forwards every path, `/` included.
      const bare = control ? hosts.bare : new URL(hookBase).host;
      if (control) await ensureConnectTo(control, connectTo);
      const a = await assistant('r-bare');
      await setServerUrl(a.id, `https://${bare}`);
      const call = await beginCall(a.id);
      const [req] = await arrival('2.3/bare-host-root', 'assistant-request arrives for the call', (all) => all.filter((r) => aboutCall(r, call)));
      verify.inform('the request came through the bare host name', String(req.headers.host ?? '').startsWith(bare), `host header ${JSON.stringify(req.headers.host)}`);
      verify.that('the request path is /', req.path === '/', { expected: '/', actual: req.path });
      await finishCall(call);
    },
    REACH,
  );
});

/**
 * The retry schedule is judged by the gaps between attempts, so this test runs on its own within
 * the file (the other webhook tests, concurrent, would add their deliveries to the same moments).
 */
describe('model B: retry schedule', () => {
  clauseTest(
    ['6/b-retry-count', '6/b-backoff-exponential', '6/b-same-delivery-id', '6/b-dedupe', '6/b-same-bytes', '6/b-signature'],
    'after non-2xx answers a model B event is retried 5 times with exponential backoff, same delivery id, same event',
    async (ctx) => {
      needSecret(ctx);
      const { deliverTo, seen: path } = await onboardingTo('/b-retry');
      rx.route(path, () => 500);
      const secret = world().tenantA.clientServerSecret!;
      const { deliveryId } = await events!.onboarding(world().tenantA.id, 'chatapp.onboarding.completed', deliverTo);
      await arrival('6/b-retry-count', 'the first attempt arrives', () => onboardingAt(path));
      // Follow the attempts until none comes within the window the next exponential step needs.
      let seen = onboardingAt(path);
      for (;;) {
        const n = seen.length;
        if (n >= 8) break; // 7 retries already: too many, no need to wait for the rest
        const lastGap = n >= 2 ? seen[n - 1].arrivedAtMs - seen[n - 2].arrivedAtMs : 0;
        // The first retry's delay is read from a simulator's config; a live target's is not known, so it is waited for generously.
        const window = n < 2 && !control ? LIVE_RETRY_WAIT_MS : nextRetryWindowMs(lastGap, control ? retryBaseMs : 0);
        const more = await rx.holdsOff(() => onboardingAt(path).length > n, window);
        seen = onboardingAt(path);
        if (!more.violated) break;
      }
      const attempts = seen;
      const reading = retryReading(attempts.length);
      ctx.verify.on('6/b-retry-count').soft.that('a failing model B delivery is retried up to 5 times (5 or 6 attempts in all, never fewer or more)', reading === 'five-retries' || reading === 'five-attempts', {
        expected: '6 attempts (1 + 5 retries) or 5 attempts in all (§8 "5 attempts")',
        actual: `${attempts.length} attempts${attempts.length >= 8 ? ' or more' : ''} (${attempts.length - 1} retries)`,
      });
      ctx.verify.on('6/b-retry-count').inform('reading of "up to 5 retries" the target takes', true, reading === 'five-retries' ? '1 + 5 retries (6 attempts)' : '5 attempts in all (1 + 4 retries, §8 limit table)');

      const ids = attempts.map((r) => deliveryIdOf(r.headers));
      ctx.verify.on('6/b-same-delivery-id').soft.that('every retry reuses the delivery id of the first attempt', ids.every((id) => id && id === ids[0]), {
        expected: `all ${ids[0]}`,
        actual: ids.join(', '),
      });
      if (deliveryId) ctx.verify.on('6/b-same-delivery-id').inform(`the delivery id is the one the ${events!.source} returned`, ids[0] === deliveryId, `header ${ids[0]}, ${events!.source} ${deliveryId}`);
      const first = jsonOf(attempts[0]);
      ctx.verify.on('6/b-dedupe').soft.that('every attempt carries the same event (same parsed body), so deduplicating on the id loses nothing', attempts.every((r) => isDeepStrictEqual(jsonOf(r), first)), {
        expected: 'equal JSON bodies',
        actual: attempts.map((r) => `#${r.seq}: ${r.body.length} bytes`).join(', '),
      });
      ctx.verify.on('6/b-same-bytes').inform('retries are byte-identical to the first attempt', attempts.every((r) => r.body.equals(attempts[0].body)), attempts.map((r) => `${r.body.length} bytes`).join(', '));

      const backoff = analyseBackoff(attempts.map((r) => r.arrivedAtMs));
      const gaps = backoff.gapsMs.map((g) => g.toFixed(0)).join(', ');
      const ratioText = backoff.ratios.map((r) => r.toFixed(2)).join(', ');
      ctx.verify.on('6/b-backoff-exponential').soft.that('each retry comes later than the one before, the waits growing about geometrically', attempts.length < 4 || backoff.exponential, {
        expected: `median growth ≥ 1.4× per retry (the larger of two), and at most one wait growing less than 1.3× with 10 ms slack (first retry delay configured: ${retryBaseMs} ms)`,
        actual: `waits ${gaps} ms; ${backoff.problems.join('; ')}`,
      });
      ctx.verify.on('6/b-backoff-exponential').inform('measured retry waits (ms) and growth', true, `waits ${gaps}; ratios ${ratioText}`);

      // Last, so that a signing fault (proved by the signature test) does not hide the retry verdicts.
      attempts.forEach((r, i) => {
        const v = verifyModelB(r.body, r.headers, secret);
        ctx.verify.on('6/b-signature').soft.that(`attempt ${i + 1}: the signature verifies over its raw body`, v.ok, { expected: 'verified', actual: v.ok ? 'verified' : `${v.reason}: ${v.message}` });
      });
      if (control) {
        const log = (await control.deliveries(world().tenantA.id)).find((d) => d.deliveryId === deliveryId);
        ctx.verify.on('6/b-retry-count').inform('the deliveries log agrees with the receiver', log?.attempts.length === attempts.length && log?.url === deliverTo, `log: ${log ? `${log.attempts.length} attempts, ${log.state}` : 'no entry'}; receiver: ${attempts.length}`);
      }
    },
    RETRIES,
  );
});
