/**
 * Model-based property test of the spec's lifecycles (issues 34 and 39; §3, §4.5, §5.4, §5.6,
 * §5.7, §7 exception 2): fast-check draws sequences of rotations (up to five, every key rotated
 * away tried after each), tenant removals, calls started, ended and deleted, and reads, mints
 * (actorLabels drawn from Unicode), closes and audit reads by every principal; each command is
 * applied to the target and to the model of helpers/generate/lifecycle-model.ts, and every answer
 * must be one the model allows: the audit read lists every session minted on the call, closed ones
 * included (after a close, after the end), and mints sent at once on a call's free slots (one to
 * three closed after the call was found full; tenant key and organization key alike) take at most
 * those slots. The per-tenant mint rate under concurrency is suites/limits-model.test.ts's. A failure is shrunk to a minimal sequence and printed as a curl script
 * (keys and ids as shell variables, never their values). `CORE_API_GENERATIVE_DEPTH` multiplies
 * the sequences on a simulator.
 *
 * On a simulator each run provisions its own organization with tenants A and B through the control
 * API, so rotations and removals touch nothing else. On a live tenant, bounded: only reads, with
 * the operator's principals (tenant keys, the organization key naming each tenant, the rotated key
 * when given), {@link LIVE_RUNS} sequences of at most {@link MAX_COMMANDS}.
 * Seeded: `FC_SEED` (and `FC_PATH`) replay a run; the seed is printed with every verdict.
 */
import fc from 'fast-check';
import { checkSideBySide } from '../helpers/generate/side-by-side';
import { readEnv, readSeed } from '../helpers/base/env';
import { useWorld, type World } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { ApiClient } from '../helpers/http/client';
import { hasCapability } from '../helpers/target/target';
import { generativeDepth } from '../helpers/generate/depth';
import { StepFailure, replayLine, counterexampleScript } from '../helpers/generate/step-failure';
import {
  allowedCallRead,
  allowedMint,
  allowedRead,
  expectAllowed,
  initialLifecycle,
  LIFECYCLE_CLAUSES,
  allowedAuditRead,
  allowedClose,
  slotBreach,
  unlistedLabels,
  type Allowed,
  type Credential,
  type LifecycleModel,
  type ModelTenant,
} from '../helpers/generate/lifecycle-model';

/** Sequences per run on a simulator, and on a live tenant (reads only). */
const SIM_RUNS = 25;
const LIVE_RUNS = 3;
/** Longest command sequence. */
const MAX_COMMANDS = 8;
/** Rotations of one tenant's key in a run: every key rotated away is tried after each. */
const MAX_ROTATIONS = 5;
/** Mints one by one before the race, to find the call's slots (their number is not shown; the simulator has 2). */
const MAX_FILL = 5;
/** Time budget of the whole property, shrinking included (ms). */
const TIME_BUDGET_MS = 30_000;
/** Lanes of runs side by side on a simulator (helpers/generate/side-by-side.ts): each run has fresh fixtures of its own. */
const SIDE_BY_SIDE = 4;

const world = useWorld();
const NAMES = ['A', 'B'] as const;

/** The real side of a run: the tenants' ids, every key each had (oldest first), their calls. */
interface Real {
  baseUrl: string;
  orgKey: string;
  tenants: { id: string; keys: string[]; calls: string[]; assistantId?: string }[];
}
interface Holder {
  model: LifecycleModel;
  real: Real;
}

const keyVar = (t: number, gen: number) => `$KEY_${NAMES[t]}_${gen}`;
const curl = (method: string, path: string, auth: string, tenant?: string) =>
  `curl -X ${method} "$CORE_API_BASE_URL${path}" -H "Authorization: ApiKey ${auth}"${tenant ? ` -H "X-Tenant-Id: ${tenant}"` : ''}`;

