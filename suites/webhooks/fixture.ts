/**
 * What the webhook suite (suites/webhooks.test.ts, §6 events; its tests by concern in
 * suites/webhooks/) stands on: a receiver the target reaches, events made to happen, and a fresh
 * organization per test. The test file calls {@link useWebhookFixture} once and hands the fixture
 * to each concern: one receiver per run, because on a live tenant the public URL's tunnel forwards
 * to one port (`CORE_API_WEBHOOK_PORT`), which one listener alone can hold.
 *
 * Events are made to happen through helpers/target/events.ts: the control API on a simulator, the
 * operator's trigger (`CORE_API_EVENT_TRIGGER`, docs/event-trigger.md) on a live tenant. Tests that
 * `requires: ['receiver', 'events']` ({@link REACH}, {@link RETRIES}) run on every target; on a
 * live tenant the receiver is reached through `CORE_API_WEBHOOK_PUBLIC_URL`, an https URL a tunnel
 * forwards (path kept) to the file's receiver on `CORE_API_WEBHOOK_PORT`, and the assistants
 * pointed at it are live fixtures, restored afterwards. Tests that need what only a control API
 * gives (a tenant-level URL per test, a down endpoint, the deliveries log, tool invocations)
 * `requires: ['control']` ({@link NEEDS}).
 *
 * Deliveries are observed by the receiver (helpers/webhooks/receiver.ts) and, on a simulator, the
 * control deliveries log, and judged by the named checks of helpers/webhooks/verifiers.ts; signatures
 * are checked with the very module integrators are given (helpers/webhooks/verify.ts). Retry
 * timing is judged by ratios between gaps (helpers/webhooks/timing.ts), never by absolute times;
 * every "nothing more arrives" wait is bounded and outlasts the retry schedule of the run config
 * read from a simulator (on a live tenant, whose schedule is not known, fixed generous windows).
 *
 * Isolation: on a simulator every test has its own organization and tenants (usePerTestWorld,
 * helpers/world/world.ts), so the tests run concurrently although each sets a tenant-level URL; on a
 * live tenant they share tenant A, and each test has assistants of its own. Receiver paths are
 * unique to each test, and the only run-wide config written is `webhookConnectTo` keys for the
 * file's own host names (helpers/webhooks/connect-to.ts).
 */
