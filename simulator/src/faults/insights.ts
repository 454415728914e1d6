/**
 * Faults of session insights (§4.5, §8): each overrides one seam of routes/insights.ts. Probes:
 * simulator/test/faults/insights.test.ts.
 */
import { ApiError, notFound, validationError } from '../envelope.ts';
import { isForeignCall } from '../routes/calls.ts';
import {
  BATCH_MAX,
  batchAdmit,
  batchMiss,
  batchRule,
  buildInsights,
  insightsNotFound,
  metricsLanded,
  metricsReady,
  performanceList,
} from '../routes/insights.ts';
import { override } from '../seam.ts';
import { store } from '../state.ts';
import { defineFaults } from './define.ts';

/** The session insights faults. */
export const INSIGHTS_FAULTS = defineFaults([
  {
    name: 'insights.live-call-has-insights',
    clauses: ['4.5/insights-404-until-metrics'],
    description: 'A call still in progress answers 200 insights.',
    override: override(metricsLanded, (next) => (call, nowMs) => call.metricsReadyAtMs === null || next(call, nowMs)),
  },
  {
    name: 'insights.available-early',
    clauses: ['4.5/insights-404-until-metrics'],
    description: 'Insights of an ended call are served before insightsDelayMs has passed.',
    override: override(metricsLanded, (next) => (call, nowMs) => call.metricsReadyAtMs !== null || next(call, nowMs)),
  },
  {
    name: 'insights.missing-turn',
    clauses: ['4.5/insights-performance-per-turn'],
    description: 'The performance list has one entry fewer than the assistant turns.',
    override: override(performanceList, (next) => (turns) => next(turns).slice(0, -1)),
  },
  {
    name: 'insights.not-found-message',
    clauses: ['4.5/insights-404-until-metrics'],
    description: "The 404 of GET /calls/{id}/insights says 'Insights not available' instead of 'Call insights not found'.",
    override: override(insightsNotFound, () => () => new ApiError(404, 'RESOURCE_NOT_FOUND', 'Insights not available')),
  },
  {
    name: 'insights.batch-26-accepted',
    clauses: ['4.5/insights-batch-bounds', '8/limit-insights-batch'],
    description: 'GET /calls/insights accepts 26 ids.',
    override: override(batchRule, (next) => () => ({ ...next(), max: next().max + 1 })),
  },
  {
    name: 'insights.batch-refuses-25',
    clauses: ['4.5/insights-batch-bounds', '8/limit-insights-batch'],
    description: 'GET /calls/insights refuses 25 ids, its limit.',
    override: override(batchRule, (next) => () => ({ ...next(), max: next().max - 1 })),
  },
  {
    name: 'insights.batch-refuses-single',
    clauses: ['4.5/insights-batch-bounds', '8/limit-insights-batch'],
    description: 'GET /calls/insights refuses a batch of one id ("1 to 25" read as "2 to 25").',
    override: override(batchRule, (next) => () => ({ ...next(), min: 2 })),
  },
  {
    name: 'insights.batch-duplicates-accepted',
    clauses: ['4.5/insights-batch-unique'],
    description: 'GET /calls/insights accepts a repeated id.',
    override: override(batchRule, (next) => () => ({ ...next(), unique: false })),
  },
  {
    name: 'insights.batch-unknown-fails',
    clauses: ['4.5/insights-batch-unknown-never-fails'],
    description: 'One unknown id in GET /calls/insights fails the whole request with 404.',
    override: override(batchMiss, () => () => {
      throw notFound();
    }),
  },
  {
    name: 'insights.batch-bound-in-flight',
    clauses: ['4.5/insights-batch-bounds', '8/limit-insights-batch'],
    description:
      'The 25-id bound is held by the ids a tenant has in flight (a semaphore of 25 its concurrent batches share, each holding its ids while it reads): a batch of 25 or fewer sent beside another is refused 400 VALIDATION_ERROR.',
    override: override(batchAdmit, () => (state, tenantId, ids) => {
      const inFlight = state.collection<number>('insightsBatchIdsInFlight');
      const held = inFlight.get(tenantId) ?? 0;
      if (held + ids.length > BATCH_MAX) throw validationError([{ field: 'ids', message: `at most ${BATCH_MAX} ids at once` }]);
      inFlight.set(tenantId, held + ids.length);
      return new Promise<void>((resolve) => setTimeout(resolve, 25)).finally(() => inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) - ids.length));
    }),
  },
  {
    name: 'xtenant.insights-batch-foreign-metrics',
    clauses: ['4.5/insights-batch-foreign-as-unknown', '5.7/foreign-indistinguishable'],
    description:
      "GET /calls/insights reports another tenant's call as `metrics_not_found`, or returns its metrics once they landed, instead of `call_not_found`.",
    override: override(batchMiss, (next) => (state, tenantId, id) => {
      if (!isForeignCall(state, tenantId, id)) return next(state, tenantId, id);
      const foreign = store.calls(state).get(id)!;
      return metricsReady(state, foreign) ? { insights: buildInsights(state, foreign) } : { missing: 'metrics_not_found' };
    }),
  },
]);