/** A client of tenant `t`: its current key, the organization key naming it, or its rotated-away key of generation `gen` (0 = the first key it had). */
function client(r: Real, t: number, cred: Credential, gen = 0): ApiClient {
  const keys = r.tenants[t].keys;
  if (cred === 'org') return new ApiClient(r.baseUrl, { label: 'organization key O', key: r.orgKey, tenantId: r.tenants[t].id });
  return new ApiClient(r.baseUrl, { label: `tenant key ${NAMES[t]}`, key: cred === 'rotated' ? keys[Math.min(gen, keys.length - 2)] : keys[keys.length - 1] });
}

/** `GET /assistants` of tenant `t` with a credential; a rotated key is the one of generation `gen` modulo the rotations so far (every key, not only the first). */
class Read implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly cred: Credential,
    readonly gen = 0,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return this.cred !== 'rotated' || m.tenants[this.t].rotations > 0;
  }
  private generation(m: Readonly<LifecycleModel>): number {
    return this.gen % Math.max(1, m.tenants[this.t].rotations);
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const gen = this.generation(m);
    this.shown = gen;
    const res = await client(r, this.t, this.cred, gen).get('/assistants');
    expectAllowed(allowedRead(m.tenants[this.t], this.cred), res.status, undefined, this.toString());
  }
  /** The generation the last run used, for the curl line. */
  private shown = 0;
  toString(): string {
    if (this.cred === 'org') return curl('GET', '/assistants', '$ORG_KEY', `$TENANT_${NAMES[this.t]}`);
    return curl('GET', '/assistants', this.cred === 'rotated' ? keyVar(this.t, this.shown) : `$KEY_${NAMES[this.t]}_CURRENT`);
  }
}

/** `times` rotations of tenant `t`'s key in a row (any number: the same command twice), then every key rotated away so far is tried. */
class Rotate implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly times = 1,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return !m.tenants[this.t].removed && m.tenants[this.t].rotations + this.times <= MAX_ROTATIONS;
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const keys = r.tenants[this.t].keys;
    for (let k = 0; k < this.times; k += 1) keys.push(await world().control!.rotate(keys[keys.length - 1]));
    m.tenants[this.t].rotations += this.times;
    // Every key rotated away so far is tried, the first and the one just replaced alike (§5.4).
    const rotated = Array.from({ length: m.tenants[this.t].rotations }, (_, g) => new Read(this.t, 'rotated', g));
    await observe(m, r, [...rotated, new Read(this.t, 'current')]);
  }
  toString(): string {
    const once = `curl -X POST "$CORE_API_CONTROL_URL/keys/rotate" -d '{"apiKey":"'$KEY_${NAMES[this.t]}_CURRENT'"}'`;
    return `${this.times > 1 ? `for k in $(seq ${this.times}); do ${once}; done` : once}   # rotate ${NAMES[this.t]}'s key ${this.times} time(s)`;
  }
}

class Remove implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(readonly t: number) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return m.tenants.every((x) => !x.removed);
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    await world().control!.removeTenant(r.tenants[this.t].id);
    m.tenants[this.t].removed = true;
    await observe(m, r, [new Read(this.t, 'current'), new Read(this.t, 'org'), new Read(this.t, 'rotated')]);
  }
  toString(): string {
    return `curl -X DELETE "$CORE_API_CONTROL_URL/tenants/$TENANT_${NAMES[this.t]}"   # remove tenant ${NAMES[this.t]}`;
  }
}

class StartCall implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(readonly t: number) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return !m.tenants[this.t].removed && m.tenants[this.t].calls.length < 2;
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const real = r.tenants[this.t];
    real.assistantId ??= (await client(r, this.t, 'current').post('/assistants', { name: `lifecycle-${NAMES[this.t]}` })).json?.data?.id;
    const call = await world().control!.startCall({ tenantId: real.id, assistantId: real.assistantId! });
    real.calls.push(call.id);
    m.tenants[this.t].calls.push('live');
    m.tenants[this.t].sessions.push(0);
    m.tenants[this.t].labels.push([]);
    const i = real.calls.length - 1;
    await observe(m, r, [
      new CallAction('read', this.t, i, this.t),
      new CallAction('read', this.t, i, 1 - this.t),
      new CallAction('mint', this.t, i, this.t),
      new CallAction('close', this.t, i, this.t),
    ]);
  }
  toString(): string {
    return `curl -X POST "$CORE_API_CONTROL_URL/calls" -d '{"tenantId":"'$TENANT_${NAMES[this.t]}'","assistantId":"…"}'   # start a call of ${NAMES[this.t]}`;
  }
}

