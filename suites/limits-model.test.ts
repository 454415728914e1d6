/**
 * Model-based property test of the stated limits under concurrency (issue 39, item 4; §4.5, §5.2,
 * §7 exception 3, §8): fast-check draws sequences of mints spending a fresh tenant's budget one by
 * one up to its edge (tenant key and organization key taking turns), mints sent at once at that edge
 * with both key types, insights batches at their 1–25 edges (none, one, 25, 26, a repeated id)
 * sent at once with either key type, and text test suites at the edges of 12 cases and iterations
 * 1 to 10 created at once (simulator only: no suite DELETE is shown). Each command is applied to the target and to the model of
 * helpers/generate/limits-model.ts, and every answer must be one the model allows: the tenant's one
 * budget is never overspent, whichever key types mint at once; within it a mint is accepted, past it
 * refused with the endpoint's 429; each batch and suite is judged by its own body alone, and a
 * batch answer names each id of it. The per-call slots under concurrency are suites/lifecycle-model.test.ts's.
 *
 * A limit is judged only from answers that carry the endpoint's own body: a 429 without the mint
 * refusal's top-level retryAfterSeconds is a throttle, waited out and sent again
 * (helpers/checks/limits.ts); the batch has no 429 of its own, so the client waits out every one.
 * An overspent budget or a missing 429 is judged only when the tenant's mints fell within one
 * minute (helpers/checks/clock.ts `spentWithin`), otherwise `error`.
 *
 * On a simulator each sequence has a fresh organization and tenant (control API), whose budget is
 * the control config's `monitorMintsPerMinute` (the rate is not shown by §4.5), and its calls are
 * ended after it. On a live tenant, bounded: only the batches ({@link LIVE_RUNS} sequences of at most
 * {@link LIVE_COMMANDS}, unknown ids only: reads, nothing written). A failure is shrunk to a minimal
 * sequence and printed as a curl script (keys and ids as shell variables). Seeded: `FC_SEED` (and
 * `FC_PATH`) replay a run; the seed is printed with every verdict. `CORE_API_GENERATIVE_DEPTH`
 * multiplies the sequences on a simulator.
 */
import fc from 'fast-check';
import { checkSideBySide } from '../helpers/generate/side-by-side';
import { createHash } from 'node:crypto';
import { readEnv, readSeed } from '../helpers/base/env';
import { useWorld, type World } from '../helpers/world/world';
import { clauseTest, type Verify } from '../helpers/checks/clause';
import type { ApiClient, ApiResponse } from '../helpers/http/client';
import { tenantWithAssistant } from '../helpers/world/fixtures';
import { hasCapability } from '../helpers/target/target';
import { generativeDepth } from '../helpers/generate/depth';
import { AT_LIMIT, mintRateRefusal, pastThrottles } from '../helpers/checks/limits';
import { openWindow, type TimeWindow } from '../helpers/checks/clock';
import { OwnSideError } from '../helpers/live/own-side';
import { allowedClose, expectAllowed, type ModelTenant } from '../helpers/generate/lifecycle-model';
import { StepFailure, replayLine, counterexampleScript } from '../helpers/generate/step-failure';
import {
  allowedBatch,
  allowedLoneMint,
  allowedRaceMint,
  allowedSuite,
  BATCH_MAX,
  initialLimits,
  LIMITS_CLAUSES,
  rateBreach,
  spent,
  SUITE_MAX_CASES,
  unnamedIds,
  type KeyType,
  type LimitsModel,
} from '../helpers/generate/limits-model';

/** Sequences per run on a simulator, and on a live tenant (batches only). */
const SIM_RUNS = 8;
const LIVE_RUNS = 2;
/** Longest command sequence on a simulator, and on a live tenant. */
const MAX_COMMANDS = 5;
const LIVE_COMMANDS = 2;
/** Time budget of the whole property, shrinking included (ms). */
const TIME_BUDGET_MS = 30_000;
/** Lanes of runs side by side on a simulator (helpers/generate/side-by-side.ts): each run has fresh fixtures of its own. */
const SIDE_BY_SIDE = 4;
/** The window the mint budget is counted in, ms (§4.5 names a per-tenant rate; the control config counts it a minute). */
const RATE_WINDOW_MS = 60_000;

const world = useWorld();

