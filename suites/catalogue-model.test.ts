/**
 * Model-based property test of the §4.5 catalogue state (issue 39, item 4): fast-check draws a
 * tool's first state (created with or without `textInstructions`) and sequences of tool PUTs (with
 * a new textInstructions, omitting it, with null; the same PUT twice; set, clear, then omit),
 * per-assistant voice and text overrides on two assistants (text description, step texts, empty
 * descriptions, deletes; every step set then one deleted; every step's sent at once), prompts made
 * of each named type and listed by type, and sweeps, one body per value class of the oracle
 * (helpers/generate/value-space.ts), of SMS reasons (§2.9, §4.3) and of text test suites across and
 * past their bounds (mode, up to 12 cases, iterations 1 to 10). Each command is applied to the
 * target and to the model of helpers/generate/catalogue-model.ts; every answer, and the override
 * reads of both assistants after every tool or override write, must be one the model allows. A
 * failure is shrunk to a minimal sequence and printed as a curl script (ids and keys as shell
 * variables). `FC_SEED` (and `FC_PATH`) replay a run; the seed is printed with every verdict.
 * `CORE_API_GENERATIVE_DEPTH` multiplies the sequences on a simulator. On a simulator the runs go
 * in {@link SIDE_BY_SIDE} lanes at once (helpers/generate/side-by-side.ts), each lane with two
 * assistants of its own and every run with a tool of its own; a live tenant keeps one lane.
 *
 * On a live tenant, nothing is made that cannot be found again or cleaned up: the tool is the
 * fixture of helpers/world/fixtures.ts `toolFixture` (made once, as every live fixture, and PUT back,
 * with the overrides of both assistants cleared, at the end); prompts are only listed, and those
 * suites/tools-prompts-catalogues.test.ts keeps are found by name (none is made here); SMS
 * reasons (no DELETE) only with CORE_API_ALLOW_SMS_REASONS=1, at most {@link LIVE_SMS_REASONS};
 * test suites (no DELETE) only those the spec makes the target refuse at creation (mode, more than
 * 12 cases), a wrongly created one deleted where the target serves a DELETE. Bounded by
 * {@link requestBudget}.
 * Assumed names (bodies not shown): tool `{ name, instruction, textInstructions }`, steps
 * `{ title, description }`, override bodies `{ description }`, prompt `{ name, type, content }`,
 * suite `{ name, assistantId, mode, cases, iterations }` with cases `{ name, message }`.
 */
import fc from 'fast-check';
import { StepFailure, replayLine } from '../helpers/generate/step-failure';
import { beforeAll } from 'vitest';
import { readEnv, readSeed } from '../helpers/base/env';
import { checkSideBySide } from '../helpers/generate/side-by-side';
import { useWorld } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { assistantFixture, toolFixture } from '../helpers/world/fixtures';
import { liveName } from '../helpers/live/lanes';
import type { ApiClient, ApiResponse } from '../helpers/http/client';
import { capabilityReason, hasCapability, readTargetConfig } from '../helpers/target/target';
import { generativeDepth } from '../helpers/generate/depth';
import { rowsOf } from '../helpers/spec/shapes';
import { describeActual, describeReading, getAt, readingHolds } from '../helpers/generate/paths';
import { ORACLE } from '../helpers/generate/oracle-table';
import type { OracleRow } from '../helpers/generate/oracle';
import { classesFor, enumClasses, integerClasses } from '../helpers/generate/value-space';
import { render } from '../helpers/base/values';
import {
  applyOverride,
  applyToolPut,
  CATALOGUE_MODEL_CLAUSES,
  initialCatalogue,
  judgeBody,
  judgePromptList,
  judgeTextRead,
  judgeTool,
  mustAccept,
  PROMPT_TYPES,
  stepIdsOf,
  type Breach,
  type CatalogueModel,
  type Doc,
  type OverrideWrite,
  type PromptType,
} from '../helpers/generate/catalogue-model';

/** Sequences per run on a simulator (times `CORE_API_GENERATIVE_DEPTH`), and on a live tenant. */
const SIM_RUNS = 12;
const LIVE_RUNS = 2;
/** Longest command sequence. */
const MAX_COMMANDS = 8;
/** Time budget of the whole property, shrinking included (ms). */
const TIME_BUDGET_MS = 25_000;
/** SMS reasons a live run may leave behind (each needs CORE_API_ALLOW_SMS_REASONS=1: they cannot be deleted, §4.5). */
const LIVE_SMS_REASONS = 2;
/** Requests after which no further run is sent (bounds shrinking on a slow or live target). */
const requestBudget = (): number => (hasCapability('control') ? 600 * generativeDepth() : 150);
/**
 * Lanes of runs side by side on a simulator, each with two assistants of its own (a live tenant: one
 * lane, its fixtures): a lane per run, since runs differ up to twentyfold in requests (3 to about 70:
 * a sweep of value classes sends some 15 bodies in a row), and a lane of several runs would
 * often hold most of the file's requests in a row.
 */
const SIDE_BY_SIDE = SIM_RUNS;

