/**
 * Session insights (§4.5): `GET /calls/{id}/insights` and `GET /calls/insights?ids=`.
 *
 * One call's insights (envelope `data`):
 * `{ callId, models: [{ role: "llm"|"transcriber"|"voice", id, name, provider }],
 *    performance: [{ turn, at, endToEndLatencyMs, llmTimeToFirstTokenMs, ttsTimeToFirstByteMs,
 *                    transcriptionDelayMs, endOfUtteranceDelayMs, promptTokens, completionTokens }],
 *    summary: { assistantTurns, averageEndToEndLatencyMs, averageLlmTimeToFirstTokenMs,
 *               averageTtsTimeToFirstByteMs, averageTranscriptionDelayMs,
 *               averageEndOfUtteranceDelayMs, averagePromptTokens, averageCompletionTokens,
 *               totalPromptTokens, totalCompletionTokens },
 *    timeline: [{ type: "caller_speech"|"assistant_reply"|"tool_call"|"tool_result", at,
 *                 offsetMs, text?, toolId?, toolName? }] }`
 * One performance entry per assistant turn (assistant transcript line); latencies in ms; the
 * end-to-end latency is the sum of its parts plus a small overhead; summary averages are the
 * exact means of the entries. Figures are derived deterministically from the call id.
 *
 * Metrics land `insightsDelayMs` after the call ends. Until then, and for an unknown, another
 * tenant's or deleted call, the answer is 404 RESOURCE_NOT_FOUND with message
 * 'Call insights not found' (one answer for all of them, so nothing about other tenants leaks).
 *
 * Batch: `ids` is 1 to {@link BATCH_MAX} unique, comma-separated ids (a repeated `ids` parameter is
 * joined with commas; entries are trimmed). No ids, an empty entry, more than 25 or a duplicate →
 * 400 VALIDATION_ERROR (details field `ids`). Otherwise 200 with
 * `data: { insights: [<one call's insights>...], missing: [{ id, reason }] }` in request order,
 * `reason` `call_not_found` (unknown or another tenant's, identically; also a malformed id) or
 * `metrics_not_found` (own call, metrics not landed yet). A miss never fails the request.
 *
 * Seams: when metrics have landed ({@link metricsLanded}), the per-turn list
 * ({@link performanceList}), the 404 ({@link insightsNotFound}), the batch's rule
 * ({@link batchRule}), what admits it beside the batches in flight ({@link batchAdmit}) and its
 * entry for an id that names no call of the caller ({@link batchMiss}).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { ApiError, ok, validationError } from '../envelope.ts';
import { seam } from '../seam.ts';
import type { CallRecord, SimState } from '../state.ts';
import { ownedCall, sendUnowned } from './calls.ts';
import { MODELS, modelById } from './models.ts';
import { TRANSCRIBERS } from './transcribers.ts';

/** Most ids in one batch request (§4.5, §8). */
export const BATCH_MAX = 25;

/** The 404 message while metrics have not landed (§4.5, verbatim). */
export const INSIGHTS_NOT_FOUND_MESSAGE = 'Call insights not found';

/** §4.5: whether the call's metrics have landed at `nowMs`: it ended, and `insightsDelayMs` passed since. */
export const metricsLanded = seam(
  'insights.metrics-landed',
  (call: CallRecord, nowMs: number): boolean => call.metricsReadyAtMs !== null && nowMs >= call.metricsReadyAtMs,
);

/** True when the call's metrics have landed now (see {@link metricsLanded}). */
export function metricsReady(state: SimState, call: CallRecord): boolean {
  return state.behaviour.of(metricsLanded)(call, Date.now());
}

/** One entry of the per-turn `performance` list. */
export interface TurnPerformance {
  turn: number;
  at: string;
  endToEndLatencyMs: number;
  llmTimeToFirstTokenMs: number;
  ttsTimeToFirstByteMs: number;
  transcriptionDelayMs: number;
  endOfUtteranceDelayMs: number;
  promptTokens: number;
  completionTokens: number;
}

