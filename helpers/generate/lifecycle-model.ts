/**
 * A model of the spec's lifecycles (issue 34, item 3), beside the merge model: keys and their
 * rotations (§5.4), tenants and their removal (§5.6), calls live and ended (§3, §4.5), and what
 * each principal may do with each (§5.6, §5.7, §7 exception 2). suites/lifecycle-model.test.ts
 * draws command sequences with fast-check, applies each to the target and here, and compares every
 * answer with what the model allows. Pure: no I/O.
 *
 * What a careful reading allows is a set, never one status: a removed tenant's own key 401 or 403
 * (both readings of §5.6), a mint on a live call 2xx or a 409 other than `not_live` (slots are per
 * call and their number is not shown; `agent_absent` is retried by clients).
 */
import { StepFailure } from './step-failure';

/** One tenant as the model knows it: its current key's name, keys rotated away, removal, calls. */
export interface ModelTenant {
  /** Index of the tenant in the run (0 = A, 1 = B). */
  index: number;
  /** How many times its key was rotated: the current key is generation `rotations`. */
  rotations: number;
  removed: boolean;
  /** Calls started on it, in order: live until ended; deleted through the control API. */
  calls: ('live' | 'ended' | 'deleted')[];
  /** Per call, the monitor sessions its mints opened and no DELETE closed yet. */
  sessions: number[];
  /** Per call, the actorLabel of every session its mints opened, closed ones included: the audit read lists each (§4.5). */
  labels: string[][];
}

/** The whole modelled state of one property run: tenants A and B of one organization. */
export interface LifecycleModel {
  tenants: [ModelTenant, ModelTenant];
}

/** The state every run starts from: two live tenants of one organization, no rotation, no call. */
export function initialLifecycle(): LifecycleModel {
  return {
    tenants: [
      { index: 0, rotations: 0, removed: false, calls: [], sessions: [], labels: [] },
      { index: 1, rotations: 0, removed: false, calls: [], sessions: [], labels: [] },
    ],
  };
}

/** A credential a command reads with: the tenant's current key, a key of it rotated away, or the organization key naming it. */
export type Credential = 'current' | 'rotated' | 'org';

/** What the model allows an answer to be, and the clause that says so. */
export interface Allowed {
  statuses: number[];
  /** For a 409: the reasons allowed (`!not_live`: any reason but not_live). */
  reason?: 'not_live' | '!not_live';
  clause: string;
  words: string;
}

/** `GET /assistants` with `cred` of tenant `t`. */
export function allowedRead(t: ModelTenant, cred: Credential): Allowed {
  if (cred === 'rotated') return { statuses: [401], clause: '5.4/rotated-key-invalid', words: 'a key rotated away answers 401' };
  if (cred === 'org')
    return t.removed
      ? { statuses: [403], clause: '5.6/403-removed-tenant', words: 'an organization key naming a removed tenant answers 403' }
      : { statuses: [200], clause: '5.2/org-key-with-tenant-header', words: 'an organization key naming a tenant of its organization acts on it' };
  return t.removed
    ? { statuses: [401, 403], clause: '5.6/removed-tenant-key-refused', words: "a removed tenant's own key is refused (401 or 403)" }
    : { statuses: [200], clause: '5.4/rotated-key-invalid', words: 'the key that replaced a rotated one works' };
}

/** `GET /calls/{id}` of a call of `owner`, read by `reader` with its current key. */
export function allowedCallRead(owner: ModelTenant, reader: ModelTenant): Allowed {
  return owner.index === reader.index
    ? { statuses: [200], clause: '4.5/calls-readable', words: 'a call reads back to its own tenant, live or ended' }
    : { statuses: [404], clause: '5.7/isolation-call-read', words: "another tenant's call answers like one that never existed" };
}

/** `POST /calls/{id}/monitor-session` on call `i` of `owner` by `reader` with its current key. */
export function allowedMint(owner: ModelTenant, i: number, reader: ModelTenant): Allowed {
  if (owner.index !== reader.index)
    return { statuses: [404], clause: '5.7/isolation-call-read', words: "another tenant's call answers like one that never existed" };
  if (owner.calls[i] === 'deleted')
    return { statuses: [404], clause: '7/bare-404-deleted-call', words: 'a deleted call answers the monitoring POSTs like one that never existed' };
  return owner.calls[i] === 'live'
    ? { statuses: [200, 201, 409], reason: '!not_live', clause: '4.5/monitor-session-mint', words: 'a live call mints, or is busy (a 409 other than not_live)' }
    : { statuses: [409], reason: 'not_live', clause: '3/monitoring-not-live-final', words: 'an ended call is refused with 409 not_live' };
}

