/**
 * Faults of live call monitoring (§3, §4.5, §7 exceptions 2 and 3): each overrides one seam of
 * routes/monitoring.ts or routes/calls.ts. Probes: simulator/test/faults/monitoring.test.ts.
 */
import { endCall } from '../control/calls.ts';
import { ApiError, errorBody, notFound } from '../envelope.ts';
import { callLookup, liveList, unownedCallAnswer } from '../routes/calls.ts';
import {
  auditRows,
  closeSession,
  conflictAnswer,
  invalidBodyAnswer,
  mintAnswer,
  mintGap,
  mintBudget,
  mintBudgetGap,
  openSessions,
  rateLimitedAnswer,
  slotsFull,
  stateRefusal,
  storedLabel,
  supervisorEnd,
} from '../routes/monitoring.ts';
import { override } from '../seam.ts';
import { store } from '../state.ts';
import { defineFaults } from './define.ts';

/** The live monitoring faults. */
export const MONITORING_FAULTS = defineFaults([
  {
    name: 'monitoring.callid-in-path',
    clauses: ['4.5/calls-live-callid-not-in-path'],
    description: 'The support `callId` of GET /calls/live is accepted in /calls/{id}/... paths.',
    override: override(callLookup, (next) => (state, tenantId, id) => {
      const bySupportId = [...store.calls(state).values()].find((c) => c.callId === id);
      return next(state, tenantId, id) ?? (bySupportId && !store.calls(state).has(id) ? next(state, tenantId, bySupportId.id) : null);
    }),
  },
  {
    name: 'monitoring.live-list-callid-only',
    clauses: ['4.5/calls-live-row-ids'],
    description: 'GET /calls/live rows carry `callId` equal to the call id (no separate correlation id).',
    override: override(liveList, (next) => (state, tenantId) => next(state, tenantId).map((row) => ({ ...row, callId: row.id }))),
  },
  {
    name: 'monitoring.unknown-call-envelope',
    clauses: ['7/monitor-404-bare-identical'],
    description:
      'POST monitor-session/takeover/end answer an unknown (or foreign, or deleted) call with the envelope 404 RESOURCE_NOT_FOUND instead of bare {"error":"not_found"}.',
    override: override(unownedCallAnswer, (next) => (miss, unknown) => (unknown.kind === 'bare' ? { kind: 'error', error: notFound() } : next(miss, unknown))),
  },
  {
    name: 'monitoring.not-live-as-agent-absent',
    clauses: ['3/monitoring-not-live-final', '7/monitor-409-body'],
    description: 'Actions on a finished call answer 409 reason `agent_absent` instead of `not_live`.',
    override: override(stateRefusal, (next) => (call, action) => (call.endedAt !== null ? 'agent_absent' : next(call, action))),
  },
  {
    name: 'monitoring.agent-absent-ignored',
    clauses: ['3/monitoring-agent-absent'],
    description: 'Takeover and end succeed while the assistant is away instead of 409 agent_absent.',
    override: override(stateRefusal, (next) => (call, action) => {
      const reason = next(call, action);
      return reason === 'agent_absent' ? null : reason;
    }),
  },
  {
    name: 'monitoring.conflict-in-envelope',
    clauses: ['7/monitor-409-body'],
    description: '409 of monitor-session/takeover/end is an envelope (code CONFLICT) instead of bare {"error":"conflict","reason":...}.',
    override: override(conflictAnswer, () => (reason) => ({ kind: 'error', error: new ApiError(409, 'CONFLICT', `Call action refused: ${reason}`) })),
  },
  {
    name: 'monitoring.over-length-bare',
    clauses: ['7/monitor-400-envelope'],
    description: 'An over-length actorLabel answers a bare 400 {"error":"invalid_request"} instead of the envelope.',
    override: override(invalidBodyAnswer, () => (errors) => ({ kind: 'bare', status: 400, body: { error: 'invalid_request', field: errors[0]!.field } })),
  },
  {
    name: 'monitoring.actor-label-altered',
    clauses: ['4.5/actor-label-verbatim'],
    description: 'actorLabel is stored trimmed and with <>"\'& removed instead of verbatim.',
    override: override(
      storedLabel,
      (next) => (label) =>
        next(label)
          .trim()
          .replace(/[<>"'&]/g, ''),
    ),
  },
  {
    name: 'monitoring.no-rate-limit',
    clauses: ['4.5/monitor-session-429'],
    description: 'Minting monitor sessions is never throttled (no 429).',
    override: override(mintBudget, () => () => null),
  },
  {
    name: 'monitoring.rate-per-key',
    clauses: ['4.5/monitor-session-per-tenant'],
    description:
      "The monitor-session mint rate is counted per API key type instead of per tenant: an organization key acting for the tenant (X-Tenant-Id) has a budget of its own beside the tenant key's.",
    override: override(mintBudget, () => (_state, tenantId, keyType) => `${tenantId}:${keyType}`),
  },
  {
    name: 'monitoring.rate-per-organization',
    clauses: ['4.5/monitor-session-per-tenant'],
    description: 'The monitor-session mint rate is counted per organization: one tenant spending it throttles the other tenants of its organization.',
    override: override(mintBudget, () => (state, tenantId) => `org:${state.tenants.get(tenantId)?.organizationId ?? tenantId}`),
  },
  {
    name: 'monitoring.retry-after-in-error',
    clauses: ['7/monitor-429-top-level', '4.5/monitor-session-429'],
    description: 'The per-tenant mint 429 is an envelope with `error.retryAfterSeconds` and no top-level retryAfterSeconds.',
    override: override(rateLimitedAnswer, (next) => (state, path, wait) => {
      const env = errorBody(state, path, new ApiError(429, 'RATE_LIMITED', 'Too many monitor sessions minted'));
      (env.error as Record<string, unknown>).retryAfterSeconds = wait;
      return { kind: 'bare', status: 429, body: env, headers: next(state, path, wait).headers };
    }),
  },
  {
    name: 'monitoring.no-slot-limit',
    clauses: ['4.5/monitor-session-slots'],
    description: 'Monitor sessions on one call are not limited by monitorSlotsPerCall.',
    override: override(slotsFull, () => () => false),
  },
  {
    name: 'monitoring.slots-per-tenant',
    clauses: ['4.5/monitor-session-slots'],
    description: 'Monitor slots are counted per tenant instead of per call: a full call stops minting on every other call of the tenant.',
    override: override(slotsFull, () => (state, call) => {
      const audits = [...store.calls(state).values()].filter((c) => c.tenantId === call.tenantId).flatMap((c) => c.audit);
      return openSessions(audits) >= state.config.monitorSlotsPerCall;
    }),
  },
  {
    name: 'monitoring.mint-in-envelope',
    clauses: ['7/bare-json-monitoring', '4.5/monitor-session-mint'],
    description: 'POST /calls/{id}/monitor-session answers its credential inside the envelope.',
    override: override(mintAnswer, () => (credential) => ({ kind: 'data', status: 201, data: credential })),
  },
  {
    name: 'monitoring.delete-closes-all',
    clauses: ['4.5/monitor-session-delete'],
    description: 'DELETE /calls/{id}/monitor-session closes every open session of the call instead of one.',
    override: override(closeSession, (next) => (state, call, session) => {
      next(state, call, session);
      if (!session) return;
      for (const a of call.audit) if (a.action === 'monitor' && a.closedAt === null) a.closedAt = session.closedAt;
    }),
  },
  {
    name: 'monitoring.delete-ends-call',
    clauses: ['4.5/monitor-session-delete'],
    description: 'DELETE /calls/{id}/monitor-session also ends the call.',
    override: override(closeSession, (next) => (state, call, session) => {
      next(state, call, session);
      if (call.endedAt === null) endCall(state, call, { reason: 'ended-by-supervisor', supervisorAnswered: false });
    }),
  },
  {
    name: 'monitoring.end-route-no-report',
    clauses: ['6/end-of-call-every-end'],
    description: 'A call ended through POST /calls/{id}/end sends no end-of-call report (only the telephony hang-up path emits it).',
    override: override(
      supervisorEnd,
      () => (state, call) => void endCall(state, call, { reason: 'ended-by-supervisor', supervisorAnswered: false, report: false }),
    ),
  },
  {
    name: 'monitoring.absent-before-live',
    clauses: ['7/error-pairs', '3/monitoring-not-live-final'],
    description:
      'The assistant-away flag is checked before the call state: a call that ended while its assistant was away answers 409 agent_absent (retry) instead of not_live (final).',
    override: override(stateRefusal, (next) => (call, action) => (call.agentAbsent && action !== 'monitor' ? 'agent_absent' : next(call, action))),
  },
  {
    name: 'monitoring.audit-open-only',
    clauses: ['4.5/monitor-sessions-audit'],
    description:
      'The audit read lists only the sessions still open (a query filtered on closed_at IS NULL): a session closed by DELETE or by the end of the call disappears from GET /calls/{id}/monitor-sessions.',
    override: override(auditRows, (next) => (audit) => next(audit.filter((a) => !(a.action === 'monitor' && a.closedAt !== null)))),
  },
  {
    name: 'monitoring.slot-check-race',
    clauses: ['4.5/monitor-session-slots'],
    description:
      'The slot check and the session it records are two steps with an await between (a read, then an insert): mints sent at once on a call with one free slot all pass the check and all open a session.',
    override: override(mintGap, () => () => new Promise<void>((resolve) => setTimeout(resolve, 25))),
  },
  {
    name: 'monitoring.rate-check-race',
    clauses: ['4.5/monitor-session-429', '4.5/monitor-session-per-tenant'],
    description:
      'The per-tenant mint budget is read, then the mint recorded after an await (a count query, then an insert): mints sent at once, with the tenant key and an organization key acting for the tenant, all see its last unit free and all are accepted.',
    override: override(mintBudgetGap, () => () => new Promise<void>((resolve) => setTimeout(resolve, 25))),
  },
]);