const NO_5XX = '7/no-server-error-on-input';
const SMS_ROWS = ORACLE.filter((r) => r.operation === 'POST /sms-reasons');
const SUITE_ROWS = ORACLE.filter((r) => r.operation === 'POST /test-suites');
const SMS_CLAUSES = ['4.3/sms-reason-echo', '2.9/sms-reason-request-optional', '4.3/sms-reason-nine-fields'];
const SUITE_CLAUSES = [
  '4.5/test-suite-mode-text-only',
  '4.5/test-suite-max-cases',
  '8/limit-test-suite-cases',
  '4.5/test-suite-iterations',
  '8/limit-test-iterations',
];
/**
 * Every clause the test declares on this target (a breach citing another is recorded on the first
 * of its area): a live tenant makes no prompt, sends no suite whose iterations decide, and SMS
 * reasons only with their opt-in, so their clauses are not claimed there.
 */
const DECLARED = ((): string[] => {
  const caps = readTargetConfig().capabilities;
  const all = [...CATALOGUE_MODEL_CLAUSES, ...SMS_CLAUSES, ...SUITE_CLAUSES, NO_5XX];
  return all.filter((c) => (caps.control || (c !== '4.5/prompt-types' && !c.includes('iterations'))) && (caps.smsReasons || !SMS_CLAUSES.includes(c)));
})();

const world = useWorld();
let client: ApiClient;
/** Each lane's two assistants (one lane on a live tenant, where no more are made: no DELETE /assistants is stated). */
let laneAssistants: (readonly [string, string])[];
/** The live tool fixture's id and name (undefined on a simulator, where each run makes its own tool). */
let liveTool: { id: string; name: string } | undefined;
/** The prompts found on a live tenant, by type (the fixtures of suites/tools-prompts-catalogues.test.ts). */
const livePrompts: Partial<Record<PromptType, string>> = {};
/** Requests of all lanes, counted against {@link requestBudget} (one budget shared by the lanes). */
let requests = 0;
/** SMS reasons sent (bounded on a live tenant only, where one lane runs). */
let smsReasonsMade = 0;
/** The clauses some command of the property judged: a passing verdict is recorded on these only (a live run leaves some out). */
const exercised = new Set<string>();
/** A counter that makes every override text unique (in every lane), so a text read back names one write. */
let seq = 0;

beforeAll(async () => {
  const w = world();
  client = w.as('tenantA');
  // Lane 1 keeps the fixtures' names of a one-lane run; the other lanes are made on a simulator only.
  const pair = async (lane: number) => {
    const purpose = (k: number) => (lane ? `catalogue-model-lane${lane + 1}-${k}` : `catalogue-model-${k}`);
    return [(await assistantFixture(w, client, purpose(1))).id, (await assistantFixture(w, client, purpose(2))).id] as const;
  };
  laneAssistants = await Promise.all(Array.from({ length: w.control ? SIDE_BY_SIDE : 1 }, (_, lane) => pair(lane)));
  if (w.control) return;
  const own = laneAssistants[0];
  const made = await toolFixture(w, client, 'catalogue-model', { instruction: DEFAULT_DOC, textInstructions: null }, () => [...own]);
  liveTool = { id: made.id, name: made.body.name };
  for (const a of own) await client.patch(`/assistants/${a}`, { toolIds: [made.id] });
  // Prompts have no DELETE (§4.5): none is made here; those suites/tools-prompts-catalogues.test.ts keeps are found by name, when there.
  for (const type of PROMPT_TYPES) {
    const list = await client.get('/prompts', { query: { type } });
    const found = rowsOf(list.json?.data).find((r) => r?.name === liveName(`prompt-${type}`) && r?.type === type);
    if (typeof found?.id === 'string') livePrompts[type] = found.id;
  }
});

const DEFAULT_DOC: Doc = { title: 'Catalogue model', description: 'A tool of the catalogue model.', steps: [{ title: 'Ask', description: 'Ask.' }] };

/** Notes clauses a command judges now (see {@link exercised}). */
function exercise(...clauses: string[]): void {
  for (const c of clauses) exercised.add(c);
}

/** Throws the breaches of one step, if any. */
function fail(what: string, breaches: Breach[]): void {
  if (breaches.length)
    throw new StepFailure(`${what}:\n      ${breaches.map((b) => b.words).join('\n      ')}`, [...new Set(breaches.flatMap((b) => b.clauses))]);
}

/** What each run works on: the tool's id and name, and its lane's two assistants, `pair` (ids never printed; the curl script names them as variables). */
interface Real {
  toolId: string;
  toolName: string;
  pair: readonly [string, string];
}

/** Sends one request of the property, counted against {@link requestBudget}. */
async function send(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, query?: Record<string, string>): Promise<ApiResponse> {
  requests += 1;
  if (method === 'GET') return client.get(path, { query });
  if (method === 'DELETE') return client.delete(path);
  return method === 'POST' ? client.post(path, body) : method === 'PUT' ? client.put(path, body) : client.patch(path, body);
}