/** The real side of a sequence: the tenant's two key types, its assistant and calls (simulator), the window its mints are spent in. */
interface Real {
  keys: Record<KeyType, ApiClient>;
  tenantId: string;
  assistantId?: string;
  /** Calls started for the sequence, with the sessions open on each. */
  calls: { id: string; open: number }[];
  /** Monitor slots per call (the control config's `monitorSlotsPerCall`; not shown by §4.5). */
  slots: number;
  /** Set when the target refused the assumed case shape of a text test suite (that suite not judged). */
  shapeRefused?: boolean;
  /** Opened before the tenant's first mint left; the first and the last mint answer, for the target's clock. */
  spending?: { window: TimeWindow; first?: ApiResponse; last?: ApiResponse };
}

/** The model's stand-in owner for the lifecycle model's close judgment (one tenant, its own call). */
const OWNER: ModelTenant = { index: 0, rotations: 0, removed: false, calls: ['live'], sessions: [1], labels: [[]] };

const KEY_WORDS: Record<KeyType, string> = { tenant: '$TENANT_KEY', org: '$ORG_KEY" -H "X-Tenant-Id: $TENANT' };
const mintCurl = (key: KeyType, call: string) =>
  `curl -X POST "$CORE_API_BASE_URL/calls/${call}/monitor-session" -H "Authorization: ApiKey ${KEY_WORDS[key]}" -H 'Content-Type: application/json' --data-binary '{"actorLabel":"limits model"}'`;

/** Sends one mint on `call`; a 429 without the endpoint's body is waited out (at the budget's edge one that persists counts as its refusal). */
async function mint(r: Real, key: KeyType, call: string, atEdge: boolean): Promise<ApiResponse> {
  const send = () => r.keys[key].post(`/calls/${call}/monitor-session`, { actorLabel: `limits model, ${key} key` }, { retry: false, expect429: true });
  const spending = (r.spending ??= { window: openWindow() });
  const { res } = await pastThrottles(send, mintRateRefusal, 'POST /calls/{id}/monitor-session', atEdge ? AT_LIMIT : {});
  spending.first ??= res;
  spending.last = res;
  return res;
}

/** Closes one session of `call` (§4.5 DELETE): 2xx, or the step fails. */
async function close(r: Real, call: { id: string; open: number }): Promise<void> {
  const res = await r.keys.tenant.delete(`/calls/${call.id}/monitor-session`);
  expectAllowed(allowedClose(OWNER, OWNER), res.status, undefined, `curl -X DELETE "$CORE_API_BASE_URL/calls/$CALL/monitor-session"`);
  call.open -= 1;
}

/** Calls with `n` free slots in all, starting calls as needed (control API): one call per free slot taken, in order. */
async function freeSlots(r: Real, n: number): Promise<{ id: string; open: number }[]> {
  const taken: { id: string; open: number }[] = [];
  for (const call of r.calls) for (let k = call.open; k < r.slots && taken.length < n; k += 1) taken.push(call);
  while (taken.length < n) {
    const call = { id: (await world().control!.startCall({ tenantId: r.tenantId, assistantId: r.assistantId! })).id, open: 0 };
    r.calls.push(call);
    for (let k = 0; k < r.slots && taken.length < n; k += 1) taken.push(call);
  }
  return taken;
}

/**
 * A judgment of the budget that fails only within the minute it was spent in: ends the test as an
 * `error` when the tenant's mints took longer (helpers/checks/clock.ts `spentWithin`).
 * @throws OwnSideError (`window`) then
 */
function withinTheMinute(r: Real): void {
  if (r.spending) r.spending.window.close().spentWithin(RATE_WINDOW_MS, 'the per-tenant mint budget', undefined, [r.spending.first, r.spending.last]);
}

/**
 * Mints one by one, each session closed again, until `left` of the budget remain (the key types
 * taking turns when `mixed`); with `left` -1, to the budget and one more, which must be refused.
 */
class SpendTo implements fc.AsyncCommand<LimitsModel, Real> {
  constructor(
    readonly left: number,
    readonly mixed: boolean,
  ) {}
  check(m: Readonly<LimitsModel>): boolean {
    return m.exact && m.accepted <= m.rate - Math.max(0, this.left);
  }
  async run(m: LimitsModel, r: Real): Promise<void> {
    let turn = 0;
    const until = m.rate - Math.max(0, this.left) + (this.left < 0 ? 1 : 0);
    while (m.exact && m.accepted < until) {
      const key: KeyType = this.mixed && turn++ % 2 === 1 ? 'org' : 'tenant';
      const [call] = await freeSlots(r, 1);
      const atEdge = m.accepted >= m.rate;
      const res = await mint(r, key, call.id, atEdge);
      const allowed = allowedLoneMint(m);
      // A missing 429 is judged only within the minute the budget was spent in.
      if (allowed.statuses.length === 1 && res.status !== 429) withinTheMinute(r);
      expectAllowed(allowed, res.status, res.json?.reason, `${this.toString()}: ${mintCurl(key, '$CALL')}`);
      const ok = res.status < 300;
      spent(m, ok ? 1 : 0, ok ? 0 : 1);
      if (!ok) return;
      call.open += 1;
      await close(r, call);
    }
  }
  toString(): string {
    const spend = `mint and close (DELETE) one by one${this.mixed ? ', tenant key and organization key taking turns,' : ''}`;
    return this.left < 0 ? `# ${spend} until the budget is spent, then one more` : `# ${spend} until ${this.left} of the budget remain`;
  }
}