class EndCall implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly i: number,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return m.tenants[this.t].calls[this.i] === 'live';
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    await world().control!.endCall(r.tenants[this.t].calls[this.i]);
    m.tenants[this.t].calls[this.i] = 'ended';
    await observe(m, r, [
      new CallAction('mint', this.t, this.i, this.t),
      new CallAction('read', this.t, this.i, this.t),
      new CallAction('audit', this.t, this.i, this.t),
    ]);
  }
  toString(): string {
    return `curl -X POST "$CORE_API_CONTROL_URL/calls/$CALL_${NAMES[this.t]}_${this.i}/end"   # end the call`;
  }
}

/**
 * A call read (`GET /calls/{id}`), a mint (`POST /calls/{id}/monitor-session`, with actorLabel
 * `label`), a close of one session (`DELETE …/monitor-session`, only while the model holds one
 * open on a live call) or the audit read (`GET /calls/{id}/monitor-sessions`, which must list the
 * label of every session minted on the call, closed ones included) by tenant `by` with its current key.
 */
class CallAction implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly action: CallVerb,
    readonly t: number,
    readonly i: number,
    readonly by: number,
    readonly label = 'lifecycle model',
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    const owner = m.tenants[this.t];
    if (owner.calls.length <= this.i || m.tenants[this.by].removed) return false;
    // A deleted call is only minted on (the bare 404 of §7 exception 2); what its other reads answer is not shown.
    if (owner.calls[this.i] === 'deleted') return this.action === 'mint';
    return this.action !== 'close' || (owner.calls[this.i] === 'live' && owner.sessions[this.i] > 0);
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const { method, path } = CALL_VERBS[this.action];
    const at = path.replace('{id}', r.tenants[this.t].calls[this.i]);
    const c = client(r, this.by, 'current');
    const res = method === 'GET' ? await c.get(at) : method === 'DELETE' ? await c.delete(at) : await c.post(at, { actorLabel: this.label }, { retry: false });
    const owner = m.tenants[this.t];
    const reader = m.tenants[this.by];
    expectAllowed(CALL_VERBS[this.action].allowed(owner, this.i, reader), res.status, res.json?.reason, this.toString());
    if (owner.index !== reader.index || res.status >= 300) return;
    if (this.action === 'audit') return expectListed(owner, this.i, res.json?.data, this.toString());
    if (this.action === 'mint') minted(owner, this.i, this.label);
    if (this.action !== 'close') return;
    owner.sessions[this.i] -= 1;
    // Closing a session does not end the call (§4.5): the call reads as live to the next mint at once.
    const again = await c.post(at, { actorLabel: `${this.label} again` }, { retry: false });
    const live = {
      ...allowedMint(owner, this.i, owner),
      clause: '4.5/monitor-session-delete',
      words: 'closing one session leaves the call live: the next mint is not refused not_live',
    };
    expectAllowed(live, again.status, again.json?.reason, `${this.toString()}, then a mint`);
    if (again.status < 300) minted(owner, this.i, `${this.label} again`);
    // Close, then read: the closed session is still listed by the audit read.
    await new CallAction('audit', this.t, this.i, this.t).run(m, r);
  }
  toString(): string {
    const { method, path } = CALL_VERBS[this.action];
    const line = curl(method, path.replace('{id}', `$CALL_${NAMES[this.t]}_${this.i}`), `$KEY_${NAMES[this.by]}_CURRENT`);
    return method === 'POST' ? `${line} -H 'Content-Type: application/json' --data-binary ${shellWord(JSON.stringify({ actorLabel: this.label }))}` : line;
  }
}

