/**
 * Model-based property test of the PATCH /assistants/{id} merge rules (§2.2, §2.5-§2.7, §4.1):
 * fast-check draws sequences of valid PATCHes (text from Unicode graphemes, serverUrls on a name
 * that resolves publicly, string lists, documents), applies each to the target and to the model in
 * helpers/generate/merge-model.ts, and after every step the target's GET must equal the model on
 * every modelled field. Commands repeat: a PATCH sent twice (§8 converges), and a PATCH followed
 * by one that puts the previous values back (switch and switch back, set then clear), and two
 * PATCHes of different fields sent at once (both stand, §4.1). A failure is shrunk to a minimal
 * sequence.
 *
 * Seeded and bounded: `FC_SEED` (and `FC_PATH`) replay a run; the seed is printed on failure.
 * At most {@link numRuns} sequences of {@link MAX_COMMANDS} commands (≤ 4 requests each, plus 3 to
 * reset), a time budget of {@link TIME_BUDGET_MS} ms, and a request budget of
 * {@link requestBudget} past which further (shrinking) runs are not sent and count as passing.
 * On a simulator the runs go in {@link SIDE_BY_SIDE} lanes at once (helpers/generate/side-by-side.ts),
 * each lane on an assistant of its own; a live tenant keeps one lane and its one fixture.
 */
import { beforeAll } from 'vitest';
import { StepFailure, replayLine } from '../helpers/generate/step-failure';
import { readEnv, readSeed } from '../helpers/base/env';
import fc from 'fast-check';
import { useWorld } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import { publicHost, publicNameRefusal } from '../helpers/generate/hosts';
import { generativeDepth } from '../helpers/generate/depth';
import { hasCapability } from '../helpers/target/target';
import { checkSideBySide } from '../helpers/generate/side-by-side';
import type { ApiClient } from '../helpers/http/client';
import {
  applyPatch,
  BASELINE_PATCHES,
  compareWithModel,
  FIELD_CLAUSES,
  initialModel,
  MODEL_CLAUSES,
  patchArbitrary,
  type MergeModel,
  type ModelPatch,
} from '../helpers/generate/merge-model';

/**
 * Sequences drawn per run: 12 on a target with a control API (a simulator); 4 elsewhere, where the
 * request budget of a live run applies (helpers/target/target.ts `requestBudget`, 2,000 requests for a full run by default).
 */
const numRuns = (): number => (hasCapability('control') ? 12 * generativeDepth() : 4);
/** Longest PATCH sequence. */
const MAX_COMMANDS = 6;
/** Time budget of the whole property, shrinking included (ms). */
const TIME_BUDGET_MS = 25_000;
/** Requests after which no more are sent (bounds shrinking on a slow or live target). */
const requestBudget = (): number => (hasCapability('control') ? 400 * generativeDepth() : 100);
/** Lanes of runs side by side on a simulator, each on an assistant of its own (a live tenant: one lane, one fixture). */
const SIDE_BY_SIDE = 4;

const world = useWorld();
let client: ApiClient;
/** The assistant of each lane (one on a live tenant, where no more are made: no DELETE /assistants is stated). */
let laneAssistants: string[];
/** Requests of all lanes, counted against {@link requestBudget} (one budget shared by the lanes). */
let requests = 0;
/** A name that resolves to a public address, for serverUrl values (helpers/generate/hosts.ts); undefined when the target refuses it. */
let host: string | undefined;
/** Why serverUrl is only ever cleared in this run: the target refused a serverUrl on {@link host}. */
let hostRefused: string | undefined;

beforeAll(async () => {
  const w = world();
  client = w.as('tenantA');
  const lanes = w.control ? SIDE_BY_SIDE : 1;
  // Lane 1 keeps the fixture's name of a one-lane run; the others are made on a simulator only.
  laneAssistants = await Promise.all(
    Array.from({ length: lanes }, async (_, i) => (await assistantFixture(w, client, i ? `merge-model-lane${i + 1}` : 'merge-model')).id),
  );
  host = await publicHost(w, 'merge-model');
  // A live target whose DNS cannot see the public name refuses it (§2.3): no merge rule is then
  // judged on it, and the runs only ever clear serverUrl. Each run's baseline PATCHes undo the probe.
  // On a simulator nothing is probed: a refusal there fails the model's step.
  const refusal = await publicNameRefusal(client, laneAssistants[0], host);
  if (!hasCapability('control')) requests += 1;
  if (refusal) {
    hostRefused = `${refusal}: serverUrl values were only cleared`;
    host = undefined;
  }
});