/** §4.5: the per-turn performance list: one entry per assistant turn (`turns`, in order). */
export const performanceList = seam('insights.performance', (turns: TurnPerformance[]): TurnPerformance[] => turns);

/** §4.5: the 404 of a call's insights before its metrics landed, with the message the spec states word for word. */
export const insightsNotFound = seam('insights.not-found', (): ApiError => new ApiError(404, 'RESOURCE_NOT_FOUND', INSIGHTS_NOT_FOUND_MESSAGE));

/** The rule of a batch: how many ids (`min` to `max`), and whether each must be unique. */
export interface BatchRule {
  min: number;
  max: number;
  unique: boolean;
}

/** §4.5, §8: a batch holds 1 to {@link BATCH_MAX} unique ids. */
export const batchRule = seam('insights.batch-rule', (): BatchRule => ({ min: 1, max: BATCH_MAX, unique: true }));

/**
 * §4.5, §8: what admits a batch of `ids` of `tenantId` once its own bounds held, beside the batches
 * in flight. Nothing: each batch is judged by its own ids alone (a 400 it throws, a promise it
 * awaits, is a reading that holds batches against each other).
 */
export const batchAdmit = seam('insights.batch-admit', (_state: SimState, _tenantId: string, _ids: readonly string[]): Promise<void> | void => undefined);

/** One id's entry in a batch answer: its insights, or why there are none. */
export type BatchEntry = { insights: Record<string, unknown> } | { missing: string };

/**
 * §4.5: the batch entry of an id that names no call of the caller (unknown, malformed, another
 * tenant's or deleted): `call_not_found`, the same for all of them; a miss never fails the request.
 */
export const batchMiss = seam('insights.batch-miss', (_state: SimState, _tenantId: string, _id: string): BatchEntry => ({ missing: 'call_not_found' }));