/** `text` as one single-quoted shell word. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The model after a mint was accepted: one more open session, its label in the audit. */
function minted(owner: ModelTenant, i: number, label: string): void {
  owner.sessions[i] += 1;
  owner.labels[i].push(label);
}

/** The audit read shows every label the model holds for the call (§4.5), or the step fails. */
function expectListed(owner: ModelTenant, i: number, data: unknown, what: string): void {
  const missing = unlistedLabels(owner, i, data);
  if (missing.length)
    throw new StepFailure(
      `${what}: the audit read lists no session labelled ${missing.map((l) => JSON.stringify(l)).join(', ')} (every session minted on the call, closed ones included); it shows ${JSON.stringify(data).slice(0, 300)}`,
      '4.5/monitor-sessions-audit',
    );
}

/** After a change, every read it affects is compared with the model at once (those the model can run). */
async function observe(m: LifecycleModel, r: Real, reads: fc.AsyncCommand<LifecycleModel, Real>[]): Promise<void> {
  for (const read of reads) if (read.check(m)) await read.run(m, r);
}

type CallVerb = 'read' | 'mint' | 'close' | 'audit';

/** Each call verb: its request and what the model allows. */
const CALL_VERBS: Record<CallVerb, { method: string; path: string; allowed: (owner: ModelTenant, i: number, reader: ModelTenant) => Allowed }> = {
  read: { method: 'GET', path: '/calls/{id}', allowed: (o, _i, r) => allowedCallRead(o, r) },
  mint: { method: 'POST', path: '/calls/{id}/monitor-session', allowed: (o, i, r) => allowedMint(o, i, r) },
  close: { method: 'DELETE', path: '/calls/{id}/monitor-session', allowed: (o, _i, r) => allowedClose(o, r) },
  audit: { method: 'GET', path: '/calls/{id}/monitor-sessions', allowed: (o, _i, r) => allowedAuditRead(o, r) },
};

/** A call of `t` deleted through the control API: the monitoring POSTs answer it as an unknown call (§7 exception 2). */
class DeleteCall implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly i: number,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    const state = m.tenants[this.t].calls[this.i];
    return state !== undefined && state !== 'deleted';
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    // An addition of docs/control-api.md: a simulator without it leaves the call as it was.
    const served = await world()
      .control!.deleteCall(r.tenants[this.t].calls[this.i])
      .then(() => true)
      .catch(() => false);
    if (!served) return;
    m.tenants[this.t].calls[this.i] = 'deleted';
    m.tenants[this.t].sessions[this.i] = 0;
    await observe(m, r, [new CallAction('mint', this.t, this.i, this.t)]);
  }
  toString(): string {
    return `curl -X DELETE "$CORE_API_CONTROL_URL/calls/$CALL_${NAMES[this.t]}_${this.i}"   # delete the call`;
  }
}

/**
 * The stated limit under concurrency (§4.5 per-call slots): on a live call of `t` (call `i` when
 * live, else another live one, else a call it starts), mints one by one until one is refused (its
 * open sessions are the call's slots), closes `free` of them (at most all), then sends `n` mints at
 * once on the call with its free slots, every other one with the organization key acting for the
 * tenant when `mixed` (both key types share the call's slots): each answer is one the model
 * allows, and at most `free` are accepted.
 */