/**
 * `keys.length` mints sent at once, each on a live call with a free slot, each with its key type,
 * at the budget's edge (first spent one by one until `left` remain, while the budget left is known)
 * or wherever the budget is (`left` undefined): every answer one the model allows, and no more
 * accepted than the tenant's one budget had left.
 */
class RaceMints implements fc.AsyncCommand<LimitsModel, Real> {
  constructor(
    readonly keys: KeyType[],
    readonly left?: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: LimitsModel, r: Real): Promise<void> {
    const edge = this.left === undefined ? undefined : new SpendTo(this.left, true);
    if (edge?.check(m)) await edge.run(m, r);
    const calls = await freeSlots(r, this.keys.length);
    const before = { ...m };
    const atEdge = !m.exact || m.accepted + this.keys.length > m.rate;
    const answers = await Promise.all(this.keys.map((key, k) => mint(r, key, calls[k].id, atEdge)));
    answers.forEach((res, k) => expectAllowed(allowedRaceMint(), res.status, res.json?.reason, mintCurl(this.keys[k], `$CALL_${k}`)));
    const successes = answers.filter((a) => a.status < 300).length;
    const breach = rateBreach(before, successes, this.keys.length, this.words());
    if (breach) {
      withinTheMinute(r);
      throw new StepFailure(`the race: ${breach}`, new Set(this.keys).size > 1 ? '4.5/monitor-session-per-tenant' : '4.5/monitor-session-429');
    }
    spent(m, successes, this.keys.length - successes);
    for (const [k, res] of answers.entries()) if (res.status < 300) calls[k].open += 1;
    for (const [k, res] of answers.entries()) if (res.status < 300) await close(r, calls[k]);
  }
  private words(): string {
    const orgs = this.keys.filter((k) => k === 'org').length;
    return `${this.keys.length - orgs} with the tenant key, ${orgs} with the organization key`;
  }
  toString(): string {
    const edge = this.left === undefined ? '' : `${new SpendTo(this.left, true).toString()}, then `;
    return `${edge}# ${this.keys.length} at once (${this.words()}), each on a call with a free slot:\n    ${this.keys.map((k, i) => `${mintCurl(k, `$CALL_${i}`)} &`).join('\n    ')}\n    wait`;
  }
}

/** A uuid drawn from `seed` and `k` (a v4 form), so a batch's unknown ids replay with the seed. */
function uuidOf(seed: number, k: number): string {
  const h = createHash('sha256').update(`${seed}:${k}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One batch: `size` ids (the sequence's live calls first, then unknown ones), the last repeating the first when `repeat`, sent with `key`. */
interface BatchDraw {
  size: number;
  repeat: boolean;
  key: KeyType;
  seed: number;
}

/** The ids of a batch: misses only (live calls of the sequence, whose metrics have not landed, and unknown ids). */
function batchIds(r: Real, b: BatchDraw): string[] {
  const ids = Array.from({ length: b.size }, (_, k) => r.calls[k]?.id ?? uuidOf(b.seed, k));
  if (b.repeat && ids.length >= 2) ids[ids.length - 1] = ids[0];
  return ids;
}

/** Insights batches sent at once (§4.5, §8): each answered by its own size alone, and an accepted one names each of its ids. */
class RaceBatches implements fc.AsyncCommand<LimitsModel, Real> {
  constructor(readonly batches: BatchDraw[]) {}
  check(): boolean {
    return true;
  }
  async run(_m: LimitsModel, r: Real): Promise<void> {
    const all = this.batches.map((b) => batchIds(r, b));
    const answers = await Promise.all(all.map((ids, k) => r.keys[this.batches[k].key].get(`/calls/insights?ids=${ids.join(',')}`)));
    for (const [k, res] of answers.entries()) {
      const ids = all[k];
      const what = `${this.line(k)}   # ${ids.length} ids${this.batches[k].repeat && ids.length >= 2 ? ', one repeated' : ''}`;
      expectAllowed(allowedBatch(ids), res.status, undefined, what, res.json?.error?.code);
      const unnamed = res.status === 200 ? unnamedIds(ids, res.json?.data) : [];
      if (unnamed.length)
        throw new StepFailure(
          `${what}: the answer does not name ${unnamed.length} of the ids (each a miss: call_not_found or metrics_not_found); it shows ${JSON.stringify(res.json?.data).slice(0, 300)}`,
          '4.5/insights-batch-miss-reasons',
        );
    }
  }
  private line(k: number): string {
    return `curl "$CORE_API_BASE_URL/calls/insights?ids=$IDS_${k}" -H "Authorization: ApiKey ${KEY_WORDS[this.batches[k].key]}"`;
  }
  toString(): string {
    return `# ${this.batches.length} batches at once (sizes ${this.batches.map((b) => `${b.size}${b.repeat ? ' with a repeat' : ''}`).join(', ')}):\n    ${this.batches.map((_, k) => `${this.line(k)} &`).join('\n    ')}\n    wait`;
  }
}

