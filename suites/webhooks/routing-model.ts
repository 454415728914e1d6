/**
 * Webhook routing as model state (issue 39, item 4; §6, §2.3 rule 4, §1): fast-check draws
 * sequences of serverUrl writes on one assistant (set to one of two receiver paths, cleared, the
 * same value twice, switched and switched back), moves of the tenant-level URL between two other
 * receiver paths (control API only), calls and (on a simulator) messaging conversations on every
 * channel, some with a change made while they are open. Each is applied to the target and to
 * helpers/generate/routing-model.ts; each one's assistant-request and end-of-call or
 * end-of-conversation report must arrive where the model allows and nowhere else (§6 model A: one
 * attempt, no retry, so only arrival is judged). A wait that ran out while the runner ran late
 * proves nothing: an `error`, never a `fail` (helpers/webhooks/waits.ts `routedArrival`). A failure
 * is shrunk to a minimal sequence and printed as a curl script.
 *
 * Two tests: serverUrl writes and calls with the tenant-level URL held at one path, on every target
 * with a receiver and events (on a live tenant the trigger's `tenant-url` kind leads it to the
 * receiver, as the routing tests do; one short sequence, each call a real one the trigger places);
 * and the same with the tenant-level URL moved too, which needs the control API (skipped on a live
 * tenant, naming it). Seeded: `FC_SEED` (and `FC_PATH`) replay a run; the seed is printed with
 * every verdict. `CORE_API_GENERATIVE_DEPTH` multiplies the sequences on a simulator.
 */
