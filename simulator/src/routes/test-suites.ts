/**
 * Text test suites (§3, §4.5, §8): `POST /test-suites`, `GET /test-suites`,
 * `GET /test-suites/{id}`, `POST /test-suites/{id}/run`, `GET /test-runs` (optional `suiteId`
 * filter), `GET /test-runs/{id}`.
 *
 * Field names (the spec names `mode`, `iterations` and the check types only; the rest is ours):
 * suite body `{ name?, assistantId, mode?, iterations?, cases? }`:
 * - `assistantId` (required): one of the caller's assistants (unknown / another tenant's → 404
 *   RESOURCE_NOT_FOUND, one code path).
 * - `mode`: only `text` (default when left out); `voice` or anything else → 400.
 * - `iterations`: integer 1..10 (default 1), how many times each case runs; a case may carry its
 *   own `iterations` (same bounds).
 * - `cases`: array of at most 12 case objects `{ name?, input?, priorTurns?, mockTools?, checks?,
 *   iterations?, criteria? }` (unknown keys kept). `checks` items `{ type, ... }` with `type` one of
 *   `tool_called`, `tool_not_called` (naming the tool by `toolName`, `tool` or `toolId`) or
 *   `extract` (`field`/`key`, optional `expected`).
 * Violations → 400 VALIDATION_ERROR with one detail per failing field (`cases`, `cases[3].checks[0].type`...).
 * Suite answer: `{ id, name, assistantId, mode, iterations, cases: [{ id, ... }], createdAt, updatedAt }`.
 *
 * Run: 400 VALIDATION_ERROR (field `assistantId`) when the assistant's `modelId` names a
 * `realtime` model of `GET /models`. Otherwise 201 with the run
 * `{ id, suiteId, assistantId, status: "running"|"completed", outcome: null|"passed"|"failed"|"error",
 *    startedAt, completedAt, cases: [{ caseId, name, outcome, iterations: [{ attempt, outcome,
 *    reply, toolsCalled, judge: { passed, reason }, checks: [{ type, passed, detail }] }] }] }`.
 * Results arrive case by case: case i is listed once {@link CASE_RESULT_DELAY_MS}·(i+1) ms have
 * passed since the start; the run is `completed` when all are in.
 *
 * The simulated conversation is deterministic: the assistant "calls" every mocked tool whose
 * name appears in the case input; the judge fails an attempt when a hash of (case text, attempt)
 * falls in one fifth of its range (so attempts of one case can differ); an `extract` check passes
 * when its `expected` value (if any) occurs in the input. An attempt passes when the judge and
 * every check pass; `error` when the assistant's model is not in the catalogue (it cannot
 * answer, §3). A case passes only if every attempt passes (any error → `error`, else `failed`); the
 * run passes only if every case passes (any failed case → `failed`, else `error`).
 */