const ok = (res: ApiResponse) => res.status >= 200 && res.status < 300;
const answer = (res: ApiResponse) => `${res.status} ${res.json?.error?.code ?? ''}`.trim();
/** `text` as one single-quoted shell word. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** One request as a curl line, ids as shell variables. */
function curl(method: string, path: string, body?: unknown): string {
  const line = `curl -X ${method} "$CORE_API_BASE_URL${path}" -H "Authorization: ApiKey $KEY_A"`;
  return body === undefined ? line : `${line} -H 'Content-Type: application/json' --data-binary ${shellWord(JSON.stringify(body))}`;
}
const A = (a: 0 | 1) => `$ASSISTANT_${a + 1}`;

/** Reads the text override of both assistants and judges each with the model (§4.5). */
async function readOverrides(m: CatalogueModel, r: Real, after: string): Promise<void> {
  exercise('4.5/tool-overrides-independent', '4.5/tool-overrides-per-assistant', ...(m.emptyWritten ? ['4.5/tool-empty-description-restores'] : []));
  for (const a of [0, 1] as const) {
    const res = await send('GET', `/assistants/${r.pair[a]}/tools/${r.toolId}/text-override`);
    fail(`${after}, then ${curl('GET', `/assistants/${A(a)}/tools/$TOOL/text-override`)}`, judgeTextRead(m, a, res.status, res.json?.data));
  }
}

/** The clause a refused tool PUT breaks, by what it did with textInstructions. */
function putClause(text: Doc | null | undefined): string {
  if (text === undefined) return '4.5/tool-put-keeps-text-instructions';
  return text === null ? '4.5/tool-put-null-removes-text-instructions' : '4.5/tool-instruction-shape';
}

/** `PUT /tools/{id}` with `instruction` and textInstructions a document, null, or omitted; `times` 2 sends it again (§8: a replayed PUT converges). */
class PutTool implements fc.AsyncCommand<CatalogueModel, Real> {
  constructor(
    readonly instruction: Doc,
    readonly text: Doc | null | undefined,
    readonly times: 1 | 2 = 1,
  ) {}
  check(): boolean {
    return true;
  }
  body(name = '$NAME'): Record<string, unknown> {
    return { name, instruction: this.instruction, ...(this.text === undefined ? {} : { textInstructions: this.text }) };
  }
  async run(m: CatalogueModel, r: Real): Promise<void> {
    for (let k = 0; k < this.times; k += 1) {
      const res = await send('PUT', `/tools/${r.toolId}`, this.body(r.toolName));
      exercise('4.5/tool-instruction-shape', putClause(this.text), ...(k ? ['8/put-replay-converges'] : []));
      const what = `${k ? 'again: ' : ''}${curl('PUT', '/tools/$TOOL', this.body())}`;
      if (!ok(res)) fail(what, [{ words: `answered ${answer(res)}, expected 2xx`, clauses: [putClause(this.text)] }]);
      applyToolPut(m, this.instruction, this.text, stepIdsOf(res.json?.data));
      const breaches = judgeTool(m, res.json?.data);
      fail(what, k ? breaches.map((b) => ({ ...b, clauses: ['8/put-replay-converges', ...b.clauses] })) : breaches);
    }
    await readOverrides(m, r, `after ${this.toString()}`);
  }
  toString(): string {
    return `${curl('PUT', '/tools/$TOOL', this.body())}${this.times > 1 ? '   # sent twice' : ''}`;
  }
}

/** Set, then clear, then omit: PUT textInstructions `doc`, PUT it null, PUT without it (it stays removed). */
class SetThenClear implements fc.AsyncCommand<CatalogueModel, Real> {
  private readonly steps: PutTool[];
  constructor(instruction: Doc, doc: Doc) {
    this.steps = [new PutTool(instruction, doc), new PutTool(instruction, null), new PutTool(instruction, undefined)];
  }
  check(): boolean {
    return true;
  }
  async run(m: CatalogueModel, r: Real): Promise<void> {
    for (const s of this.steps) await s.run(m, r);
  }
  toString(): string {
    return this.steps.map(String).join('\n    ');
  }
}

/** The route and body of an override write (override bodies assumed `{ description }`). */
function overrideRequest(w: OverrideWrite, stepId: string): { method: 'PUT' | 'DELETE'; path: string; body?: unknown } {
  switch (w.route) {
    case 'text-description':
      return { method: 'PUT', path: 'text-description-override', body: { description: w.text } };
    case 'voice-description':
      return { method: 'PUT', path: 'description-override', body: { description: w.text } };
    case 'step':
      return { method: 'PUT', path: `steps/${stepId}/text-override`, body: { description: w.text } };
    case 'delete-step':
      return { method: 'DELETE', path: `steps/${stepId}/text-override` };
    case 'delete-text':
      return { method: 'DELETE', path: 'text-override' };
  }
}

/** The override write of kind `route` with a drawn text (made unique at run time) or '' (restores the default). */
interface Drawn {
  route: OverrideWrite['route'];
  step: number;
  text: string;
}