function clausesOf(body: Record<string, unknown>): string[] {
  const ids = Object.keys(body).flatMap((k) => FIELD_CLAUSES[k] ?? FIELD_CLAUSES[`settings.${k}`] ?? []);
  return ids.length ? [...new Set(ids)] : ['4.1/omitted-unchanged'];
}

/** Sends one valid PATCH to assistant `id`; anything but 200 is a step failure of the fields' clauses. */
async function patch(id: string, body: Record<string, unknown>): Promise<void> {
  requests += 1;
  const res = await client.patch(`/assistants/${id}`, body);
  if (res.status !== 200)
    throw new StepFailure(
      `valid PATCH ${JSON.stringify(body)} answered ${res.status} ${res.json?.error?.code ?? ''} ${JSON.stringify(res.json?.error?.details ?? '')}`,
      clausesOf(body),
    );
}

/** Reads assistant `id` back and throws a step failure on every modelled field that differs from `model`. */
async function compare(id: string, model: MergeModel, after: string): Promise<void> {
  requests += 1;
  const res = await client.get(`/assistants/${id}`);
  if (res.status !== 200) throw new StepFailure(`GET after ${after} answered ${res.status}`, ['4.1/omitted-unchanged']);
  const mismatches = compareWithModel(model, res.json?.data);
  if (mismatches.length) {
    throw new StepFailure(`after ${after}:\n${mismatches.map((m) => `    ${m.field}: expected ${m.expected}, GET shows ${m.actual}`).join('\n')}`, [
      ...new Set(mismatches.flatMap((m) => m.clauses)),
    ]);
  }
}

/** What a run works on: the model, and the assistant of the run's lane (`id`). */
interface Holder {
  model: MergeModel;
  id: string;
}

/**
 * One PATCH of the sequence, applied to the target and to the model, then compared; `twice` sends
 * the same PATCH again (§8: a replayed PATCH converges): the model is applied once, and the GET
 * after each send must equal it.
 */
class PatchCommand implements fc.AsyncCommand<Holder, null> {
  constructor(
    readonly body: ModelPatch,
    readonly twice = false,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Holder): Promise<void> {
    await patch(m.id, this.body as Record<string, unknown>);
    m.model = applyPatch(m.model, this.body);
    await compare(m.id, m.model, `PATCH ${JSON.stringify(this.body)}`);
    if (!this.twice) return;
    await patch(m.id, this.body as Record<string, unknown>);
    await compare(m.id, m.model, `the same PATCH ${JSON.stringify(this.body)} again`);
  }
  toString(): string {
    return `PATCH ${JSON.stringify(this.body)}${this.twice ? '  # sent twice' : ''}`;
  }
}

/**
 * Two PATCHes of different fields sent at once (§4.1: each leaves the fields it omits unchanged,
 * so both writes stand, whichever lands last); the model applies both, and the GET after must equal it.
 */
class ConcurrentPatchesCommand implements fc.AsyncCommand<Holder, null> {
  constructor(
    readonly first: ModelPatch,
    readonly second: ModelPatch,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Holder): Promise<void> {
    await Promise.all([patch(m.id, this.first as Record<string, unknown>), patch(m.id, this.second as Record<string, unknown>)]);
    m.model = applyPatch(applyPatch(m.model, this.first), this.second);
    await compare(m.id, m.model, this.toString());
  }
  toString(): string {
    return `PATCH ${JSON.stringify(this.first)} and PATCH ${JSON.stringify(this.second)}, sent at once`;
  }
}

/** Two PATCHes over disjoint fields: a drawn PATCH split in two (each half non-empty). */
function disjointPatches(patches: fc.Arbitrary<ModelPatch>): fc.Arbitrary<[ModelPatch, ModelPatch]> {
  return patches
    .filter((p) => Object.keys(p).length >= 2)
    .map((p) => {
      const keys = Object.keys(p) as (keyof ModelPatch)[];
      const half = Math.ceil(keys.length / 2);
      const pick = (ks: (keyof ModelPatch)[]) => Object.fromEntries(ks.map((k) => [k, p[k]])) as ModelPatch;
      return [pick(keys.slice(0, half)), pick(keys.slice(half))];
    });
}

/**
 * Switch and switch back, set then clear: a PATCH, then a PATCH that puts back the values the
 * model held for the same fields before it (null where a document was cleared), each compared.
 */