/** One suite of a race: its number of cases and its iterations. */
interface SuiteDraw {
  cases: number;
  iterations: number;
}

/** A refused suite whose every detail names a case field: the assumed case shape is not the target's (text-tests.test.ts skips so too). */
const caseShapeRefused = (res: ApiResponse): boolean => {
  const details: { field?: unknown }[] = Array.isArray(res.json?.error?.details) ? res.json.error.details : [];
  return res.status === 400 && details.length > 0 && details.every((d) => typeof d?.field === 'string' && /^cases?[.[]/.test(d.field));
};

/**
 * Text test suites created at once (§4.5, §8; simulator only: no suite DELETE is shown), at the
 * edges of 12 cases and of iterations 1 to 10: each answered by its own body alone. Field names are
 * assumed as text-tests.test.ts assumes them; a suite refused for the assumed case shape is not
 * judged ({@link Real.shapeRefused}, reported).
 */
class RaceSuites implements fc.AsyncCommand<LimitsModel, Real> {
  constructor(readonly suites: SuiteDraw[]) {}
  check(): boolean {
    return true;
  }
  async run(_m: LimitsModel, r: Real): Promise<void> {
    const body = (d: SuiteDraw) => ({
      name: `${world().runPrefix}limits-model suite`,
      assistantId: r.assistantId,
      mode: 'text',
      iterations: d.iterations,
      cases: Array.from({ length: d.cases }, (_, k) => ({ name: `case ${k + 1}`, message: `Question ${k + 1}: what are your opening hours?` })),
    });
    const answers = await Promise.all(this.suites.map((d) => r.keys.tenant.post('/test-suites', body(d))));
    for (const [k, res] of answers.entries()) {
      const d = this.suites[k];
      if (d.cases <= SUITE_MAX_CASES && caseShapeRefused(res)) {
        r.shapeRefused = true;
        continue;
      }
      expectAllowed(allowedSuite(d.cases, d.iterations), res.status, undefined, `${this.line(d)}   # ${d.cases} cases, iterations ${d.iterations}`);
    }
  }
  private line(d: SuiteDraw): string {
    return `curl -X POST "$CORE_API_BASE_URL/test-suites" -H "Authorization: ApiKey $TENANT_KEY" -H 'Content-Type: application/json' --data-binary '{"assistantId":"'$ASSISTANT'","mode":"text","iterations":${d.iterations},"cases":[…${d.cases} × {"name","message"}]}'`;
  }
  toString(): string {
    return `# ${this.suites.length} suites at once:\n    ${this.suites.map((d) => `${this.line(d)} &`).join('\n    ')}\n    wait`;
  }
}

const keyType = fc.constantFrom<KeyType>('tenant', 'org');
/** A batch size at the edges of 1 to 25 (none, one, 25 twice as often, 26) or inside them. */
const batchSize = fc.oneof(fc.constantFrom(0, 1, BATCH_MAX, BATCH_MAX, BATCH_MAX + 1), fc.integer({ min: 2, max: BATCH_MAX - 1 }));
const batch = fc.record({ size: batchSize, repeat: fc.boolean(), key: keyType, seed: fc.nat() });
/** Two to four batches at once, the first always at the upper edge (25 unique ids), so the others meet it. */
const batches = fc
  .tuple(fc.record({ size: fc.constant(BATCH_MAX), repeat: fc.constant(false), key: keyType, seed: fc.nat() }), fc.array(batch, { minLength: 1, maxLength: 3 }))
  .map(([edge, rest]) => new RaceBatches([edge, ...rest]));

function simulatorCommands() {
  const spend = fc.tuple(fc.integer({ min: -1, max: 3 }), fc.boolean()).map(([left, mixed]) => new SpendTo(left, mixed));
  // Both key types at once, at least one of each, most often.
  const race = fc
    .tuple(fc.array(keyType, { minLength: 2, maxLength: 5 }), fc.boolean(), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }))
    .map(([keys, both, left]) => new RaceMints(both ? ['tenant', 'org', ...keys.slice(2)] : keys, left));
  return [
    spend,
    // Races drawn twice as often: most at the budget's edge, where they judge most.
    race,
    race,
    // Batches drawn twice as often: each command sends several at once, so their edges meet.
    batches,
    batches,
    fc
      .array(fc.record({ cases: fc.constantFrom(1, SUITE_MAX_CASES, SUITE_MAX_CASES + 1), iterations: fc.constantFrom(1, 10) }), { minLength: 2, maxLength: 4 })
      .map((d) => new RaceSuites(d)),
  ];
}