/** `DELETE /calls/{id}/monitor-session` on live call `i` of `owner`, with an open session, by `reader`. */
export function allowedClose(owner: ModelTenant, reader: ModelTenant): Allowed {
  return owner.index === reader.index
    ? { statuses: [200, 202, 204], clause: '4.5/monitor-session-delete', words: 'DELETE closes one open session of a live call' }
    : { statuses: [404], clause: '5.7/isolation-monitor-session-close', words: "another tenant's call answers like one that never existed" };
}

/** `GET /calls/{id}/monitor-sessions` (the audit read) of a call of `owner` by `reader`, live or ended. */
export function allowedAuditRead(owner: ModelTenant, reader: ModelTenant): Allowed {
  return owner.index === reader.index
    ? { statuses: [200], clause: '4.5/monitor-sessions-audit', words: 'the audit read works during and after the call' }
    : { statuses: [404], clause: '5.7/isolation-monitor-sessions-read', words: "another tenant's call answers like one that never existed" };
}

/**
 * §4.5 "who held a session, actorLabel": the labels of `owner`'s call `i` that the audit read
 * `data` does not show (each label must occur verbatim as a string value somewhere in it, the
 * sessions a DELETE closed or the end of the call closed included; the row shape is not shown).
 */
export function unlistedLabels(owner: ModelTenant, i: number, data: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') found.add(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(data);
  return (owner.labels[i] ?? []).filter((l) => !found.has(l));
}

/**
 * §4.5 per-call monitor slots, their number not shown: `slots` sessions were open when a mint was
 * refused (so the call has `slots` slots), and `free` of them (1 by default) were closed; of mints
 * sent at once, at most `free` may take the free slots. Answers the words of the breach, or undefined.
 */
export function slotBreach(slots: number, successes: number, free = 1): string | undefined {
  if (successes <= free) return undefined;
  const freed = `${free} free slot${free === 1 ? '' : 's'}`;
  return `${successes} of the mints sent at once on a call with ${freed} (a mint was refused with ${slots} open, ${free} then closed) were accepted: the call held ${slots - free + successes} sessions`;
}

/** Whether an answer (status and, for a 409, its reason) is one the model allows. */
export function allows(a: Allowed, status: number, reason: unknown): boolean {
  if (!a.statuses.includes(status)) return false;
  if (status !== 409 || a.reason === undefined) return true;
  return a.reason === 'not_live' ? reason === 'not_live' : reason !== 'not_live';
}

/**
 * Checks an answer (its status, a 409's `reason`, an envelope's `error.code`) against what the model
 * allows; `what` names the request (a curl line).
 * @throws StepFailure when the model does not allow it
 */
export function expectAllowed(a: Allowed & { code?: string }, status: number, reason: unknown, what: string, code?: unknown): void {
  const codeOk = a.code === undefined || a.code === code;
  if (allows(a, status, reason) && codeOk) return;
  const wanted = `${a.statuses.join(' or ')}${a.code ? ` ${a.code}` : ''}${a.reason ? ` (409 reason ${a.reason})` : ''}`;
  const got = `${status}${reason ? ` ${String(reason)}` : ''}${code && !codeOk ? ` ${String(code)}` : ''}`;
  throw new StepFailure(`${what}: expected ${wanted} — ${a.words}; got ${got}`, a.clause);
}

/** Every clause the model's expectations name, for the test's declaration. */
export const LIFECYCLE_CLAUSES = [
  '5.4/rotated-key-invalid',
  '5.6/403-removed-tenant',
  '5.6/removed-tenant-key-refused',
  '5.2/org-key-with-tenant-header',
  '4.5/calls-readable',
  '5.7/isolation-call-read',
  '4.5/monitor-session-mint',
  '3/monitoring-not-live-final',
  '4.5/monitor-session-delete',
  '5.7/isolation-monitor-session-close',
  '4.5/monitor-sessions-audit',
  '5.7/isolation-monitor-sessions-read',
  '7/bare-404-deleted-call',
  '4.5/monitor-session-slots',
];