import type { FastifyPluginAsync } from 'fastify';
import { createHash, randomUUID } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { notFound, ok, validationError } from '../envelope.ts';
import { findOwned, listOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import type { SimState } from '../state.ts';
import { Checker } from '../validation/checker.ts';
import { isPlainObject } from '../validation/formats.ts';
import { modelById, type ModelEntry } from './models.ts';

/** Most cases in one suite (§4.5, §8). */
export const MAX_CASES = 12;
/** Iterations bounds (§4.5, §8). */
export const MIN_ITERATIONS = 1;
/** Largest `iterations` of a run (§4.5: 1 to 10). */
export const MAX_ITERATIONS = 10;
/** The typed checks §4.5 names. */
export const CHECK_TYPES = ['tool_called', 'tool_not_called', 'extract'] as const;
/** Delay between two case results of a run, in ms. */
export const CASE_RESULT_DELAY_MS = 30;

type Obj = Record<string, unknown>;
type Outcome = 'passed' | 'failed' | 'error';

/** §4.5, §8: the bounds of `iterations` (of a suite and of a case): 1 to 10. */
export const iterationsBounds = seam('texttests.iterations', (): { min: number; max: number } => ({ min: MIN_ITERATIONS, max: MAX_ITERATIONS }));

/** §4.5, §8: `iterations` counts runs of a case: a whole number (`v` is a number within the bounds). */
export const iterationsWhole = seam('texttests.iterations-whole', (v: number): boolean => Number.isInteger(v));

/** §4.5, §8: the most cases one suite holds: 12. */
export const maxCases = seam('texttests.max-cases', (): number => MAX_CASES);

/** §4.5: the modes a suite may have: text only (`mode` as sent, `text` when left out). */
export const suiteMode = seam('texttests.mode', (mode: unknown): boolean => mode === 'text');

/** §4.5: a run needs an assistant whose model is not a realtime one (`model` undefined: none or not in the catalogue). */
export const runnableModel = seam('texttests.runnable-model', (model: ModelEntry | undefined): boolean => model?.type !== 'realtime');

/** §3: the outcome of a case as the run reports it: `passed`, `failed` or `error`. */
export const caseOutcomeName = seam('texttests.outcome', (outcome: Outcome): string => outcome);

interface SuiteRecord {
  tenantId: string;
  data: Obj & { id: string; assistantId: string; iterations: number; cases: (Obj & { id: string })[] };
}

interface CaseResult {
  caseId: string;
  name: unknown;
  outcome: string;
  iterations: Obj[];
}

interface RunRecord {
  tenantId: string;
  id: string;
  suiteId: string;
  assistantId: string;
  startedAtMs: number;
  results: CaseResult[];
}

function iterationsOk(state: SimState, v: unknown): boolean {
  const { min, max } = state.behaviour.of(iterationsBounds)();
  return typeof v === 'number' && v >= min && v <= max && state.behaviour.of(iterationsWhole)(v);
}

function textOf(c: Obj): string {
  for (const k of ['input', 'message', 'userMessage', 'prompt']) if (typeof c[k] === 'string') return c[k] as string;
  return '';
}

function hashInt(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

function toolNames(mocks: unknown): string[] {
  if (!Array.isArray(mocks)) return [];
  return mocks.flatMap((m) => {
    if (typeof m === 'string') return [m];
    if (!isPlainObject(m)) return [];
    return ['name', 'toolName', 'tool', 'toolId', 'id'].map((k) => m[k]).filter((x): x is string => typeof x === 'string');
  });
}

/** Runs one attempt of a case (see module comment). */
function attempt(c: Obj, index: number, n: number, canAnswer: boolean): Obj {
  if (!canAnswer) {
    return { attempt: n, outcome: 'error', reply: null, toolsCalled: [], judge: { passed: false, reason: 'the configured model cannot answer' }, checks: [] };
  }
  const input = textOf(c);
  const lower = input.toLowerCase();
  const called = [...new Set(toolNames(c.mockTools ?? c.toolMocks).filter((t) => t !== '' && lower.includes(t.toLowerCase())))];
  const judgePassed = hashInt(`${index}:${input}:${JSON.stringify(c.criteria ?? null)}:${n}`) % 5 !== 0;
  const checks = (Array.isArray(c.checks) ? c.checks : []).map((raw) => {
    const ch = raw as Obj;
    const tool = ['toolName', 'tool', 'toolId', 'name'].map((k) => ch[k]).find((x): x is string => typeof x === 'string') ?? '';
    if (ch.type === 'tool_called') return { type: ch.type, passed: called.includes(tool), detail: `tool ${tool}` };
    if (ch.type === 'tool_not_called') return { type: ch.type, passed: !called.includes(tool), detail: `tool ${tool}` };
    const expected = ch.expected ?? ch.value;
    const passed = expected === undefined || input.includes(String(expected));
    return { type: ch.type, passed, detail: `field ${String(ch.field ?? ch.key ?? '')}` };
  });
  const passed = judgePassed && checks.every((x) => x.passed);
  return {
    attempt: n,
    outcome: passed ? 'passed' : 'failed',
    reply: `Simulated reply to: ${input.slice(0, 80)}`,
    toolsCalled: called,
    judge: { passed: judgePassed, reason: judgePassed ? 'the reply meets the criteria' : 'the reply misses the criteria' },
    checks,
  };
}

function caseOutcome(attempts: Obj[]): Outcome {
  const outs = attempts.map((a) => a.outcome as Outcome);
  if (outs.every((o) => o === 'passed')) return 'passed';
  return outs.includes('error') ? 'error' : 'failed';
}

function runView(run: RunRecord): Obj {
  const now = Date.now();
  const ready = run.results.filter((_, i) => now >= run.startedAtMs + CASE_RESULT_DELAY_MS * (i + 1));
  const done = ready.length === run.results.length;
  const outs = run.results.map((r) => r.outcome);
  const outcome: Outcome | null = !done ? null : outs.every((o) => o === 'passed') ? 'passed' : outs.includes('failed') ? 'failed' : 'error';
  return {
    id: run.id,
    suiteId: run.suiteId,
    assistantId: run.assistantId,
    status: done ? 'completed' : 'running',
    outcome,
    startedAt: new Date(run.startedAtMs).toISOString(),
    completedAt: done ? new Date(run.startedAtMs + CASE_RESULT_DELAY_MS * run.results.length).toISOString() : null,
    cases: structuredClone(ready),
  };
}

/** Checks one case of a suite body (`p` is its path, `cases[i]`): its iterations, check types and arrays. */
function checkCase(state: SimState, c: Checker, p: string, raw: unknown): void {
  if (!c.check(p, isPlainObject(raw), 'must be an object')) return;
  const k = raw as Obj;
  if (k.iterations !== undefined)
    c.check(`${p}.iterations`, iterationsOk(state, k.iterations), `must be an integer from ${MIN_ITERATIONS} to ${MAX_ITERATIONS}`);
  if (k.checks !== undefined && c.check(`${p}.checks`, Array.isArray(k.checks), 'must be an array')) {
    (k.checks as unknown[]).forEach((ch, j) => {
      c.check(`${p}.checks[${j}].type`, isPlainObject(ch) && (CHECK_TYPES as readonly unknown[]).includes(ch.type), `must be one of ${CHECK_TYPES.join(', ')}`);
    });
  }
  for (const key of ['priorTurns', 'mockTools']) {
    if (k[key] !== undefined) c.check(`${p}.${key}`, Array.isArray(k[key]), 'must be an array');
  }
}

/**
 * A new suite of the tenant from a POST /test-suites body `{ name?, assistantId, mode?, iterations?, cases? }`.
 * @throws ApiError VALIDATION_ERROR naming every bad field; RESOURCE_NOT_FOUND when the assistant is not the tenant's.
 */
function createSuite(state: SimState, tenantId: string, rawBody: unknown): SuiteRecord['data'] {
  const body = rawBody === undefined ? {} : rawBody;
  if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
  const c = new Checker();
  c.check('name', body.name === undefined || typeof body.name === 'string', 'must be a string');
  c.check('assistantId', typeof body.assistantId === 'string' && body.assistantId !== '', 'is required: the id of one of your assistants');
  const mode = body.mode ?? 'text';
  c.check('mode', state.behaviour.of(suiteMode)(mode), 'must be "text" (only text suites exist)');
  const iterations = body.iterations ?? 1;
  c.check('iterations', iterationsOk(state, iterations), `must be an integer from ${MIN_ITERATIONS} to ${MAX_ITERATIONS}`);
  const cases = body.cases ?? [];
  if (c.check('cases', Array.isArray(cases) && cases.length <= state.behaviour.of(maxCases)(), `must be an array of at most ${MAX_CASES} cases`)) {
    (cases as unknown[]).forEach((raw, i) => checkCase(state, c, `cases[${i}]`, raw));
  }
  c.throwIfAny();
  findOwned(state, state.assistants, tenantId, body.assistantId as string, 'assistant');
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    name: typeof body.name === 'string' ? body.name : '',
    assistantId: body.assistantId as string,
    mode: mode as string,
    iterations: iterations as number,
    cases: (cases as Obj[]).map((k) => ({ ...structuredClone(k), id: randomUUID() })),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A run of a suite on its assistant: every case attempted its number of iterations.
 * @throws ApiError RESOURCE_NOT_FOUND when the assistant is gone; VALIDATION_ERROR when it runs a realtime model.
 */
function startRun(state: SimState, tenantId: string, suite: SuiteRecord['data']): RunRecord {
  const assistant = state.assistants.get(suite.assistantId);
  if (!assistant || assistant.tenantId !== tenantId) throw notFound();
  const modelId = assistant.data.modelId;
  const model = modelById(modelId);
  if (!state.behaviour.of(runnableModel)(model)) {
    throw validationError([{ field: 'assistantId', message: 'the assistant runs a realtime model; text tests need a chat model' }]);
  }
  const canAnswer = modelId === null || modelId === undefined || model !== undefined;
  const results: CaseResult[] = suite.cases.map((k, i) => {
    const n = typeof k.iterations === 'number' ? k.iterations : suite.iterations;
    const attempts = Array.from({ length: n }, (_, a) => attempt(k, i, a + 1, canAnswer));
    const outcome = caseOutcome(attempts);
    return { caseId: k.id, name: k.name ?? null, outcome: state.behaviour.of(caseOutcomeName)(outcome), iterations: attempts };
  });
  return { tenantId, id: randomUUID(), suiteId: suite.id, assistantId: suite.assistantId, startedAtMs: Date.now(), results };
}

/** Plugin with the text test suite routes. */
export const testSuitesRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;
  const suites = () => state.collection<SuiteRecord>('testSuites');
  const runs = () => state.collection<RunRecord>('testRuns');

  app.post('/test-suites', async (request, reply) => {
    const tenantId = tenantOf(request);
    const data = createSuite(state, tenantId, request.body);
    suites().set(data.id, { tenantId, data });
    return ok(reply, structuredClone(data), 201);
  });

  app.get('/test-suites', async (request, reply) =>
    ok(
      reply,
      listOwned(suites(), tenantOf(request)).map((s) => structuredClone(s.data)),
    ),
  );

  app.get<{ Params: { id: string } }>('/test-suites/:id', async (request, reply) => {
    return ok(reply, structuredClone(findOwned(state, suites(), tenantOf(request), request.params.id, 'test-suite').data));
  });

  app.post<{ Params: { id: string } }>('/test-suites/:id/run', async (request, reply) => {
    const tenantId = tenantOf(request);
    const run = startRun(state, tenantId, findOwned(state, suites(), tenantId, request.params.id, 'test-suite').data);
    runs().set(run.id, run);
    return ok(reply, runView(run), 201);
  });

  app.get<{ Querystring: { suiteId?: string } }>('/test-runs', async (request, reply) => {
    const tenantId = tenantOf(request);
    const { suiteId } = request.query;
    const rows = listOwned(runs(), tenantId).filter((r) => typeof suiteId !== 'string' || r.suiteId === suiteId);
    return ok(reply, rows.map(runView));
  });

  app.get<{ Params: { id: string } }>('/test-runs/:id', async (request, reply) => {
    return ok(reply, runView(findOwned(state, runs(), tenantOf(request), request.params.id, 'test-run')));
  });
};
