/**
 * A model of where events go (issue 39, item 4; §6 first paragraph, §2.3 rule 4, §1): an
 * assistant's `serverUrl` (one of two receiver paths, or null) and its tenant's tenant-level server
 * URL (one of two other receiver paths). suites/webhooks/routing-model.ts draws sequences of
 * serverUrl writes (set, cleared, the same twice, switched and back), tenant-level URL moves
 * (control API), calls and messaging conversations, applies each to the target and here, and judges
 * where each one's events arrived. Pure: no I/O.
 *
 * What a careful reading allows is a set: a call's assistant-request goes to the serverUrl when one
 * is set, else to the tenant-level URL (§6, §2.3 rule 4); its end-of-call report goes to the
 * serverUrl the call began with (§1), and when it began without one, either to the tenant-level URL
 * it began with or to where the assistant's events go at the end (§1 "configuration is read when a
 * call starts" may or may not cover the tenant-level URL and a serverUrl set mid-call).
 */

/** The two serverUrls of a run. */
export type ServerUrlName = 'S1' | 'S2';
/** The two tenant-level URLs of a run. */
export type TenantUrlName = 'T1' | 'T2';
/** Where a delivery may go: one of the run's receiver paths. */
export type Destination = ServerUrlName | TenantUrlName;

/** The routing state of one assistant and its tenant. */
export interface RoutingModel {
  /** The assistant's serverUrl, or null (unset). */
  serverUrl: ServerUrlName | null;
  /** The tenant-level server URL (always one of the run's: a run points it at its receiver first). */
  tenantUrl: TenantUrlName;
  /** Whether a PATCH cleared the serverUrl (null) during the run: a tenant-level delivery then proves §2.3 rule 4. */
  cleared: boolean;
}

/** A run's start: no serverUrl, the tenant-level URL at T1. */
export function initialRouting(): RoutingModel {
  return { serverUrl: null, tenantUrl: 'T1', cleared: false };
}

/** Where an event of the assistant goes now (§6): its serverUrl when set, else the tenant-level URL. */
export function destination(m: Readonly<RoutingModel>): Destination {
  return m.serverUrl ?? m.tenantUrl;
}

/** Where a delivery may arrive, the clause that says so, and in words. */
export interface AllowedRoute {
  to: Destination[];
  clause: string;
  words: string;
}

/** The clause a delivery to the tenant-level URL proves: §2.3 rule 4 after a clear, else §6. */
function tenantClause(m: Readonly<RoutingModel>): string {
  return m.cleared ? '2.3/unset-tenant-url' : '6/route-tenant-url';
}

/** A call's assistant-request, the call started in state `m` (§6, §2.3 rule 4). */
export function allowedStart(m: Readonly<RoutingModel>): AllowedRoute {
  if (m.serverUrl) return { to: [m.serverUrl], clause: '6/route-server-url', words: `with serverUrl ${m.serverUrl} set, assistant-request goes there` };
  return { to: [m.tenantUrl], clause: tenantClause(m), words: `with serverUrl unset, assistant-request goes to the tenant-level URL ${m.tenantUrl}` };
}

/** A call's end-of-call report, the call started in state `start` and ended in state `end` (§1, §6). */
export function allowedEnd(start: Readonly<RoutingModel>, end: Readonly<RoutingModel>): AllowedRoute {
  if (start.serverUrl)
    return {
      to: [start.serverUrl],
      clause: '1/call-keeps-server-url',
      words: `the call began with serverUrl ${start.serverUrl}: its end-of-call report goes there`,
    };
  const to = [...new Set([start.tenantUrl, destination(end)])];
  return {
    to,
    clause: tenantClause(end),
    words: `the call began without serverUrl: its end-of-call report goes to the tenant-level URL it began with${to.length > 1 ? ` (${start.tenantUrl}) or where the assistant's events go at its end (${to[1]})` : ` (${start.tenantUrl})`}`,
  };
}

/**
 * A messaging conversation's end-of-conversation report, the conversation started in state `start`
 * and ended in state `end` (§6): §1's "a call keeps its configuration" names calls only, so either
 * where its events went at the start or where they go at the end.
 */
export function allowedConversationEnd(start: Readonly<RoutingModel>, end: Readonly<RoutingModel>): AllowedRoute {
  const to = [...new Set([destination(start), destination(end)])];
  return {
    to,
    clause: start.serverUrl || end.serverUrl ? '6/route-server-url' : tenantClause(end),
    words: `the end-of-conversation report goes where the assistant's events went at the conversation's start${to.length > 1 ? ` (${to[0]}) or go at its end (${to[1]})` : ` (${to[0]})`}`,
  };
}

/** Every clause the model's expectations name, for the test's declaration. */
export const ROUTING_CLAUSES = ['6/route-server-url', '6/route-tenant-url', '2.3/unset-tenant-url', '1/call-keeps-server-url'];