class FillAndRace implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly i: number,
    readonly n: number,
    readonly label: string,
    readonly free = 1,
    readonly mixed = false,
  ) {}
  /** The live call raced on: `i` when live, else the first live one, else -1 (one is started). */
  private callOf(m: Readonly<LifecycleModel>): number {
    const calls = m.tenants[this.t].calls;
    return calls[this.i] === 'live' ? this.i : calls.indexOf('live');
  }
  check(m: Readonly<LifecycleModel>): boolean {
    const owner = m.tenants[this.t];
    return !owner.removed && (this.callOf(m) >= 0 || owner.calls.length < 2);
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    if (this.callOf(m) < 0) await new StartCall(this.t).run(m, r);
    this.raced = this.callOf(m);
    await this.race(m, r, this.raced);
  }
  /** The call index of the last run, and the slots it freed, for the curl line. */
  private raced = -1;
  private freed = -1;
  private async race(m: LifecycleModel, r: Real, i: number): Promise<void> {
    const at = `/calls/${r.tenants[this.t].calls[i]}/monitor-session`;
    const owner = m.tenants[this.t];
    const mint = async (label: string, cred: Credential = 'current') => {
      const res = await client(r, this.t, cred).post(at, { actorLabel: label }, { retry: false });
      expectAllowed(allowedMint(owner, i, owner), res.status, res.json?.reason, this.toString());
      if (res.status < 300) minted(owner, i, label);
      return res;
    };
    let refused = false;
    for (let k = 0; k < MAX_FILL && !refused; k += 1) refused = (await mint(`${this.label} fill ${k}`)).status === 409;
    if (!refused) return; // more slots than the run fills: the race is not set up
    const slots = owner.sessions[i];
    this.freed = Math.min(this.free, slots);
    for (let k = 0; k < this.freed; k += 1) {
      const closed = await client(r, this.t, 'current').delete(at);
      expectAllowed(allowedClose(owner, owner), closed.status, undefined, `${this.toString()} (a close before the race)`);
      owner.sessions[i] -= 1;
    }
    const creds = Array.from({ length: this.n }, (_, k): Credential => (this.mixed && k % 2 === 1 ? 'org' : 'current'));
    const answers = await Promise.all(creds.map((cred, k) => mint(`${this.label} race ${k}`, cred)));
    const breach = slotBreach(slots, answers.filter((a) => a.status < 300).length, this.freed);
    if (breach) throw new StepFailure(`${this.toString()}: ${breach}`, '4.5/monitor-session-slots');
  }
  toString(): string {
    const call = `/calls/$CALL_${NAMES[this.t]}_${this.raced < 0 ? this.i : this.raced}/monitor-session`;
    const line = curl('POST', call, `$KEY_${NAMES[this.t]}_CURRENT`);
    const org = curl('POST', call, '$ORG_KEY', `$TENANT_${NAMES[this.t]}`);
    const race = this.mixed ? `for k in $(seq ${Math.ceil(this.n / 2)}); do ${line} & ${org} & done` : `for k in $(seq ${this.n}); do ${line} & done`;
    return `# mint until refused, close ${this.freed < 0 ? this.free : this.freed} (DELETE ${call}), then ${this.n} at once:\n    ${race}; wait`;
  }
}

const tenant = fc.constantFrom(0, 1);
/** A call index, the first call twice as often (most runs start one call). */
const callIndex = fc.constantFrom(0, 0, 1);
const credential = fc.constantFrom<Credential>('current', 'rotated', 'org');
/**
 * An actorLabel from the space a supervisor's name lives in: Unicode graphemes (accents, scripts,
 * emoji, spaces at either end), a few of them, and a number that tells the sessions apart.
 */
const actorLabel = fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), fc.nat({ max: 9_999 })).map(([s, n]) => `${s} #${n}`);

