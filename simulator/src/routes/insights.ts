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
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { ApiError, notFound, ok, validationError } from '../envelope.ts';
import { faultOn } from '../faults.ts';
import { store, type CallRecord, type SimState } from '../state.ts';
import { callNotFound, isForeignCall, ownedCall } from './calls.ts';
import { MODELS, modelById } from './models.ts';
import { TRANSCRIBERS } from './transcribers.ts';

/** Most ids in one batch request (§4.5, §8). */
export const BATCH_MAX = 25;

/** The 404 message while metrics have not landed (§4.5, verbatim). */
export const INSIGHTS_NOT_FOUND_MESSAGE = 'Call insights not found';

/** True when the call's metrics have landed (ended and `insightsDelayMs` passed). */
export function metricsReady(state: SimState, call: CallRecord): boolean {
  if (call.metricsReadyAtMs === null) return faultOn(state, 'insights.live-call-has-insights');
  return faultOn(state, 'insights.available-early') || Date.now() >= call.metricsReadyAtMs;
}

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
  let performance = assistantLines.map((l, i) => {
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
  if (faultOn(state, 'insights.missing-turn')) performance = performance.slice(0, -1);
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
  const timeline: Array<Record<string, unknown>> = [];
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

function insightsNotFound(state: SimState): ApiError {
  const message = faultOn(state, 'insights.not-found-message') ? 'Insights not available' : INSIGHTS_NOT_FOUND_MESSAGE;
  return new ApiError(404, 'RESOURCE_NOT_FOUND', message);
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
    const max = faultOn(state, 'insights.batch-26-accepted') ? BATCH_MAX + 1 : faultOn(state, 'insights.batch-refuses-25') ? BATCH_MAX - 1 : BATCH_MAX;
    if (ids.length === 1 && faultOn(state, 'insights.batch-refuses-single')) {
      throw validationError([{ field: 'ids', message: 'a batch needs at least 2 ids' }]);
    }
    if (ids.length > max) throw validationError([{ field: 'ids', message: `must hold at most ${BATCH_MAX} ids (got ${ids.length})` }]);
    if (new Set(ids).size !== ids.length && !faultOn(state, 'insights.batch-duplicates-accepted')) {
      throw validationError([{ field: 'ids', message: 'must not repeat an id' }]);
    }
    const insights: Record<string, unknown>[] = [];
    const missing: Array<{ id: string; reason: string }> = [];
    for (const id of ids) {
      const call = ownedCall(state, tenantId, id);
      if (!call) {
        if (faultOn(state, 'insights.batch-unknown-fails')) throw notFound();
        if (isForeignCall(state, tenantId, id) && faultOn(state, 'xtenant.insights-batch-foreign-metrics')) {
          const foreign = store.calls(state).get(id)!;
          if (metricsReady(state, foreign)) insights.push(buildInsights(state, foreign));
          else missing.push({ id, reason: 'metrics_not_found' });
          continue;
        }
        missing.push({ id, reason: 'call_not_found' });
      } else if (!metricsReady(state, call)) {
        missing.push({ id, reason: 'metrics_not_found' });
      } else {
        insights.push(buildInsights(state, call));
      }
    }
    return ok(reply, { insights, missing });
  });

  app.get<{ Params: { id: string } }>('/calls/:id/insights', async (request, reply: FastifyReply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) {
      const err = callNotFound(reply, tenantId, request.params.id);
      // Without a cross-tenant fault, unknown/foreign/deleted read exactly like "no metrics yet".
      throw err.message === notFound().message && err.status === 404 ? insightsNotFound(state) : err;
    }
    if (!metricsReady(state, call)) throw insightsNotFound(state);
    return ok(reply, buildInsights(state, call));
  });
};