/** A fresh organization, tenant and assistant (simulator), or the operator's tenant A (live: batches only). */
async function freshReal(w: World): Promise<{ real: Real; rate: number }> {
  if (!w.control) return { real: { keys: { tenant: w.as('tenantA'), org: w.as('orgA') }, tenantId: w.tenantA.id, calls: [], slots: 0 }, rate: 0 };
  const cfg = await w.control.config({});
  const org = await w.control.organization(`${w.runPrefix}limits-org`);
  const t = await tenantWithAssistant(w, org, 'limits-model', 'limits-model');
  if (!t.assistantId) throw new Error(`precondition: POST /assistants answered ${t.created.status} ${t.created.text.slice(0, 200)}`);
  const keys = { tenant: t.tenantKey, org: t.orgKey };
  const real = { keys, tenantId: t.tenantId, assistantId: t.assistantId, calls: [], slots: Math.max(1, Number(cfg.monitorSlotsPerCall ?? 2)) };
  return { real, rate: Number(cfg.monitorMintsPerMinute ?? 30) };
}

/** The verdict of a property run (`numRuns` over all its lanes): a shrunk failure as a curl script with its replay, else agreement. */
function verdict<T extends [Iterable<unknown>]>(verify: Verify, out: fc.RunDetails<T>, numRuns: number): void {
  const err = out.errorInstance as unknown;
  // No verdict from a spending that outran its minute, nor from a step the model could not take (a target in trouble).
  if (err instanceof OwnSideError || (out.failed && !(err instanceof StepFailure))) throw err;
  const clause = err instanceof StepFailure ? err.clause : LIMITS_CLAUSES[0];
  const replay = replayLine(out);
  const script = counterexampleScript(out);
  verify.on(clause).that(`every answer of a random sequence at the stated limits is one the model allows (${numRuns} runs, seed ${out.seed})`, !out.failed, {
    expected: 'the target agrees with the limits model after every command',
    actual: out.failed ? `${err instanceof Error ? err.message : String(err)}\n  shrunk sequence, as curl:\n    ${script}\n  ${replay}` : 'agreed',
  });
}

clauseTest(
  LIMITS_CLAUSES,
  'mints at the edge of the one per-tenant budget (both key types, one by one and at once), insights batches and text test suites at their edges, sent at once, get only the answers the limits model allows',
  async ({ verify }) => {
    const w = world();
    const sim = hasCapability('control');
    let shapeRefused = false;
    const property = fc.asyncProperty(fc.commands(sim ? simulatorCommands() : [batches], { maxCommands: sim ? MAX_COMMANDS : LIVE_COMMANDS }), async (cmds) => {
      const { real, rate } = await freshReal(w);
      try {
        await fc.asyncModelRun(() => ({ model: initialLimits(rate), real }), cmds);
      } finally {
        shapeRefused ||= !!real.shapeRefused;
        for (const call of real.calls) await w.control?.endCall(call.id).catch(() => undefined);
      }
    });
    // Each sequence has a fresh organization and tenant (simulator): the runs go in lanes side by side, not one long chain.
    const { details: out, numRuns } = await checkSideBySide(
      property,
      {
        seed: readSeed('FC_SEED'),
        path: readEnv('FC_PATH'),
        numRuns: sim ? SIM_RUNS * generativeDepth() : LIVE_RUNS,
        interruptAfterTimeLimit: TIME_BUDGET_MS,
        markInterruptAsFailure: false,
      },
      sim ? SIDE_BY_SIDE : 1,
    );
    if (shapeRefused)
      verify
        .on('4.5/test-suite-max-cases')
        .inform(
          'text test suites were judged (their shape is not shown)',
          false,
          'the target refused the assumed case shape (`cases` of {name, message}): those suites were not judged',
        );
    verdict(verify, out, numRuns);
  },
  { timeout: 90_000 },
);