/** Deterministic integer in [lo, hi] from a seed string. */
function pick(seed: string, lo: number, hi: number): number {
  const h = createHash('sha256').update(seed).digest();
  return lo + (h.readUInt32BE(0) % (hi - lo + 1));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Builds the insights of a call (see the module comment for the shape). */
export function buildInsights(state: SimState, call: CallRecord): Record<string, unknown> {
  const model = modelById(call.config.modelId) ?? MODELS[0];
  const transcriber = TRANSCRIBERS.find((t) => t.id === call.config.transcriberId) ?? TRANSCRIBERS[0];
  const models = [
    { role: 'llm', id: model.id, name: model.name, provider: model.provider },
    { role: 'transcriber', id: transcriber.id, name: transcriber.name, provider: transcriber.provider },
    { role: 'voice', id: typeof call.config.voiceId === 'string' ? call.config.voiceId : null, name: 'Default voice', provider: 'simulator' },
  ];
  const start = Date.parse(call.startedAt);
  const assistantLines = call.transcript.filter((l) => l.role === 'assistant');
  const turns = assistantLines.map((l, i): TurnPerformance => {
    const s = `${call.id}:${i}`;
    const transcriptionDelayMs = pick(`${s}:stt`, 80, 320);
    const endOfUtteranceDelayMs = pick(`${s}:eou`, 150, 700);
    const llmTimeToFirstTokenMs = pick(`${s}:llm`, 200, 900);
    const ttsTimeToFirstByteMs = pick(`${s}:tts`, 90, 400);
    return {
      turn: i + 1,
      at: l.at,
      endToEndLatencyMs: transcriptionDelayMs + endOfUtteranceDelayMs + llmTimeToFirstTokenMs + ttsTimeToFirstByteMs + pick(`${s}:net`, 20, 80),
      llmTimeToFirstTokenMs,
      ttsTimeToFirstByteMs,
      transcriptionDelayMs,
      endOfUtteranceDelayMs,
      promptTokens: pick(`${s}:pt`, 400, 2400),
      completionTokens: pick(`${s}:ct`, 12, 120),
    };
  });
  const performance = state.behaviour.of(performanceList)(turns);
  const avg = (k: keyof (typeof performance)[number]) => mean(performance.map((p) => p[k] as number));
  const sum = (k: 'promptTokens' | 'completionTokens') => performance.reduce((a, p) => a + p[k], 0);
  const summary = {
    assistantTurns: performance.length,
    averageEndToEndLatencyMs: avg('endToEndLatencyMs'),
    averageLlmTimeToFirstTokenMs: avg('llmTimeToFirstTokenMs'),
    averageTtsTimeToFirstByteMs: avg('ttsTimeToFirstByteMs'),
    averageTranscriptionDelayMs: avg('transcriptionDelayMs'),
    averageEndOfUtteranceDelayMs: avg('endOfUtteranceDelayMs'),
    averagePromptTokens: avg('promptTokens'),
    averageCompletionTokens: avg('completionTokens'),
    totalPromptTokens: sum('promptTokens'),
    totalCompletionTokens: sum('completionTokens'),
  };
  const timeline: Record<string, unknown>[] = [];
  for (const l of call.transcript) {
    if (l.role === 'marker') continue;
    timeline.push({ type: l.role === 'customer' ? 'caller_speech' : 'assistant_reply', at: l.at, text: l.text });
  }
  for (const t of call.toolCalls) {
    timeline.push({ type: 'tool_call', at: t.at, toolId: t.toolId, toolName: t.toolName });
    timeline.push({ type: 'tool_result', at: new Date(Date.parse(t.at) + t.resultAfterMs).toISOString(), toolId: t.toolId, toolName: t.toolName });
  }
  timeline.sort((a, b) => Date.parse(a.at as string) - Date.parse(b.at as string));
  for (const e of timeline) e.offsetMs = Math.max(0, Date.parse(e.at as string) - start);
  return { callId: call.id, models, performance, summary, timeline };
}

/** The query value of `ids` as one comma-separated string, or undefined when absent. */
function idsParam(q: unknown): string | undefined {
  if (typeof q === 'string') return q;
  if (Array.isArray(q)) return q.map(String).join(',');
  return undefined;
}

/** Plugin with the insights routes. */
export const insightsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.get<{ Querystring: { ids?: string | string[] } }>('/calls/insights', async (request, reply) => {
    const tenantId = tenantOf(request);
    const raw = idsParam(request.query.ids);
    if (raw === undefined || raw.trim() === '') {
      throw validationError([{ field: 'ids', message: `required: 1 to ${BATCH_MAX} comma-separated call ids` }]);
    }
    const ids = raw.split(',').map((s) => s.trim());
    if (ids.some((s) => s === '')) throw validationError([{ field: 'ids', message: 'must not contain empty entries' }]);
    const rule = state.behaviour.of(batchRule)();
    if (ids.length < rule.min) throw validationError([{ field: 'ids', message: `a batch needs at least ${rule.min} ids` }]);
    if (ids.length > rule.max) throw validationError([{ field: 'ids', message: `must hold at most ${BATCH_MAX} ids (got ${ids.length})` }]);
    if (rule.unique && new Set(ids).size !== ids.length) throw validationError([{ field: 'ids', message: 'must not repeat an id' }]);
    const admitted = state.behaviour.of(batchAdmit)(state, tenantId, ids);
    if (admitted) await admitted;
    const insights: Record<string, unknown>[] = [];
    const missing: { id: string; reason: string }[] = [];
    for (const id of ids) {
      const call = ownedCall(state, tenantId, id);
      const entry: BatchEntry = !call
        ? state.behaviour.of(batchMiss)(state, tenantId, id)
        : metricsReady(state, call)
          ? { insights: buildInsights(state, call) }
          : { missing: 'metrics_not_found' };
      if ('insights' in entry) insights.push(entry.insights);
      else missing.push({ id, reason: entry.missing });
    }
    return ok(reply, { insights, missing });
  });

  app.get<{ Params: { id: string } }>('/calls/:id/insights', async (request, reply: FastifyReply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    // Unknown, another tenant's and deleted calls read exactly like "no metrics yet".
    if (!call) return sendUnowned(reply, tenantId, request.params.id, { kind: 'error', error: state.behaviour.of(insightsNotFound)() });
    if (!metricsReady(state, call)) throw state.behaviour.of(insightsNotFound)();
    return ok(reply, buildInsights(state, call));
  });
};