/** One per-assistant override write of assistant `a`, then both assistants' reads. */
class Override implements fc.AsyncCommand<CatalogueModel, Real> {
  private write: OverrideWrite;
  constructor(
    readonly a: 0 | 1,
    readonly drawn: Drawn,
  ) {
    this.write = this.made(drawn.text);
  }
  private made(text: string): OverrideWrite {
    const { route, step } = this.drawn;
    if (route === 'delete-text') return { route };
    if (route === 'delete-step') return { route, step };
    return route === 'step' ? { route, step, text } : { route, text };
  }
  check(m: Readonly<CatalogueModel>): boolean {
    return !('step' in this.write) || this.drawn.step < m.tool.stepIds.length;
  }
  async run(m: CatalogueModel, r: Real): Promise<void> {
    await this.send(m, r);
    await readOverrides(m, r, `after ${this.toString()}`);
  }
  /** Sends the write (its text made unique now) and applies what the answer allows to the model; no read. */
  async send(m: CatalogueModel, r: Real): Promise<void> {
    seq += 1;
    this.write = this.made(this.drawn.text === '' ? '' : `${this.drawn.text} ·${seq}`);
    const stepId = 'step' in this.write ? m.tool.stepIds[this.write.step] : '';
    const req = overrideRequest(this.write, stepId);
    const res = await send(req.method, `/assistants/${r.pair[this.a]}/tools/${r.toolId}/${req.path}`, req.body);
    const must = mustAccept(m, this.write);
    const deleted = req.method === 'DELETE' && res.status === 404;
    const clause = 'text' in this.write && this.write.text === '' ? '4.5/tool-empty-description-restores' : '4.5/tool-overrides-independent';
    if (res.status >= 500 || (must && !ok(res) && !deleted))
      fail(this.toString(), [{ words: `answered ${answer(res)}, expected 2xx${req.method === 'DELETE' ? ' or 404' : ''}`, clauses: [clause] }]);
    if (ok(res) || deleted) applyOverride(m, this.a, this.write);
  }
  toString(): string {
    const req = overrideRequest(this.write, `$STEP_${'step' in this.write ? this.write.step + 1 : 0}`);
    return curl(req.method, `/assistants/${A(this.a)}/tools/$TOOL/${req.path}`, req.body);
  }
}

/** `POST /prompts` of `type` (§4.5, simulators only: no DELETE is shown), then the list of that type. */
class CreatePrompt implements fc.AsyncCommand<CatalogueModel, Real> {
  constructor(readonly type: PromptType) {}
  check(): boolean {
    return true;
  }
  body(): Record<string, unknown> {
    return { name: `catalogue-model ${this.type}`, type: this.type, content: `You are a ${this.type} prompt.` };
  }
  async run(m: CatalogueModel): Promise<void> {
    const res = await send('POST', '/prompts', this.body());
    exercise('4.5/prompt-types');
    const data = res.json?.data;
    if (!ok(res) || data?.type !== this.type || typeof data?.id !== 'string')
      fail(this.toString(), [
        { words: `answered ${answer(res)} with type ${render(data?.type)}: expected 2xx, the type sent and an id`, clauses: ['4.5/prompt-types'] },
      ]);
    m.prompts[this.type].push(data.id);
    await new ListPrompts(this.type).run(m);
  }
  toString(): string {
    return curl('POST', '/prompts', this.body());
  }
}

/** `GET /prompts?type=`: every prompt of the run of that type listed, none of another (§4.5). */
class ListPrompts implements fc.AsyncCommand<CatalogueModel, Real> {
  constructor(readonly type: PromptType) {}
  check(): boolean {
    return true;
  }
  async run(m: CatalogueModel): Promise<void> {
    const res = await send('GET', '/prompts', undefined, { type: this.type });
    if (PROMPT_TYPES.some((t) => m.prompts[t].length)) exercise('4.5/prompt-filter-by-type');
    if (res.status !== 200) fail(this.toString(), [{ words: `answered ${answer(res)}, expected 200`, clauses: ['4.5/prompt-filter-by-type'] }]);
    fail(this.toString(), judgePromptList(m, this.type, rowsOf(res.json?.data)));
  }
  toString(): string {
    return curl('GET', `/prompts?type=${this.type}`);
  }
}

/** A breach of `clauses` for a drawn body: the words, the oracle's rules and the body. */
const bodyBreach = (words: string, clauses: string[], rules: string[]): Breach => ({ words: `${words}; the oracle: ${rules.join('; ') || '-'}`, clauses });

/**
 * `POST /sms-reasons` with fields drawn from the oracle's value classes (§2.9, §4.3): accepted
 * exactly when the oracle allows, and each accepted value read back in the answer as it says. An
 * `assistantId` of the run's own assistant is accepted and echoed.
 */