class SwitchBackCommand implements fc.AsyncCommand<Holder, null> {
  private back: Record<string, unknown> = {};
  constructor(readonly body: ModelPatch) {}
  check(): boolean {
    return true;
  }
  async run(m: Holder): Promise<void> {
    this.back = restoring(m.model, this.body);
    await patch(m.id, this.body as Record<string, unknown>);
    m.model = applyPatch(m.model, this.body);
    await compare(m.id, m.model, `PATCH ${JSON.stringify(this.body)}`);
    await patch(m.id, this.back);
    m.model = applyPatch(m.model, this.back as ModelPatch);
    await compare(m.id, m.model, `PATCH ${JSON.stringify(this.back)} (back to the values before)`);
  }
  toString(): string {
    return `PATCH ${JSON.stringify(this.body)}, then PATCH ${JSON.stringify(this.back)}  # switch back`;
  }
}

/**
 * The PATCH that puts back what `model` holds for the fields `body` names: the same value, a
 * document as a whole (null when cleared; ivrSettings' keys the body adds sent as null), the
 * merged-into settings fields from `settings`.
 */
function restoring(model: MergeModel, body: ModelPatch): Record<string, unknown> {
  const back: Record<string, unknown> = {};
  const settings = model.settings as unknown as Record<string, unknown>;
  for (const k of Object.keys(body)) {
    if (k in settings && k !== 'conversationConfig') back[k] = settings[k];
    else if (k === 'ivrSettings') {
      const sent = (body.ivrSettings ?? {}) as Record<string, unknown>;
      back.ivrSettings = model.ivrSettings === null ? null : { ...Object.fromEntries(Object.keys(sent).map((x) => [x, null])), ...model.ivrSettings };
    } else back[k] = structuredClone((model as unknown as Record<string, unknown>)[k]);
  }
  return back;
}

/** The property of lane `lane`: random PATCH sequences on lane `lane`'s assistant alone, so the lanes' runs never share state. */
function laneProperty(lane: number) {
  const patches = patchArbitrary(host);
  const commands = [
    patches.map((b) => new PatchCommand(b)),
    patches.map((b) => new PatchCommand(b, true)),
    patches.map((b) => new SwitchBackCommand(b)),
    disjointPatches(patches).map(([a, b]) => new ConcurrentPatchesCommand(a, b)),
  ];
  return fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS }), async (cmds) => {
    if (requests >= requestBudget()) return; // budget spent: stop sending (shrinking ends with the smallest failure found so far)
    const holder: Holder = { model: initialModel(), id: laneAssistants[lane] };
    for (const b of BASELINE_PATCHES) await patch(holder.id, b);
    await compare(holder.id, holder.model, 'the baseline PATCHes');
    await fc.asyncModelRun(() => ({ model: holder, real: null }), cmds);
  });
}

clauseTest(
  MODEL_CLAUSES,
  'random sequences of valid PATCHes leave the target equal to the merge model after every step',
  async ({ verify }) => {
    const seed = readSeed('FC_SEED');
    const path = readEnv('FC_PATH');
    const params = { seed, path, numRuns: numRuns(), interruptAfterTimeLimit: TIME_BUDGET_MS, markInterruptAsFailure: false };
    const { details: out, numRuns: runs, interrupted } = await checkSideBySide(laneProperty, params, laneAssistants.length);
    // Leave the fixtures in the same state whatever the seed (a live fixture is compared across runs).
    await Promise.all(
      laneAssistants.map(async (id) => {
        for (const b of BASELINE_PATCHES) await client.patch(`/assistants/${id}`, b);
      }),
    );
    if (hostRefused) verify.inform('serverUrl values set on a public name', false, hostRefused);
    if (interrupted && !out.failed) {
      verify.inform('the property ran out of its time budget before all runs', false, `${runs} of ${numRuns()} runs in ${TIME_BUDGET_MS} ms (seed ${seed})`);
    }
    const err = out.errorInstance as unknown;
    const clauses = err instanceof StepFailure ? err.clauses : MODEL_CLAUSES;
    const replay = replayLine(out);
    if (out.failed) console.error(`merge-model: property failed (${replay})`);
    verify
      .on(clauses)
      .that(`after each PATCH of a random sequence the GET equals the model (${runs} runs, ${requests} requests, seed ${out.seed})`, !out.failed, {
        expected: 'the target agrees with the model after every step',
        actual: out.failed
          ? `${err instanceof Error ? err.message : String(err)}\n  shrunk sequence: ${out.counterexample ? String(out.counterexample[0]) : '?'}\n  ${replay}`
          : 'agreed',
      });
  },
  { timeout: 60_000 },
);
