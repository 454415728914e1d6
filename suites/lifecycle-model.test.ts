/**
 * Model-based property test of the spec's lifecycles (issue 34, item 3; §3, §4.5, §5.4, §5.6,
 * §5.7): fast-check draws sequences of rotations, tenant removals, calls started and ended, and
 * reads, mints and call reads by every principal; each command is applied to the target and to the
 * model of helpers/generate/lifecycle-model.ts, and every answer must be one the model allows. A
 * failure is shrunk to a minimal sequence and printed as a curl script (keys and ids as shell
 * variables, never their values).
 *
 * On a simulator each run provisions its own organization with tenants A and B through the control
 * API, so rotations and removals touch nothing else. On a live tenant, bounded: only reads, with
 * the operator's principals (tenant keys, the organization key naming each tenant, the rotated key
 * when given), {@link LIVE_RUNS} sequences of at most {@link MAX_COMMANDS}.
 * Seeded: `FC_SEED` (and `FC_PATH`) replay a run; the seed is printed with every verdict.
 */
import fc from 'fast-check';
import { readEnv, readSeed } from '../helpers/base/env';
import { useWorld, type World } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { ApiClient } from '../helpers/http/client';
import { hasCapability } from '../helpers/target/target';
import {
  allowedCallRead,
  allowedMint,
  allowedRead,
  allows,
  initialLifecycle,
  LIFECYCLE_CLAUSES,
  allowedAuditRead,
  allowedClose,
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
/** Time budget of the whole property, shrinking included (ms). */
const TIME_BUDGET_MS = 30_000;

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

/** An answer the model did not allow, with the clause that says what was expected. */
class StepFailure extends Error {
  constructor(
    message: string,
    readonly clause: string,
  ) {
    super(message);
    this.name = 'StepFailure';
  }
}

function expectAllowed(a: Allowed, status: number, reason: unknown, what: string): void {
  if (!allows(a, status, reason))
    throw new StepFailure(
      `${what}: expected ${a.statuses.join(' or ')}${a.reason ? ` (409 reason ${a.reason})` : ''} — ${a.words}; got ${status}${reason ? ` ${String(reason)}` : ''}`,
      a.clause,
    );
}

const keyVar = (t: number, gen: number) => `$KEY_${NAMES[t]}_${gen}`;
const curl = (method: string, path: string, auth: string, tenant?: string) =>
  `curl -X ${method} "$CORE_API_BASE_URL${path}" -H "Authorization: ApiKey ${auth}"${tenant ? ` -H "X-Tenant-Id: ${tenant}"` : ''}`;

function client(r: Real, t: number, cred: Credential): ApiClient {
  const keys = r.tenants[t].keys;
  if (cred === 'org') return new ApiClient(r.baseUrl, { label: 'organization key O', key: r.orgKey, tenantId: r.tenants[t].id });
  return new ApiClient(r.baseUrl, { label: `tenant key ${NAMES[t]}`, key: cred === 'rotated' ? keys[0] : keys[keys.length - 1] });
}

class Read implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly cred: Credential,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return this.cred !== 'rotated' || m.tenants[this.t].rotations > 0;
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const res = await client(r, this.t, this.cred).get('/assistants');
    expectAllowed(allowedRead(m.tenants[this.t], this.cred), res.status, undefined, this.toString());
  }
  toString(): string {
    if (this.cred === 'org') return curl('GET', '/assistants', '$ORG_KEY', `$TENANT_${NAMES[this.t]}`);
    return curl('GET', '/assistants', this.cred === 'rotated' ? keyVar(this.t, 0) : `$KEY_${NAMES[this.t]}_CURRENT`);
  }
}

class Rotate implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(readonly t: number) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return !m.tenants[this.t].removed && m.tenants[this.t].rotations < 3;
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const keys = r.tenants[this.t].keys;
    keys.push(await world().control!.rotate(keys[keys.length - 1]));
    m.tenants[this.t].rotations += 1;
    await observe(m, r, [new Read(this.t, 'rotated'), new Read(this.t, 'current')]);
  }
  toString(): string {
    return `curl -X POST "$CORE_API_CONTROL_URL/keys/rotate" -d '{"apiKey":"'$KEY_${NAMES[this.t]}_CURRENT'"}'   # rotate ${NAMES[this.t]}'s key`;
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
 * A call read (`GET /calls/{id}`), a mint (`POST /calls/{id}/monitor-session`), a close of one
 * session (`DELETE …/monitor-session`, only while the model holds one open on a live call) or the
 * audit read (`GET /calls/{id}/monitor-sessions`) by tenant `by` with its current key.
 */
class CallAction implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly action: CallVerb,
    readonly t: number,
    readonly i: number,
    readonly by: number,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    const owner = m.tenants[this.t];
    if (owner.calls.length <= this.i || m.tenants[this.by].removed) return false;
    return this.action !== 'close' || (owner.calls[this.i] === 'live' && owner.sessions[this.i] > 0);
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const { method, path } = CALL_VERBS[this.action];
    const at = path.replace('{id}', r.tenants[this.t].calls[this.i]);
    const c = client(r, this.by, 'current');
    const res =
      method === 'GET' ? await c.get(at) : method === 'DELETE' ? await c.delete(at) : await c.post(at, { actorLabel: 'lifecycle model' }, { retry: false });
    const owner = m.tenants[this.t];
    const reader = m.tenants[this.by];
    expectAllowed(CALL_VERBS[this.action].allowed(owner, this.i, reader), res.status, res.json?.reason, this.toString());
    if (owner.index !== reader.index || res.status >= 300) return;
    if (this.action === 'mint') owner.sessions[this.i] += 1;
    if (this.action !== 'close') return;
    owner.sessions[this.i] -= 1;
    // Closing a session does not end the call (§4.5): the call reads as live to the next mint at once.
    const again = await c.post(at, { actorLabel: 'lifecycle model' }, { retry: false });
    const live = {
      ...allowedMint(owner, this.i, owner),
      clause: '4.5/monitor-session-delete',
      words: 'closing one session leaves the call live: the next mint is not refused not_live',
    };
    expectAllowed(live, again.status, again.json?.reason, `${this.toString()}, then a mint`);
    if (again.status < 300) owner.sessions[this.i] += 1;
  }
  toString(): string {
    const { method, path } = CALL_VERBS[this.action];
    return curl(method, path.replace('{id}', `$CALL_${NAMES[this.t]}_${this.i}`), `$KEY_${NAMES[this.by]}_CURRENT`);
  }
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