class SmsReason implements fc.AsyncCommand<CatalogueModel, Real> {
  constructor(readonly drawn: Record<string, unknown>) {}
  check(): boolean {
    return hasCapability('control') || smsReasonsMade < LIVE_SMS_REASONS;
  }
  body(own = '$ASSISTANT_1'): Record<string, unknown> {
    return this.drawn.assistantId === OWN ? { ...this.drawn, assistantId: own } : this.drawn;
  }
  async run(_m: CatalogueModel, r: Real): Promise<void> {
    const body = this.body(r.pair[0]);
    const { assistantId, ...judged } = body;
    const j = judgeBody(SMS_ROWS, this.drawn.assistantId === OWN ? judged : body);
    if (this.drawn.assistantId === OWN)
      j.reads.push({ field: 'assistantId', reading: { kind: 'equals', value: assistantId }, clauses: ['4.3/sms-reason-echo'] });
    smsReasonsMade += 1;
    const res = await send('POST', '/sms-reasons', body);
    exercise(...SMS_CLAUSES, NO_5XX);
    // What the answer shows of a value sent is the echo clause's (§4.3); acceptance is the oracle's.
    fail(this.toString(), judgeAnswer(res, { ...j, reads: j.reads.map((x) => ({ ...x, clauses: ['4.3/sms-reason-echo'] })) }, SMS_CLAUSES));
  }
  toString(): string {
    return curl('POST', '/sms-reasons', this.body());
  }
}

/** The sentinel a drawn SMS reason holds for the run's own assistant id. */
const OWN = '$ASSISTANT_1';

/** An answer judged against a body's judgement: 5xx never; accepted when it must be, refused when it must be; accepted values read back. */
function judgeAnswer(res: ApiResponse, j: ReturnType<typeof judgeBody>, fallback: string[]): Breach[] {
  const clauses = j.clauses.length ? j.clauses : fallback;
  if (res.status >= 500) return [bodyBreach(`answered ${answer(res)}`, [NO_5XX, ...clauses], j.rules)];
  if (j.verdict === 'accept' && !ok(res)) return [bodyBreach(`refused with ${answer(res)}, must be accepted`, clauses, j.rules)];
  if (j.verdict === 'refuse' && ok(res)) return [bodyBreach(`accepted (${res.status}), must be refused`, clauses, j.rules)];
  if (!ok(res)) return res.status >= 400 && res.status < 500 ? [] : [bodyBreach(`answered ${answer(res)}, not a 4xx refusal`, clauses, j.rules)];
  const data = res.json?.data;
  return j.reads
    .filter((x) => !readingHolds(x.reading, getAt(data, [x.field])))
    .map((x) => ({ words: `data.${x.field} reads ${describeActual(getAt(data, [x.field]))}, expected ${describeReading(x.reading)}`, clauses: x.clauses }));
}

/** A drawn suite body (without name and assistantId): mode, how many cases, iterations (omitted when undefined). */
interface SuiteDraw {
  mode: unknown;
  cases: number;
  iterations?: unknown;
}

/**
 * `POST /test-suites` drawn across and past its bounds (§4.5, §8): `mode` text only, up to 12
 * cases, iterations 1 to 10. Refused when the oracle refuses (iterations out of bounds may instead
 * be refused at the run, where the other reading puts them); accepted when every field is
 * accepted, unless the target refuses only the assumed case shape (not shown).
 */
class Suite implements fc.AsyncCommand<CatalogueModel, Real> {
  constructor(readonly d: SuiteDraw) {}
  check(): boolean {
    return hasCapability('control') || this.certainRefusal();
  }
  /** Whether the target must refuse the body at creation: mode or cases (iterations may be refused at the run instead). */
  certainRefusal(): boolean {
    return judgeBody(SUITE_ROWS, { mode: this.d.mode, cases: casesOf(this.d.cases) }).verdict === 'refuse';
  }
  body(own = '$ASSISTANT_1'): Record<string, unknown> {
    const { mode, cases, iterations } = this.d;
    return { name: 'catalogue-model suite', assistantId: own, mode, cases: casesOf(cases), ...(iterations === undefined ? {} : { iterations }) };
  }
  async run(_m: CatalogueModel, r: Real): Promise<void> {
    const body = this.body(r.pair[0]);
    const { name: _n, assistantId: _a, ...judged } = body;
    const j = judgeBody(SUITE_ROWS, judged);
    const res = await send('POST', '/test-suites', body);
    exercise(...j.clauses.filter((c) => SUITE_CLAUSES.includes(c)), NO_5XX);
    const caseShape = !ok(res) && detailsOnlyCases(res);
    if (ok(res) && !hasCapability('control')) forget(res);
    if (ok(res) && j.verdict === 'refuse' && !this.certainRefusal()) return this.atTheRun(res, j);
    // The case shape is not shown (the oracle leaves `cases` open): 1 to 12 cases of the assumed shape must be taken unless the target names only them.
    const rest = judgeBody(
      SUITE_ROWS.filter((r) => r.path[0] !== 'cases'),
      judged,
    );
    const promoted = j.verdict === 'either' && rest.verdict === 'accept' && this.d.cases >= 1 && !caseShape;
    const judgement = promoted ? { ...rest, verdict: 'accept' as const } : j;
    fail(this.toString(), judgeAnswer(res, judgement, SUITE_CLAUSES));
    if (ok(res) && typeof res.json?.data?.id !== 'string')
      fail(this.toString(), [{ words: 'the suite answered carries no id', clauses: ['4.5/test-suite-mode-text-only'] }]);
  }
  /** Iterations out of bounds taken at creation: the run must refuse them with 400 (needs model usage; unjudged without it). */
  private async atTheRun(res: ApiResponse, j: ReturnType<typeof judgeBody>): Promise<void> {
    if (!hasCapability('modelUsage') || typeof res.json?.data?.id !== 'string') return;
    const run = await send('POST', `/test-suites/${res.json.data.id}/run`, { iterations: this.d.iterations });
    if (run.status !== 400)
      fail(`${this.toString()}, then its run`, [bodyBreach(`iterations taken at creation, and the run answered ${answer(run)}, not 400`, j.clauses, j.rules)]);
  }
  toString(): string {
    return curl('POST', '/test-suites', this.body());
  }
}