import { afterAll, beforeAll } from 'vitest';
import { usePerTestWorld, useWorld, type World } from '../../helpers/world/world';
import { skipWith, type Checks } from '../../helpers/checks/clause';
import { assistantFixture } from '../../helpers/world/fixtures';
import { eventsFor, type Events, type StartedCall } from '../../helpers/target/events';
import { capabilityReason, capabilitySwitch, getTarget, hasCapability } from '../../helpers/target/target';
import { RUN_CONFIG } from '../../helpers/run/global-setup';
import type { ControlClient, ControlDelivery } from '../../helpers/target/control';
import { WebhookReceiver, jsonOf, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import { verifyArrival, type ArrivalOptions } from '../../helpers/webhooks/watch';
import { retryScheduleMs } from '../../helpers/webhooks/timing';
import { followRetries } from '../../helpers/webhooks/waits';
import { ensureConnectTo, routeHostTo } from '../../helpers/webhooks/connect-to';

/** Options of a test that needs the control API. */
export const NEEDS = { requires: ['control' as const] };
/**
 * What a test needs to run on every target: a receiver the target reaches, and events made to
 * happen. Its timeout allows for a live target, where each event is a real call or message placed
 * by the operator's trigger and delivered through a tunnel.
 */
export const REACH = { requires: ['receiver' as const, 'events' as const], timeout: 120_000 };
/** How long a live target's silence counts as "no retry", ms: its retry schedule is not known to the suite. */
export const LIVE_QUIET_MS = 5_000;
/**
 * Longest wait for an expected model B retry on a live tenant, ms: its schedule is not known, so
 * the wait is generous (it ends as soon as the retry arrives), and so are those tests' timeouts.
 */
export const LIVE_RETRY_WAIT_MS = 300_000;
/**
 * How long the receiver holds a live target's model B attempt before answering 200, ms, to make it
 * time out: the attempt timeout is not shown (§6, "a response-time budget: not shown"), so the hold
 * outlasts any plausible one (a target that waits it out gets the 200, and the test skips saying so).
 */
export const LIVE_SLOW_ANSWER_MS = 120_000;
/** Options of a model B retry test that runs on every target. */
export const RETRIES = { requires: ['receiver' as const, 'events' as const], timeout: 2 * LIVE_RETRY_WAIT_MS + 60_000 };

/** Whether a received request is about the call (its `call_id` is the call's id or its `callId`, §4.5). */
export function aboutCall(r: ReceivedRequest, call: { id: string; callId?: string }): boolean {
  const b = jsonOf(r);
  return !!b && b.call_id !== undefined && (b.call_id === call.id || b.call_id === call.callId);
}

/** The `type` of a received body (§6), or undefined when it is not JSON. */
export function typeOf(r: ReceivedRequest): unknown {
  return jsonOf(r)?.type;
}

/**
 * Whether a received request is an onboarding event (a `chatapp.*` type, §6). Onboarding events go
 * to the tenant-level URL, which on a live tenant stays where the last one was sent; events of
 * other files' calls without a serverUrl may then arrive at the same path, so onboarding tests
 * count only these.
 */
export function isOnboarding(r: ReceivedRequest): boolean {
  const t = typeOf(r);
  return typeof t === 'string' && t.startsWith('chatapp.');
}

let numberSeq = 0;
/** A distinct E.164 test number per use (555-01xx range). */
export function testNumber(): string {
  numberSeq += 1;
  return `+1555010${String(1000 + numberSeq).slice(-4)}`;
}

/** A tenant of the test's world that events are delivered for. */
type TenantName = 'tenantA' | 'tenantB';

/**
 * One webhook suite file's fixture. Its state (the receiver, control API, event source, timings) is set before the file's first
 * test (beforeAll), so read it through the object, never copy it at the file's top.
 */
export interface WebhookFixture {
  /** The running test's world: its own organization and tenants on a simulator, the file's on a live tenant. */
  world: () => World;
  /** The file's receiver. */
  readonly rx: WebhookReceiver;
  /**
   * The steps only a control API can take (a simulator): skips the running test, with the
   * `control` capability's reason, on a target without one. A test that `requires: ['control']`
   * ({@link NEEDS}) never skips here; the typed result is what lets it take those steps.
   * @returns the control steps of the running test's world
   */
  withControl(ctx: SkipContext): ControlSteps;
  /**
   * The control steps when the target has a control API (a simulator), else undefined: for a test
   * that runs on every target and adds a step where it can. The type makes the caller narrow.
   */
  ifControl(): ControlSteps | undefined;
  /**
   * The events interface (helpers/target/events.ts: the control API on a simulator, the operator's trigger
   * on a live tenant): skips the running test, with the `events` capability's reason, on a live
   * tenant without a trigger or a public URL. A test that `requires: ['events']` never skips here.
   */
  needEvents(ctx: SkipContext): Events;
  /** How long an expected delivery may take to arrive, ms: generous on a simulator (shared CPUs), more so on a live tenant. */
  readonly arrivalMs: number;
  /** Model B retry base delay of the target, ms (read from a simulator, else RUN_CONFIG). */
  readonly retryBaseMs: number;
  /** Delivery attempt timeout of the target, ms (read from a simulator, else RUN_CONFIG). */
  readonly timeoutMs: number;
  /** The file's public host names (a simulator routes them to the receiver): serverUrl host, bare host, tunnel host. */
  readonly hosts: { hooks: string; bare: string; tunnel: string };
  /**
   * The client server secret of tenant A (a test that reads it calls {@link needSecret} first).
   * @throws Error when it is unknown (needSecret was not called)
   */
  secret(): string;
  /** How long to wait for `retries` further model B attempts, ms: from the target's config on a simulator, else {@link LIVE_RETRY_WAIT_MS}. */
  retryWaitMs(retries: number): number;
  /**
   * Waits for the deliveries `pick` finds and records the requirement on `checks`' clauses
   * (helpers/webhooks/watch.ts `verifyArrival`), within {@link arrivalMs} unless `opts` says otherwise.
   */
  arrival(
    checks: Checks,
    requirement: string,
    pick: (all: ReceivedRequest[]) => ReceivedRequest[] | undefined | false,
    opts?: Partial<ArrivalOptions>,
  ): Promise<ReceivedRequest[]>;
  /**
   * A serverUrl the target can deliver to, for a path unique to the test, and the path the receiver
   * will see for it (a tunnel keeps the path, so the public URL's own path comes first).
   */
  hook(path: string): { url: string; seen: string };
  /** The onboarding events received at `path` (without query), in arrival order. */
  onboardingAt(path: string): ReceivedRequest[];
  /**
   * Follows the attempts of a failing model B event at `path` (onboarding events) until none comes
   * within the window the next exponential step needs (helpers/webhooks/waits.ts `followRetries`;
   * a live target's first retry, whose delay is not known, is waited for {@link LIVE_RETRY_WAIT_MS}),
   * or 8 came (7 retries: too many already, no need to wait for more).
   * @returns the attempts, in arrival order
   */
  followRetries(path: string): Promise<ReceivedRequest[]>;
  /**
   * How long "no retry" of a model A event is watched, ms: longer than a whole model B retry
   * schedule of the target (+250 ms), or {@link LIVE_QUIET_MS} on a live tenant, whose schedule is not known.
   */
  noRetryWindowMs(): number;
  /** Starts a call on tenant A through the target's event source (assistant-request is delivered); tracked until {@link finishCall}. */
  beginCall(assistantId: string): Promise<StartedCall>;
  /**
   * Ends a call {@link beginCall} started (the end-of-call report is delivered).
   * @returns whether the supervisor answered, when the event source says what really happened
   */
  finishCall(call: StartedCall, supervisorAnswered?: boolean): Promise<boolean | undefined>;
  /**
   * A new (simulator) or fixture (live) assistant of tenant A whose serverUrl leads to the receiver
   * at a path unique to the test; `seen` is the path the receiver sees.
   */
  hookedAssistant(purpose: string, path: string): Promise<{ a: { id: string; name: string }; seen: string }>;
  /**
   * Where an onboarding event of tenant A must go for the receiver to see it at a path unique to the
   * test: on a simulator the tenant-level URL is pointed there now (control API); on a live tenant
   * the trigger is asked to deliver to the public URL (§6: onboarding events go to the tenant-level URL).
   */
  onboardingTo(path: string): Promise<{ deliverTo: string; seen: string }>;
  /**
   * Skips the test when tenant A's client server secret is unknown (live: `CORE_API_CLIENT_SERVER_SECRET`).
   * @returns the secret
   */
  needSecret(ctx: SkipContext): string;
  /** A new assistant of tenant A (or B) for one test. */
  assistant(purpose: string, body?: Record<string, unknown>, tenant?: TenantName): Promise<{ id: string; name: string }>;
  /**
   * PATCHes the assistant's serverUrl and makes sure the write took (§4.1: the response includes
   * serverUrl). A refusal is a precondition failure (the URL rules of §2.3 rules 1–2 belong to the
   * assistant suites), so it throws instead of recording a verdict.
   * @throws Error naming the request and answer when the PATCH is refused or does not store the URL.
   */
  setServerUrl(assistantId: string, url: string | null): Promise<void>;
}

/** What {@link skipWith} takes: the running test's context. */
export type SkipContext = Parameters<typeof skipWith>[0];

/**
 * The steps of a webhook test that only a control API can take (a simulator), reached through
 * {@link WebhookFixture.withControl} or {@link WebhookFixture.ifControl}, so the compiler refuses
 * them where the target may be a live tenant.
 */
export interface ControlSteps {
  /** The control API (docs/control-api.md). */
  readonly control: ControlClient;
  /** Points the test's tenant A's (or B's) tenant-level server URL at a receiver path unique to the test; undone after it. */
  tenantUrl(path: string, tenant?: TenantName): Promise<string>;
  /** Starts a call through the control API (assistant-request is delivered). */
  startCall(assistantId: string, customerNumber: string, tenant?: TenantName): Promise<{ id: string; callId?: string }>;
  /**
   * The routing fixture: the test's tenant-level URL at `tenantPath`, and a new assistant whose
   * serverUrl is `serverUrl` (one of the file's public host names, routed to the receiver).
   */
  routedAssistant(purpose: string, tenantPath: string, serverUrl: string): Promise<{ id: string; name: string }>;
  /** Makes sure the simulator still routes the file's host names to the receiver (helpers/webhooks/connect-to.ts). */
  routeHosts(): Promise<void>;
  /** The deliveries log entries of a tenant whose URL is `url` (control API). */
  deliveriesTo(url: string, tenant?: TenantName): Promise<ControlDelivery[]>;
}

/**
 * A webhook fixture's state, set before the file's first test ({@link startOnSimulator},
 * {@link startLive}) and read through the fixture's members, never copied at a file's top.
 */
interface FixtureState {
  /** The file's receiver; undefined until beforeAll, and on a live tenant without a public URL. */
  rx: WebhookReceiver | undefined;
  /** The control API on a simulator; undefined on a live tenant. */
  control: ControlClient | undefined;
  /** The event source (helpers/target/events.ts); undefined on a live tenant without a public URL. */
  events: Events | undefined;
  /** How long an expected delivery may take to arrive, ms. */
  arrivalMs: number;
  /** Model B retry base delay of the target, ms. */
  retryBaseMs: number;
  /** Delivery attempt timeout of the target, ms. */
  timeoutMs: number;
  /** The file's public host names (set on a simulator). */
  hosts: { hooks: string; bare: string; tunnel: string };
  /** The `webhookConnectTo` entries of the file's host names (helpers/webhooks/connect-to.ts). */
  connectTo: Record<string, string>;
  /**
   * Where the target reaches the receiver: on a simulator `https://<hooks host>` (routed by the control
   * API's DNS and connect-to), on a live tenant the public URL a tunnel forwards (no trailing slash).
   */
  hookBase: string;
  /** Path prefix the receiver sees before a test's own path: the public URL's path on a live tenant, else ''. */
  seenPrefix: string;
  /** Calls the file started and has not ended: ended in afterAll, so a failed test leaves no call live. */
  openCalls: Map<string, { tenantId: string; call: StartedCall }>;
}

/** A fixture state before beforeAll: the run config's timings, nothing started. */
function initialState(): FixtureState {
  return {
    rx: undefined,
    control: undefined,
    events: undefined,
    arrivalMs: 4_000,
    retryBaseMs: RUN_CONFIG.webhookRetryBaseMs,
    timeoutMs: RUN_CONFIG.webhookTimeoutMs,
    hosts: { hooks: '', bare: '', tunnel: '' },
    connectTo: {},
    hookBase: '',
    seenPrefix: '',
    openCalls: new Map(),
  };
}

/**
 * On a live tenant: the receiver on `CORE_API_WEBHOOK_PORT`, reached through the operator's tunnel
 * (`CORE_API_WEBHOOK_PUBLIC_URL`), and the operator's trigger; nothing when no public URL is set.
 */
async function startLive(s: FixtureState): Promise<void> {
  const reach = getTarget().webhook;
  if (!reach) return;
  s.rx = await WebhookReceiver.start({ port: reach.port });
  s.events = eventsFor();
  s.arrivalMs = 30_000;
  s.hookBase = reach.publicUrl;
  s.seenPrefix = new URL(reach.publicUrl).pathname.replace(/\/+$/, '');
}

/**
 * On a simulator: the receiver, the control API as event source, the target's retry config, and
 * the file's host names routed to the receiver (undone by the file world's cleanup).
 * @throws Error when the file's world has no control client
 */
async function startOnSimulator(s: FixtureState, w: World): Promise<void> {
  if (!w.control) throw new Error('precondition: the target has the control capability but its world has no control client');
  const control = w.control;
  s.control = control;
  s.events = eventsFor(w.target, control);
  const rx = await WebhookReceiver.start();
  s.rx = rx;
  const cfg = await control.config({});
  if (typeof cfg.webhookRetryBaseMs === 'number') s.retryBaseMs = cfg.webhookRetryBaseMs;
  if (typeof cfg.webhookTimeoutMs === 'number') s.timeoutMs = cfg.webhookTimeoutMs;
  const tag = w.runPrefix.replace(/-+$/, '');
  s.hosts.hooks = `hooks-${tag}.example.com`;
  s.hosts.bare = `bare-${tag}.example.com`;
  s.hosts.tunnel = `tunnel-${tag}.example.com`;
  s.hookBase = `https://${s.hosts.hooks}`;
  for (const h of Object.values(s.hosts)) Object.assign(s.connectTo, await routeHostTo(control, h, rx.origin, (l, fn) => w.cleanup.add(l, fn)));
}

/**
 * The file's receiver.
 * @throws Error when there is none (before beforeAll, or a live tenant without a public URL: a test
 * that uses it `requires: ['receiver']`)
 */
function receiverOf(s: FixtureState): WebhookReceiver {
  if (!s.rx) throw new Error('precondition: no webhook receiver (a test that uses it requires the receiver capability)');
  return s.rx;
}

/**
 * The event source.
 * @throws Error when there is none (a test that makes events happen `requires: ['events']`)
 */
function eventsOf(s: FixtureState): Events {
  if (!s.events) throw new Error('precondition: no event source (a test that makes events happen requires events)');
  return s.events;
}

/** The fixture's assistant steps: new assistants, their serverUrl, and serverUrls that lead to the receiver. */
function assistantSteps(s: FixtureState, world: () => World) {
  const hook = (path: string) => ({ url: s.hookBase + path, seen: s.seenPrefix + path });
  const assistant = async (purpose: string, body: Record<string, unknown> = {}, tenant: TenantName = 'tenantA') => {
    const w: World = world();
    return assistantFixture(w, w.as(tenant), `webhooks-${purpose}`, body);
  };
  const setServerUrl = async (assistantId: string, url: string | null): Promise<void> => {
    const res = await world().as('tenantA').patch(`/assistants/${assistantId}`, { serverUrl: url });
    if (res.status !== 200 || res.json?.data?.serverUrl !== url) {
      throw new Error(`precondition: PATCH /assistants/{id} serverUrl=${JSON.stringify(url)} answered ${res.status} ${res.text.slice(0, 300)}`);
    }
  };
  const hookedAssistant = async (purpose: string, path: string) => {
    if (s.control) await ensureConnectTo(s.control, s.connectTo);
    const a = await assistant(purpose);
    const { url, seen } = hook(path);
    await setServerUrl(a.id, url);
    return { a, seen };
  };
  return { hook, assistant, setServerUrl, hookedAssistant };
}

/** The fixture's call steps: calls begun through the event source, tracked until they are finished (or afterAll). */
function callSteps(s: FixtureState, world: () => World): Pick<WebhookFixture, 'beginCall' | 'finishCall'> {
  return {
    async beginCall(assistantId) {
      const tenantId = world().tenantA.id;
      const call = await eventsOf(s).startCall(tenantId, assistantId);
      s.openCalls.set(call.id, { tenantId, call });
      return call;
    },
    async finishCall(call, supervisorAnswered = false) {
      const open = s.openCalls.get(call.id);
      s.openCalls.delete(call.id);
      return (await eventsOf(s).endCall(open?.tenantId ?? world().tenantA.id, call, supervisorAnswered)).supervisorAnswered;
    },
  };
}

/** The fixture's waits: arrivals within its window, a failing model B event's retries, and its retry and quiet windows. */
function waitSteps(s: FixtureState): Pick<WebhookFixture, 'retryWaitMs' | 'arrival' | 'onboardingAt' | 'followRetries' | 'noRetryWindowMs'> {
  const onboardingAt = (path: string) => receiverOf(s).at(path).filter(isOnboarding);
  return {
    retryWaitMs: (retries) => (s.control ? retryScheduleMs(s.retryBaseMs, retries) + s.arrivalMs : LIVE_RETRY_WAIT_MS),
    arrival: (checks, requirement, pick, opts = {}) =>
      verifyArrival(checks, receiverOf(s), requirement, pick, { ...opts, timeoutMs: opts.timeoutMs ?? s.arrivalMs }),
    onboardingAt,
    followRetries: (path) =>
      followRetries(receiverOf(s), () => onboardingAt(path), {
        retryBaseMs: s.control ? s.retryBaseMs : undefined,
        unknownFirstWaitMs: LIVE_RETRY_WAIT_MS,
      }),
    noRetryWindowMs: () => (s.control ? retryScheduleMs(s.retryBaseMs) + 250 : LIVE_QUIET_MS),
  };
}

/**
 * Sets up the calling suite file's webhook fixture: its world and per-test worlds, a receiver, the
 * events interface, the target's retry config and host names (beforeAll), and ends the calls the
 * file left open and closes the receiver (afterAll). Call once, at the top of a suite file.
 */
export function useWebhookFixture(): WebhookFixture {
  /** The file's world: the receiver's host names and connect-to entries, and their cleanup. */
  const fileWorld = useWorld();
  /**
   * Each test's own organization and tenants, so each may point the tenant-level URL where it
   * likes while the others run (the file's describes are concurrent).
   */
  const world = usePerTestWorld(fileWorld);
  const s = initialState();
  beforeAll(() => (hasCapability('control') ? startOnSimulator(s, fileWorld()) : startLive(s)));
  afterAll(async () => {
    for (const { tenantId, call } of s.openCalls.values()) await s.events?.endCall(tenantId, call, false).catch(() => undefined);
    await s.rx?.close();
  });

  const assistants = assistantSteps(s, world);
  /** The control steps on a simulator (built on first use, after beforeAll), else undefined. */
  let steps: ControlSteps | undefined;
  const ifControl = (): ControlSteps | undefined => {
    if (s.control && !steps) steps = controlSteps({ control: s.control, world, rx: () => receiverOf(s), connectTo: s.connectTo, ...assistants });
    return steps;
  };

  return {
    world,
    get rx() {
      return receiverOf(s);
    },
    withControl: (ctx) => ifControl() ?? skipWith(ctx, capabilityReason('control'), capabilitySwitch('control')),
    ifControl,
    needEvents: (ctx) => s.events ?? skipWith(ctx, capabilityReason('events'), capabilitySwitch('events')),
    get arrivalMs() {
      return s.arrivalMs;
    },
    get retryBaseMs() {
      return s.retryBaseMs;
    },
    get timeoutMs() {
      return s.timeoutMs;
    },
    hosts: s.hosts,
    secret() {
      const secret = world().tenantA.clientServerSecret;
      if (!secret) throw new Error('precondition: the client server secret of tenant A is unknown (call needSecret first)');
      return secret;
    },
    needSecret: (ctx) =>
      world().tenantA.clientServerSecret ?? skipWith(ctx, world().missing('secretAsKey') ?? 'the client server secret of tenant A is unknown'),
    ...waitSteps(s),
    ...callSteps(s, world),
    ...assistants,
    async onboardingTo(path) {
      const sim = ifControl();
      if (sim) return { deliverTo: await sim.tenantUrl(path), seen: path };
      const { url, seen } = assistants.hook(path);
      return { deliverTo: url, seen };
    },
  };
}

/** What {@link controlSteps} is built from: the fixture's control client, world, receiver and helpers. */
interface ControlStepsOf {
  control: ControlClient;
  world: () => World;
  rx: () => WebhookReceiver;
  connectTo: Record<string, string>;
  assistant: WebhookFixture['assistant'];
  setServerUrl: WebhookFixture['setServerUrl'];
}

/** The control steps of a webhook fixture on a simulator ({@link ControlSteps}). */
function controlSteps({ control, world, rx, connectTo, assistant, setServerUrl }: ControlStepsOf): ControlSteps {
  const tenantUrl = async (path: string, tenant: TenantName = 'tenantA'): Promise<string> => {
    const url = rx().url(path);
    const w = world();
    await control.tenantServerUrl(w[tenant].id, url);
    w.cleanup.add(`tenant-level server URL of ${tenant === 'tenantA' ? 'A' : 'B'}`, () => control.tenantServerUrl(w[tenant].id, null));
    return url;
  };
  return {
    control,
    tenantUrl,
    startCall: (assistantId, customerNumber, tenant = 'tenantA') => control.startCall({ tenantId: world()[tenant].id, assistantId, customerNumber }),
    async routedAssistant(purpose, tenantPath, serverUrl) {
      await tenantUrl(tenantPath);
      await ensureConnectTo(control, connectTo);
      const a = await assistant(purpose);
      await setServerUrl(a.id, serverUrl);
      return a;
    },
    routeHosts: () => ensureConnectTo(control, connectTo),
    deliveriesTo: async (url, tenant = 'tenantA') => (await control.deliveries(world()[tenant].id)).filter((d) => d.url === url),
  };
}