/** Mints sent at once on one live call of `t` by its own key: each answer one the model allows (2xx or a 409 other than not_live). */
class ConcurrentMints implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(
    readonly t: number,
    readonly i: number,
    readonly n: number,
  ) {}
  check(m: Readonly<LifecycleModel>): boolean {
    return m.tenants[this.t].calls[this.i] === 'live' && !m.tenants[this.t].removed;
  }
  async run(m: LifecycleModel, r: Real): Promise<void> {
    const at = `/calls/${r.tenants[this.t].calls[this.i]}/monitor-session`;
    const c = client(r, this.t, 'current');
    const answers = await Promise.all(Array.from({ length: this.n }, (_, k) => c.post(at, { actorLabel: `lifecycle model ${k}` }, { retry: false })));
    const owner = m.tenants[this.t];
    for (const res of answers) {
      expectAllowed(allowedMint(owner, this.i, owner), res.status, res.json?.reason, this.toString());
      if (res.status < 300) owner.sessions[this.i] += 1;
    }
  }
  toString(): string {
    return `for k in $(seq ${this.n}); do ${curl('POST', `/calls/$CALL_${NAMES[this.t]}_${this.i}/monitor-session`, `$KEY_${NAMES[this.t]}_CURRENT`)} & done; wait`;
  }
}

const tenant = fc.constantFrom(0, 1);
/** A call index, the first call twice as often (most runs start one call). */
const callIndex = fc.constantFrom(0, 0, 1);
const credential = fc.constantFrom<Credential>('current', 'rotated', 'org');

function simulatorCommands() {
  return [
    fc.tuple(tenant, credential).map(([t, c]) => new Read(t, c)),
    tenant.map((t) => new Rotate(t)),
    tenant.map((t) => new Remove(t)),
    tenant.map((t) => new StartCall(t)),
    fc.tuple(tenant, callIndex).map(([t, i]) => new EndCall(t, i)),
    fc.tuple(fc.constantFrom<CallVerb>('read', 'mint', 'close', 'audit'), tenant, callIndex, tenant).map(([a, t, i, by]) => new CallAction(a, t, i, by)),
    // The owner's own session steps, drawn apart as well: a close needs a session its tenant opened.
    fc.tuple(fc.constantFrom<CallVerb>('mint', 'close'), tenant, callIndex).map(([a, t, i]) => new CallAction(a, t, i, t)),
    fc.tuple(tenant, callIndex, fc.integer({ min: 2, max: 4 })).map(([t, i, n]) => new ConcurrentMints(t, i, n)),
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
    const out = await fc.check(property, {
      seed,
      path,
      numRuns: sim ? SIM_RUNS : LIVE_RUNS,
      interruptAfterTimeLimit: TIME_BUDGET_MS,
      markInterruptAsFailure: false,
    });
    const err = out.errorInstance as unknown;
    const clause = err instanceof StepFailure ? err.clause : LIFECYCLE_CLAUSES[0];
    const replay = `seed ${out.seed}, path ${out.counterexamplePath ?? '-'}; replay with FC_SEED=${out.seed}${out.counterexamplePath ? ` FC_PATH=${out.counterexamplePath}` : ''}`;
    const script = out.counterexample ? [...(out.counterexample[0] as Iterable<unknown>)].map(String).join('\n    ') : '?';
    verify.on(clause).that(`every answer of a random lifecycle sequence is one the model allows (${out.numRuns} runs, seed ${out.seed})`, !out.failed, {
      expected: 'the target agrees with the lifecycle model after every command',
      actual: out.failed ? `${err instanceof Error ? err.message : String(err)}\n  shrunk sequence, as curl:\n    ${script}\n  ${replay}` : 'agreed',
    });
  },
  { timeout: 90_000 },
);