import { describe } from 'vitest';
import fc from 'fast-check';
import { readEnv, readSeed } from '../../helpers/base/env';
import { clauseTest, type ClauseContext } from '../../helpers/checks/clause';
import { generativeDepth } from '../../helpers/generate/depth';
import { StepFailure, replayLine, counterexampleScript } from '../../helpers/generate/step-failure';
import { OwnSideError, ownSide } from '../../helpers/live/own-side';
import { routedArrival } from '../../helpers/webhooks/waits';
import { describeRequest, jsonOf, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import type { Channel, Events, StartedCall } from '../../helpers/target/events';
import {
  allowedConversationEnd,
  allowedEnd,
  allowedStart,
  initialRouting,
  ROUTING_CLAUSES,
  type AllowedRoute,
  type Destination,
  type RoutingModel,
  type ServerUrlName,
  type TenantUrlName,
} from '../../helpers/generate/routing-model';
import { type WebhookFixture, aboutCall, typeOf } from './fixture';

/** Sequences per test on a simulator, and on a live tenant. */
const SIM_RUNS = 12;
const LIVE_RUNS = 1;
/** Longest command sequence on a simulator, and on a live tenant (each call a real one). */
const MAX_COMMANDS = 8;
const LIVE_COMMANDS = 3;
/** Time budget of one property, shrinking included (ms). */
const TIME_BUDGET_MS = 25_000;

/** The real side of a run: the fixture, the assistant, and the URL and receiver path of each destination. */
interface Real {
  wh: WebhookFixture;
  assistantId: string;
  to: Record<Destination, { url: string; seen: string }>;
  /** Calls and conversations made so far in the sequence, to name the one that failed. */
  calls: number;
  /** The event source (conversations are started through it). */
  events: Events;
}

/** A change made to the routing: the assistant's serverUrl (PATCH), or the tenant-level URL (control API). */
type Change = { serverUrl: ServerUrlName | null } | { tenantUrl: TenantUrlName };

/** Applies `change` to the target and the model. */
async function apply(m: RoutingModel, r: Real, change: Change): Promise<void> {
  if ('serverUrl' in change) {
    await r.wh.setServerUrl(r.assistantId, change.serverUrl ? r.to[change.serverUrl].url : null);
    m.serverUrl = change.serverUrl;
    if (change.serverUrl === null) m.cleared = true;
    return;
  }
  await r.wh.ifControl()!.control.tenantServerUrl(r.wh.world().tenantA.id, r.to[change.tenantUrl].url);
  m.tenantUrl = change.tenantUrl;
}

const patchLine = (v: ServerUrlName | null) =>
  `curl -X PATCH "$CORE_API_BASE_URL/assistants/$ASSISTANT" -H "Authorization: ApiKey $TENANT_KEY" -H 'Content-Type: application/json' --data-binary '{"serverUrl":${v ? `"$URL_${v}"` : 'null'}}'`;
const changeLine = (c: Change) =>
  'serverUrl' in c ? patchLine(c.serverUrl) : `curl -X PUT "$CORE_API_CONTROL_URL/tenants/$TENANT/server-url" -d '{"url":"'$URL_${c.tenantUrl}'"}'`;

/** serverUrl set to `value` (a receiver path, or null), `times` times in a row. */
class SetServerUrl implements fc.AsyncCommand<RoutingModel, Real> {
  constructor(
    readonly value: ServerUrlName | null,
    readonly times: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: RoutingModel, r: Real): Promise<void> {
    for (let k = 0; k < this.times; k += 1) await apply(m, r, { serverUrl: this.value });
  }
  toString(): string {
    return Array.from({ length: this.times }, () => patchLine(this.value)).join('\n    ');
  }
}

/** serverUrl switched from `from` (what it is) to `to` and back. */
class SwitchBack implements fc.AsyncCommand<RoutingModel, Real> {
  constructor(
    readonly from: ServerUrlName | null,
    readonly to: ServerUrlName | null,
  ) {}
  check(m: Readonly<RoutingModel>): boolean {
    return m.serverUrl === this.from && this.to !== this.from;
  }
  async run(m: RoutingModel, r: Real): Promise<void> {
    await apply(m, r, { serverUrl: this.to });
    await apply(m, r, { serverUrl: this.from });
  }
  toString(): string {
    return `${patchLine(this.to)}\n    ${patchLine(this.from)}   # and back`;
  }
}

/** A call: started, its assistant-request judged, `mid` applied while it is live, ended, its end-of-call report judged. */
class Call implements fc.AsyncCommand<RoutingModel, Real> {
  constructor(readonly mid?: Change) {}
  check(): boolean {
    return true;
  }
  async run(m: RoutingModel, r: Real): Promise<void> {
    const start = { ...m };
    r.calls += 1;
    const call = await r.wh.beginCall(r.assistantId);
    await judge(r, ofCall(call, r.calls), 'assistant-request', allowedStart(start));
    if (this.mid) await apply(m, r, this.mid);
    await r.wh.finishCall(call);
    await judge(r, ofCall(call, r.calls), 'end-of-call-report', allowedEnd(start, m));
  }
  toString(): string {
    const begin = 'curl -X POST "$CORE_API_CONTROL_URL/calls" -d \'{"tenantId":"\'$TENANT\'","assistantId":"\'$ASSISTANT\'"}\'';
    const end = 'curl -X POST "$CORE_API_CONTROL_URL/calls/$CALL/end"';
    return [`${begin}   # a call`, ...(this.mid ? [`${changeLine(this.mid)}   # while it is live`] : []), end].join('\n    ');
  }
}

/**
 * A messaging conversation on `channel` (simulator): started, its assistant-request judged, `mid`
 * applied while it is open, ended, its end-of-conversation report judged (§6: messaging events are
 * routed as voice events are).
 */
class Conversation implements fc.AsyncCommand<RoutingModel, Real> {
  constructor(
    readonly channel: Channel,
    readonly mid?: Change,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: RoutingModel, r: Real): Promise<void> {
    const start = { ...m };
    r.calls += 1;
    const tenantId = r.wh.world().tenantA.id;
    const conv = await r.events.startConversation(tenantId, r.assistantId, this.channel);
    const about: Subject = { words: `conversation ${r.calls} (${this.channel})`, holds: (q) => jsonOf(q)?.conversation_id === conv.id };
    await judge(r, about, 'assistant-request', allowedStart(start));
    if (this.mid) await apply(m, r, this.mid);
    await r.events.endConversation(tenantId, conv.id);
    await judge(r, about, 'end-of-conversation-report', allowedConversationEnd(start, m));
  }
  toString(): string {
    const begin = `curl -X POST "$CORE_API_CONTROL_URL/conversations" -d '{"tenantId":"'$TENANT'","assistantId":"'$ASSISTANT'","channel":"${this.channel}","customerIdentifier":"+15550100"}'`;
    const end = 'curl -X POST "$CORE_API_CONTROL_URL/conversations/$CONVERSATION/end"';
    return [`${begin}   # a ${this.channel} conversation`, ...(this.mid ? [`${changeLine(this.mid)}   # while it is open`] : []), end].join('\n    ');
  }
}

/** The tenant-level URL moved to `to` (control API), then a call made at once: a move matters to the events of an assistant without serverUrl. */
class MoveTenantUrl implements fc.AsyncCommand<RoutingModel, Real> {
  constructor(readonly to: TenantUrlName) {}
  check(): boolean {
    return true;
  }
  async run(m: RoutingModel, r: Real): Promise<void> {
    await apply(m, r, { tenantUrl: this.to });
    await new Call().run(m, r);
  }
  toString(): string {
    return `${changeLine({ tenantUrl: this.to })}\n    ${new Call().toString()}`;
  }
}

/** The destination a receiver path belongs to, or the path itself. */
function nameOf(r: Real, path: string): string {
  const d = (Object.keys(r.to) as Destination[]).find((k) => r.to[k].seen === path);
  return d ? `${d} (${path})` : path;
}

/** What a judged event is about: a call or a conversation of the sequence, in words, and how its deliveries are told apart. */
interface Subject {
  words: string;
  holds: (q: ReceivedRequest) => boolean;
}

/** The deliveries of `call` (its `call_id`), the sequence's `n`th call. */
const ofCall = (call: StartedCall, n: number): Subject => ({ words: `call ${n}`, holds: (q) => aboutCall(q, call) });

/**
 * Waits for the `type` event of `about` at one of the allowed destinations.
 * @throws StepFailure when it arrived elsewhere, or nowhere in time while the runner kept time
 * @throws OwnSideError (`late-runner`, unrecorded) when nothing came but the runner ran late over the wait
 */
async function judge(r: Real, about: Subject, type: string, allowed: AllowedRoute): Promise<void> {
  const what = `${about.words} of the sequence`;
  const paths = new Set(allowed.to.map((d) => r.to[d].seen));
  // Only the run's own destinations are read (a cheap path test before the body is parsed): the file's receiver sees every test's deliveries.
  const ours = new Set(Object.values(r.to).map((d) => d.seen));
  const mine = (all: ReceivedRequest[]) => all.filter((q) => ours.has(q.path) && about.holds(q) && typeOf(q) === type);
  const seen = await routedArrival(
    r.wh.rx,
    (all) => mine(all).filter((q) => paths.has(q.path)),
    (all) => mine(all).find((q) => !paths.has(q.path)),
    r.wh.arrivalMs,
    `${type} of ${about.words}`,
  );
  const expected = `${type} at ${allowed.to.join(' or ')} — ${allowed.words}`;
  if (seen.kind === 'arrived') return;
  if (seen.kind === 'wrong')
    throw new StepFailure(`${what}: expected ${expected}; it went to ${nameOf(r, seen.wrong.path)}: ${describeRequest(seen.wrong)}`, allowed.clause);
  const words = `${what}: expected ${expected}; nothing came within ${r.wh.arrivalMs} ms`;
  if (seen.late) throw new OwnSideError('late-runner', `${words}, but the runner ran late over the wait: no verdict`);
  throw new StepFailure(words, allowed.clause);
}

/** A serverUrl to write: either receiver path, or null (a clear), the clear as often as both. */
const serverUrl = fc.constantFrom<ServerUrlName | null>('S1', 'S2', null, null);
const serverUrlChange = serverUrl.map((v): Change => ({ serverUrl: v }));
const tenantUrlChange = fc.constantFrom<TenantUrlName>('T1', 'T2').map((v): Change => ({ tenantUrl: v }));

/** The commands of a run: with `moves`, the tenant-level URL is moved too, between calls and during them. */
function commands(moves: boolean, sim: boolean) {
  const move = fc.constantFrom<TenantUrlName>('T1', 'T2').map((v) => new MoveTenantUrl(v));
  const change = moves ? fc.oneof(serverUrlChange, tenantUrlChange) : serverUrlChange;
  // Conversations on a simulator only: a live trigger may reach no channel, and calls route the same.
  const conversation = fc
    .tuple(fc.constantFrom<Channel>('web', 'sms', 'chatapp'), fc.option(change, { nil: undefined }))
    .map(([channel, c]) => new Conversation(channel, c));
  return [
    fc.tuple(serverUrl, fc.constantFrom(1, 1, 2)).map(([v, n]) => new SetServerUrl(v, n)),
    fc.tuple(serverUrl, serverUrl).map(([from, to]) => new SwitchBack(from, to)),
    // Moves drawn twice as often where they run: a move matters only between a write and a call.
    ...(moves ? [move, move] : []),
    // Calls drawn most often: each judges where the state so far routes.
    fc.constant(new Call()),
    fc.option(change, { nil: undefined }).map((c) => new Call(c)),
    ...(sim ? [conversation] : []),
  ];
}

/** The run's destinations: serverUrls on the file's public host, tenant-level URLs on the receiver (a simulator) or the public URL (live). */
function destinations(wh: WebhookFixture, tag: string): Real['to'] {
  const tenantLevel = (p: string) => (wh.ifControl() ? { url: wh.rx.url(p), seen: p } : wh.hook(p));
  return {
    S1: wh.hook(`/rm-${tag}/s1`),
    S2: wh.hook(`/rm-${tag}/s2`),
    T1: tenantLevel(`/rm-${tag}/t1`),
    T2: tenantLevel(`/rm-${tag}/t2`),
  };
}

/** One property run of the routing model: a fresh assistant (simulator) or the fixture one reset (live), the tenant-level URL at T1. */
async function runModel(ctx: ClauseContext, wh: WebhookFixture, moves: boolean): Promise<void> {
  const sim = wh.ifControl();
  const w = wh.world();
  const events = wh.needEvents(ctx);
  const to = destinations(wh, `${moves ? 'moving' : 'held'}-${w.runPrefix.replace(/-+$/, '')}`);
  await sim?.routeHosts();
  const seed = readSeed('FC_SEED');
  const path = readEnv('FC_PATH');
  let runs = 0;
  const property = fc.asyncProperty(fc.commands(commands(moves, !!sim), { maxCommands: sim ? MAX_COMMANDS : LIVE_COMMANDS }), async (cmds) => {
    await sim?.control.tenantServerUrl(w.tenantA.id, to.T1.url);
    const a = await wh.assistant(sim ? `routing-model-${runs++}` : 'routing-model');
    const real: Real = { wh, assistantId: a.id, to, calls: 0, events };
    if (!sim) await wh.setServerUrl(a.id, null);
    await fc.asyncModelRun(() => ({ model: initialRouting(), real }), cmds);
  });
  const check = () =>
    fc.check(property, {
      seed,
      path,
      numRuns: sim ? SIM_RUNS * generativeDepth() : LIVE_RUNS,
      interruptAfterTimeLimit: TIME_BUDGET_MS,
      markInterruptAsFailure: false,
    });
  if (sim) w.cleanup.add('tenant-level server URL of A', () => sim.control.tenantServerUrl(w.tenantA.id, null));
  const out = sim ? await check() : await events.withTenantUrl(w.tenantA.id, to.T1.url, check);
  const err = out.errorInstance as unknown;
  if (err instanceof OwnSideError) throw ownSide(err.kind, err.message);
  // A step the model could not take (a refused PATCH, a trigger that failed) is no verdict on routing.
  if (out.failed && !(err instanceof StepFailure)) throw err;
  const replay = replayLine(out);
  const script = counterexampleScript(out);
  const clause = err instanceof StepFailure ? err.clause : ROUTING_CLAUSES[0];
  ctx.verify.on(clause).that(`every event of a random routing sequence arrives where the model allows (${out.numRuns} runs, seed ${out.seed})`, !out.failed, {
    expected: 'each call’s assistant-request and end-of-call report at the destination the routing model allows, and nowhere else',
    actual: out.failed ? `${err instanceof Error ? err.message : String(err)}\n  shrunk sequence, as curl:\n    ${script}\n  ${replay}` : 'agreed',
  });
}

/** Registers the routing model's tests on the webhook file's fixture (suites/webhooks.test.ts). */
export function routingModelTests(wh: WebhookFixture): void {
  // A plain describe runs after the file's concurrent tests (the retry schedule is timed there); its two tests run at once.
  describe('routing model (§6, §2.3 rule 4, §1)', () => {
    describe.concurrent('sequences', () => {
      clauseTest(
        ROUTING_CLAUSES,
        'random serverUrl writes (set, cleared, twice, switched and back) and calls deliver each event where the routing model says',
        (ctx) => runModel(ctx, wh, false),
        { requires: ['receiver', 'events'], timeout: 300_000 },
      );
      clauseTest(
        ROUTING_CLAUSES,
        'with the tenant-level URL moved too, between calls and during them, every event arrives where the routing model says',
        (ctx) => runModel(ctx, wh, true),
        { requires: ['receiver', 'events', 'control'], timeout: 60_000 },
      );
    });
  });
}
