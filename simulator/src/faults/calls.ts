/**
 * Faults of calls and conversations (§1, §4.5) and of their tenant isolation (§5.7, §7 exception
 * 2): each overrides one seam of routes/calls.ts (or, for the timing, resources.ts). Probes:
 * simulator/test/faults/calls.test.ts.
 */
import { endCall } from '../control/calls.ts';
import { ApiError, forbidden } from '../envelope.ts';
import { foreignAnswerDelay } from '../resources.ts';
import {
  callList,
  callReadable,
  callView,
  conversationList,
  conversationView,
  isForeignCall,
  liveList,
  liveRow,
  storedCalls,
  unownedAction,
  unownedCallAnswer,
} from '../routes/calls.ts';
import { override } from '../seam.ts';
import { store } from '../state.ts';
import { defineFaults } from './define.ts';

/** The faults of calls, conversations and their isolation. */
export const CALL_FAULTS = defineFaults([
  {
    name: 'calls.call-missing-after-end',
    clauses: ['1/call-record-on-dial', '4.5/calls-readable', '6/missed-calls-readable'],
    description: 'GET /calls/{id} of an ended call answers 404.',
    override: override(callReadable, () => (call) => call.endedAt === null),
  },
  {
    name: 'calls.conversations-in-calls',
    clauses: ['1/conversations-separate', '4.5/conversations-readable'],
    description: "GET /calls also lists the tenant's text conversations.",
    override: override(callList, (next) => (state, tenantId) => [
      ...next(state, tenantId),
      ...[...store.conversations(state).values()]
        .filter((c) => c.tenantId === tenantId)
        .map((c) => ({ id: c.id, assistantId: c.assistantId, status: c.endedAt ? 'ended' : 'live', channel: c.channel })),
    ]),
  },
  {
    name: 'xtenant.calls-list-leaks',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /calls lists every tenant's calls.",
    override: override(callList, () => (state) => storedCalls(state).map(callView)),
  },
  {
    name: 'xtenant.live-list-leaks',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /calls/live lists every tenant's calls in progress (the tenant filter kept on GET /calls only).",
    override: override(
      liveList,
      () => (state) =>
        storedCalls(state)
          .filter((c) => c.endedAt === null)
          .map(liveRow),
    ),
  },
  {
    name: 'xtenant.conversations-list-leaks',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /conversations lists every tenant's conversations (the tenant filter kept on GET /calls only).",
    override: override(conversationList, () => (state) => [...store.conversations(state).values()].map(conversationView)),
  },
  {
    name: 'xtenant.foreign-call-403',
    clauses: [
      '5.7/foreign-resource-not-found',
      '5.7/foreign-indistinguishable',
      '5.7/isolation-call-read',
      '5.7/isolation-monitor-sessions-read',
      '7/monitor-404-bare-identical',
    ],
    description: 'Another tenant\'s call answers 403 (FORBIDDEN envelope, or bare {"error":"forbidden"} on the monitoring actions) instead of 404.',
    override: override(unownedCallAnswer, (next) => (miss, unknown) => {
      if (miss !== 'foreign') return next(miss, unknown);
      return unknown.kind === 'bare' ? { kind: 'bare', status: 403, body: { error: 'forbidden' } } : { kind: 'error', error: forbidden() };
    }),
  },
  {
    name: 'xtenant.foreign-call-message-differs',
    clauses: ['5.7/foreign-indistinguishable'],
    description:
      "Another tenant's call answers 404 RESOURCE_NOT_FOUND with a message different from an unknown call's (GET /calls/{id}, monitor-sessions, DELETE monitor-session).",
    override: override(
      unownedCallAnswer,
      (next) => (miss, unknown) =>
        miss === 'foreign' && unknown.kind === 'error'
          ? { kind: 'error', error: new ApiError(404, 'RESOURCE_NOT_FOUND', 'Call belongs to another tenant') }
          : next(miss, unknown),
    ),
  },
  {
    name: 'xtenant.foreign-call-header',
    clauses: ['5.7/isolation-call-read', '5.7/foreign-indistinguishable'],
    description: "The 404 for another tenant's call carries an extra header `x-resource-owner: another-tenant` (every call route).",
    override: override(unownedCallAnswer, (next) => (miss, unknown) => {
      const answer = next(miss, unknown);
      return miss === 'foreign' ? { ...answer, headers: { ...answer.headers, 'x-resource-owner': 'another-tenant' } } : answer;
    }),
  },
  {
    name: 'xtenant.foreign-bare-body',
    clauses: ['7/bare-404-end', '7/bare-404-takeover', '7/bare-404-monitor-session', '5.7/foreign-indistinguishable'],
    description:
      'POST monitor-session/takeover/end on another tenant\'s call answers 404 `{"error":"not_found","reason":"other_tenant"}` instead of the byte-identical body.',
    override: override(
      unownedCallAnswer,
      (next) => (miss, unknown) =>
        miss === 'foreign' && unknown.kind === 'bare'
          ? { kind: 'bare', status: 404, body: { error: 'not_found', reason: 'other_tenant' } }
          : next(miss, unknown),
    ),
  },
  {
    name: 'xtenant.deleted-call-gone',
    clauses: ['7/bare-404-deleted-call'],
    description: 'POST monitor-session/takeover/end on a deleted call answers 410 `{"error":"gone"}` instead of the bare 404.',
    override: override(
      unownedCallAnswer,
      (next) => (miss, unknown) =>
        miss === 'deleted' && unknown.kind === 'bare' ? { kind: 'bare', status: 410, body: { error: 'gone' } } : next(miss, unknown),
    ),
  },
  {
    name: 'xtenant.foreign-call-end',
    clauses: ['5.7/no-cross-tenant-write', '7/bare-404-end'],
    description: "POST /calls/{id}/end on another tenant's live call ends it (the answer is still the bare 404).",
    override: override(unownedAction, (next) => (state, tenantId, id, action) => {
      next(state, tenantId, id, action);
      const call = store.calls(state).get(id);
      if (action === 'end' && call && !call.endedAt && isForeignCall(state, tenantId, id)) {
        endCall(state, call, { reason: 'ended-by-supervisor', supervisorAnswered: false });
      }
    }),
  },
  {
    name: 'xtenant.foreign-slow',
    clauses: ['5.7/timing-indistinguishable'],
    description:
      "GET /assistants/{id} of another tenant's assistant, and the bare monitoring routes on another tenant's call, answer after an extra ~20 ms (timing side channel).",
    override: override(foreignAnswerDelay, (next) => (resource, form) => (resource === 'assistant' || form === 'bare' ? 20 : next(resource, form))),
  },
]);