function simulatorCommands() {
  const race = fc
    .tuple(tenant, callIndex, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }), actorLabel, fc.boolean())
    .map(([t, i, free, more, l, mixed]) => new FillAndRace(t, i, free + more, l, free, mixed));
  return [
    fc.tuple(tenant, credential, fc.nat({ max: MAX_ROTATIONS - 1 })).map(([t, c, g]) => new Read(t, c, g)),
    fc.tuple(tenant, fc.integer({ min: 1, max: 3 })).map(([t, n]) => new Rotate(t, n)),
    tenant.map((t) => new Remove(t)),
    tenant.map((t) => new StartCall(t)),
    tenant.map((t) => new StartCall(t)),
    fc.tuple(tenant, callIndex).map(([t, i]) => new EndCall(t, i)),
    fc
      .tuple(fc.constantFrom<CallVerb>('read', 'mint', 'close', 'audit'), tenant, callIndex, tenant, actorLabel)
      .map(([a, t, i, by, l]) => new CallAction(a, t, i, by, l)),
    // The owner's own session steps, drawn apart as well: a close needs a session its tenant opened.
    fc.tuple(fc.constantFrom<CallVerb>('mint', 'close', 'audit'), tenant, callIndex, actorLabel).map(([a, t, i, l]) => new CallAction(a, t, i, t, l)),
    // Drawn twice as often as the others: a race needs a live call first.
    race,
    race,
    fc.tuple(tenant, callIndex).map(([t, i]) => new DeleteCall(t, i)),
  ];
}

/** A fresh organization with tenants A and B (simulator), or the operator's principals (live, read only). */
async function freshReal(w: World): Promise<Real> {
  if (!w.control) {
    return {
      baseUrl: w.target.baseUrl,
      orgKey: w.orgKey,
      tenants: [
        { id: w.tenantA.id, keys: w.rotatedKey ? [w.rotatedKey, w.tenantA.key] : [w.tenantA.key], calls: [] },
        { id: w.tenantB.id, keys: [w.tenantB.key], calls: [] },
      ],
    };
  }
  const org = await w.control.organization(`${w.runPrefix}lifecycle-org`);
  const [a, b] = [await w.control.tenant(org.id, `${w.runPrefix}lifecycle-A`), await w.control.tenant(org.id, `${w.runPrefix}lifecycle-B`)];
  return { baseUrl: w.target.baseUrl, orgKey: org.apiKey, tenants: [a, b].map((t) => ({ id: t.id, keys: [t.apiKey], calls: [] })) };
}

clauseTest(
  LIFECYCLE_CLAUSES,
  'random sequences of rotations, removals, calls, reads and mints get only the answers the lifecycle model allows',
  async ({ verify }) => {
    const w = world();
    const sim = hasCapability('control');
    const seed = readSeed('FC_SEED');
    const path = readEnv('FC_PATH');
    const commands = sim
      ? simulatorCommands()
      : [fc.tuple(tenant, fc.constantFrom<Credential>('current', 'org', ...(w.rotatedKey ? (['rotated'] as const) : []))).map(([t, c]) => new Read(t, c))];
    const property = fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS }), async (cmds) => {
      const real = await freshReal(w);
      const model = initialLifecycle();
      if (!sim && w.rotatedKey) model.tenants[0].rotations = 1;
      const holder: Holder = { model, real };
      await fc.asyncModelRun(() => ({ model: holder.model, real: holder.real }), cmds);
    });
    // Each run has fresh tenants of its own (simulator): the runs go in lanes side by side, not one long chain.
    const { details: out, numRuns } = await checkSideBySide(
      property,
      { seed, path, numRuns: sim ? SIM_RUNS * generativeDepth() : LIVE_RUNS, interruptAfterTimeLimit: TIME_BUDGET_MS, markInterruptAsFailure: false },
      sim ? SIDE_BY_SIDE : 1,
    );
    const err = out.errorInstance as unknown;
    const clause = err instanceof StepFailure ? err.clause : LIFECYCLE_CLAUSES[0];
    const replay = replayLine(out);
    const script = counterexampleScript(out);
    verify.on(clause).that(`every answer of a random lifecycle sequence is one the model allows (${numRuns} runs, seed ${out.seed})`, !out.failed, {
      expected: 'the target agrees with the lifecycle model after every command',
      actual: out.failed ? `${err instanceof Error ? err.message : String(err)}\n  shrunk sequence, as curl:\n    ${script}\n  ${replay}` : 'agreed',
    });
  },
  { timeout: 90_000 },
);