/** `n` text cases in the assumed shape. */
function casesOf(n: number): { name: string; message: string }[] {
  return Array.from({ length: n }, (_, i) => ({ name: `case ${i + 1}`, message: `Question ${i + 1}: what are your opening hours?` }));
}

/** Whether a 400 names only fields under `cases` (the case shape is not shown: the target refused the assumed one). */
function detailsOnlyCases(res: ApiResponse): boolean {
  const details: unknown[] = Array.isArray(res.json?.error?.details) ? res.json.error.details : [];
  return res.status === 400 && details.length > 0 && details.every((d) => /^cases?[.[]/.test(String((d as { field?: unknown })?.field)));
}

/** On a live tenant, a suite the target wrongly created is deleted if the target serves a DELETE (none is shown). */
function forget(res: ApiResponse): void {
  const id = res.json?.data?.id;
  if (typeof id === 'string') world().cleanup.add(`delete test suite ${id}`, () => client.delete(`/test-suites/${id}`).catch(() => undefined));
}

/**
 * Text for documents and overrides: Unicode graphemes (accents, scripts, emoji) without control
 * or format characters and without blanks at either end, `1` to `max` graphemes.
 */
const text = (max: number) =>
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }).map((s) => s.replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu, '').trim() || 'x');
const doc: fc.Arbitrary<Doc> = fc.record({
  title: text(12),
  description: text(24),
  steps: fc.array(fc.record({ title: text(8), description: text(16) }), { minLength: 2, maxLength: 3 }),
});
const assistant = fc.constantFrom<0 | 1>(0, 1);
const drawnWrite: fc.Arbitrary<Drawn> = fc
  .record({
    route: fc.constantFrom<Drawn['route']>('text-description', 'text-description', 'voice-description', 'step', 'step', 'delete-step', 'delete-text'),
    step: fc.nat({ max: 2 }),
    text: fc.oneof({ weight: 4, arbitrary: text(16) }, { weight: 1, arbitrary: fc.constant('') }),
  })
  .map((d) => (d.route === 'step' && d.text === '' ? { ...d, text: 'x' } : d));

/** Host names for the value classes of a URL (no row drawn here is one). */
const HOSTS = { public: 'example.com' };
const rowOf = (rows: readonly OracleRow[], path: string) => rows.find((r) => r.path[0] === path)!;

/**
 * One body per value class of the SMS reason's fields (helpers/generate/value-space.ts): the four
 * texts drawn from one class at a time with the run's assistant, each class of `assistantId`, the
 * empty body, and drawn `properties`. The Unicode class first: a live run sends only the first
 * {@link LIVE_SMS_REASONS}.
 */
const smsSweep: fc.Arbitrary<SmsReason[]> = fc
  .tuple(
    fc.tuple(...classesFor(rowOf(SMS_ROWS, 'name'), HOSTS).map((c) => fc.tuple(c.arb, c.arb, c.arb, c.arb))),
    fc.tuple(...classesFor(rowOf(SMS_ROWS, 'assistantId'), HOSTS).map((c) => c.arb)),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([texts, ids, properties]) => {
    const byClass = texts.map(([name, reason, message, content]) => ({ name, reason, message, content, assistantId: OWN }));
    const byId = ids.map((assistantId) => ({ name: 'catalogue model', assistantId }));
    return [byClass[1], {}, byClass[0], ...byClass.slice(2), ...byId, { assistantId: OWN, properties }].map((b) => new SmsReason(b));
  });

/**
 * Suite bodies across and past their bounds, one field at a time on an otherwise valid body: each
 * value class of `mode` (null aside: a server may read it as the field left out, mode text, its
 * default) and of `iterations`, iterations left out, and 0, 12, 13 and a drawn number of cases.
 */
const suiteSweep: fc.Arbitrary<Suite[]> = fc
  .tuple(
    fc.tuple(...enumClasses(['text', 'voice']).map((c) => c.arb.filter((v) => v !== null))),
    fc.tuple(...integerClasses(1, 10, false).map((c) => c.arb)),
    fc.integer({ min: 0, max: 15 }),
    fc.integer({ min: 1, max: 10 }),
    fc.integer({ min: 1, max: 12 }),
    // A fraction within the bounds (the class of fractions mostly draws ones near 0).
    fc.tuple(fc.integer({ min: 1, max: 9 }), fc.double({ min: 0.01, max: 0.99, noNaN: true })).map(([i, d]) => i + d),
  )
  .map(([modes, its, n, k, c, f]) =>
    [
      ...modes.map((mode) => ({ mode, cases: c, iterations: k })),
      ...[...its, f].map((iterations) => ({ mode: 'text', cases: c, iterations })),
      { mode: 'text', cases: c },
      ...[0, 12, 13, n].map((cases) => ({ mode: 'text', cases, iterations: k })),
    ].map((d) => new Suite(d)),
  );

/** Several bodies of one route in a row (a sweep over value classes); those a live tenant may not be sent are passed over. */
class Sweep implements fc.AsyncCommand<CatalogueModel, Real> {
  private sent: (SmsReason | Suite)[] = [];
  constructor(readonly items: (SmsReason | Suite)[]) {}
  check(): boolean {
    return this.items.some((i) => i.check());
  }
  async run(m: CatalogueModel, r: Real): Promise<void> {
    this.sent = [];
    for (const i of this.items) {
      if (!i.check()) continue;
      this.sent.push(i);
      await i.run(m, r);
    }
  }
  toString(): string {
    return (this.sent.length ? this.sent : this.items).map(String).join('\n    ');
  }
}

/**
 * Text overrides of every step of the tool sent at once (a step each; each is its own resource,
 * §4.5), and one text description of the other assistant with them: every write stands, whichever
 * lands last.
 */
class AtOnce implements fc.AsyncCommand<CatalogueModel, Real> {
  private done: Override[] = [];
  constructor(
    readonly a: 0 | 1,
    readonly texts: string[],
  ) {}
  check(m: Readonly<CatalogueModel>): boolean {
    return m.tool.stepIds.length > 1;
  }
  async run(m: CatalogueModel, r: Real): Promise<void> {
    const other = (1 - this.a) as 0 | 1;
    this.done = [
      ...this.texts.slice(0, m.tool.stepIds.length).map((text, step) => new Override(this.a, { route: 'step', step, text })),
      new Override(other, { route: 'text-description', step: 0, text: this.texts[this.texts.length - 1] }),
    ];
    await Promise.all(this.done.map((o) => o.send(m, r)));
    await readOverrides(m, r, `after ${this.toString()}`);
  }
  toString(): string {
    const lines = this.done.map((o) => `${String(o)} &`);
    return lines.length ? `${lines.join('\n    ')}\n    wait   # sent at once` : '# a text override on each step, sent at once';
  }
}

/**
 * Set, then clear, step by step: a text override on every step of the tool's textInstructions (one
 * drawn text each), then a DELETE of one of them; the others stay (§4.5).
 */
class StepsThenDelete implements fc.AsyncCommand<CatalogueModel, Real> {
  private done: Override[] = [];
  constructor(
    readonly a: 0 | 1,
    readonly texts: string[],
    readonly which: number,
  ) {}
  check(m: Readonly<CatalogueModel>): boolean {
    return m.tool.stepIds.length > 0;
  }
  async run(m: CatalogueModel, r: Real): Promise<void> {
    const n = m.tool.stepIds.length;
    this.done = [
      ...this.texts.slice(0, n).map((text, step) => new Override(this.a, { route: 'step', step, text })),
      new Override(this.a, { route: 'delete-step', step: this.which % n, text: '' }),
    ];
    for (const o of this.done) await o.run(m, r);
  }
  toString(): string {
    return this.done.length ? this.done.map(String).join('\n    ') : `# a text override on each step of $ASSISTANT_${this.a + 1}, then one deleted`;
  }
}

/** The commands a target may be sent: all on a simulator; on a live tenant none that leaves what cannot be found or deleted. */
function commands(): fc.Arbitrary<fc.AsyncCommand<CatalogueModel, Real>>[] {
  const sim = hasCapability('control');
  const putText = fc.oneof(doc, fc.constant(null), fc.constant(undefined));
  const steps = fc.tuple(assistant, fc.array(text(16), { minLength: 3, maxLength: 3 }), fc.nat({ max: 2 })).map(([a, t, w]) => new StepsThenDelete(a, t, w));
  const out: fc.Arbitrary<fc.AsyncCommand<CatalogueModel, Real>>[] = [
    fc.tuple(doc, putText, fc.constantFrom<1 | 2>(1, 1, 2)).map(([i, t, n]) => new PutTool(i, t, n)),
    fc.tuple(doc, doc).map(([i, t]) => new SetThenClear(i, t)),
    fc.tuple(assistant, drawnWrite).map(([a, d]) => new Override(a, d)),
    fc.tuple(assistant, drawnWrite).map(([a, d]) => new Override(a, d)),
    steps,
    steps,
    fc.tuple(assistant, fc.array(text(16), { minLength: 4, maxLength: 4 })).map(([a, t]) => new AtOnce(a, t)),
    fc.constantFrom(...PROMPT_TYPES).map((t) => new ListPrompts(t)),
    suiteSweep.map((items) => new Sweep(sim ? items : items.filter((s) => s.certainRefusal()))),
  ];
  if (sim) out.push(fc.constantFrom(...PROMPT_TYPES).map((t) => new CreatePrompt(t)));
  if (hasCapability('smsReasons')) out.push(smsSweep.map((items) => new Sweep(items)));
  return out;
}

/** The tool's first state: created by POST (simulator; without textInstructions when null) or PUT onto the live fixture. */
interface Start {
  instruction: Doc;
  text: Doc | null;
  toString(): string;
}

/** Puts the run's tool in its first state, on the lane's `assistants`, and answers the model of it, the created or PUT answer judged first. */
async function begin(start: Start, assistants: readonly [string, string]): Promise<{ model: CatalogueModel; real: Real }> {
  const body = { instruction: start.instruction, ...(start.text ? { textInstructions: start.text } : {}) };
  const res = liveTool
    ? await send('PUT', `/tools/${liveTool.id}`, { name: liveTool.name, ...body, textInstructions: start.text })
    : await send('POST', '/tools', { name: `${world().runPrefix}catalogue-model`, ...body });
  if (!ok(res) || typeof (liveTool?.id ?? res.json?.data?.id) !== 'string')
    fail(start.toString(), [{ words: `answered ${answer(res)}, expected 2xx with the tool`, clauses: ['4.5/tool-instruction-shape'] }]);
  const real = { toolId: liveTool?.id ?? res.json.data.id, toolName: liveTool?.name ?? res.json.data.name ?? 'catalogue-model', pair: assistants };
  const model = initialCatalogue(start.instruction, start.text, stepIdsOf(res.json?.data));
  exercise('4.5/tool-instruction-shape');
  fail(start.toString(), judgeTool(model, res.json?.data));
  if (!liveTool) await Promise.all(assistants.map((a) => send('PATCH', `/assistants/${a}`, { toolIds: [real.toolId] })));
  for (const t of PROMPT_TYPES) if (livePrompts[t]) model.prompts[t].push(livePrompts[t]!);
  return { model, real };
}

const start: fc.Arbitrary<Start> = fc.tuple(doc, fc.option(doc, { nil: null })).map(([instruction, t]) => ({
  instruction,
  text: t,
  toString: () =>
    liveTool
      ? curl('PUT', '/tools/$TOOL', { name: '$NAME', instruction, textInstructions: t })
      : curl('POST', '/tools', { name: '$NAME', instruction, ...(t ? { textInstructions: t } : {}) }),
}));

clauseTest(
  DECLARED,
  'random sequences of tool PUTs, per-assistant overrides, prompts, SMS reasons and text suites agree with the catalogue model',
  async ({ verify }) => {
    const seed = readSeed('FC_SEED');
    const sim = hasCapability('control');
    // The property of lane i works on lane i's assistants alone (and a tool of each run's own): the lanes never share state.
    const property = (lane: number) =>
      fc.asyncProperty(start, fc.commands(commands(), { maxCommands: MAX_COMMANDS }), async (first, cmds) => {
        if (requests >= requestBudget()) return; // budget spent: no more requests (shrinking ends with the smallest failure so far)
        const { model, real } = await begin(first, laneAssistants[lane]);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      });
    const params = { seed, path: readEnv('FC_PATH'), numRuns: sim ? SIM_RUNS * generativeDepth() : LIVE_RUNS };
    const { details: out, numRuns } = await checkSideBySide(
      property,
      { ...params, interruptAfterTimeLimit: TIME_BUDGET_MS, markInterruptAsFailure: false },
      laneAssistants.length,
    );
    if (!hasCapability('smsReasons')) verify.inform('SMS reason commands left out', true, capabilityReason('smsReasons'));
    const err = out.errorInstance as unknown;
    const clauses = err instanceof StepFailure ? declaredOf(err.clauses) : DECLARED.filter((c) => exercised.has(c));
    const replay = replayLine(out);
    if (out.failed) console.error(`catalogue-model: property failed (${replay})`);
    verify
      .on(clauses)
      .that(
        `every answer and read of a random catalogue sequence is one the model allows (${numRuns} runs, ${requests} requests, seed ${out.seed})`,
        !out.failed,
        {
          expected: 'the target agrees with the catalogue model after every command',
          actual: out.failed
            ? `${err instanceof Error ? err.message : String(err)}\n  shrunk sequence, as curl:\n    ${script(out.counterexample)}\n  ${replay}`
            : 'agreed',
        },
      );
  },
  { timeout: 60_000 },
);

/** The clauses of a failure that the test declares (an undeclared one is recorded on the first declared clause of its area). */
function declaredOf(clauses: string[]): string[] {
  const on = clauses.filter((c) => DECLARED.includes(c));
  if (on.length) return on;
  return [clauses.some((c) => c.startsWith('2.9') || c.startsWith('4.3')) && DECLARED.includes(SMS_CLAUSES[0]) ? SMS_CLAUSES[0] : DECLARED[0]];
}

/** The shrunk counterexample (first state, then the commands) as a curl script. */
function script(counterexample: unknown): string {
  if (!Array.isArray(counterexample)) return '?';
  const [first, cmds] = counterexample as [Start, Iterable<unknown>];
  return [String(first), ...[...cmds].map(String)].join('\n    ');
}
