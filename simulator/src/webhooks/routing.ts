/**
 * Where an event goes (§6 first paragraph, §2.3 rules 4 and 5, control-api.md `webhookConnectTo`).
 *
 * 1. Which URL ({@link route}): the URL passed by the emitter (a call's serverUrl snapshotted when
 *    it began, §1, {@link callEventRoute}), else the assistant's `serverUrl` when set
 *    ({@link assistantUrl}), else the tenant-level URL; none → no delivery.
 * 2. Where the bytes really go: when `"host:port"` of that URL is a key of `webhookConnectTo`,
 *    the request is sent to that origin with the URL's path and query kept and the original
 *    `Host` header, like curl's `--connect-to`. A bare hostname has the path `/` (§2.3 rule 5).
 */
import { seam } from '../seam.ts';
import type { CallRecord, SimState } from '../state.ts';

/** The routing inputs of one event. */
export interface RouteInput {
  tenantId: string;
  assistantId?: string;
  /** Explicit URL; overrides the assistant and tenant URLs. */
  url?: string;
}

/** The tenant-level server URL of `tenantId`, or null when it has none (or is removed). */
export function tenantServerUrl(state: SimState, tenantId: string): string | null {
  return state.tenants.get(tenantId)?.serverUrl ?? null;
}

/**
 * §6, §2.3 rule 4: the configured URL an event of this tenant/assistant is delivered to: the
 * emitter's URL, else the assistant's `serverUrl` when set, else the tenant-level URL; null when
 * none is set. An assistant of another tenant is ignored.
 */
export const route = seam('webhooks.route', (state: SimState, input: RouteInput): string | null => {
  if (input.url) return input.url;
  if (input.assistantId) {
    const a = state.assistants.get(input.assistantId);
    const url = a && a.tenantId === input.tenantId ? assistantServerUrl(state, input.assistantId, a.data.serverUrl) : null;
    if (url) return url;
  }
  return tenantServerUrl(state, input.tenantId);
});

/** The configured URL of an event under the behaviour in force (see {@link route}). */
export function routeUrl(state: SimState, input: RouteInput): string | null {
  return state.behaviour.of(route)(state, input);
}

/** Collection of the last non-empty serverUrl each assistant had before a PATCH replaced it. */
const PREVIOUS = 'webhookPreviousServerUrls';

/**
 * Notes the serverUrl an assistant had before a write (`before`, as stored; ignored unless a
 * non-empty string), so a reading of {@link assistantUrl} may route to it. Kept always, so a
 * behaviour switched on later finds the URL. Reset empties it.
 */
export function rememberServerUrl(state: SimState, assistantId: string, before: unknown): void {
  if (typeof before === 'string' && before !== '') state.collection<string>(PREVIOUS).set(assistantId, before);
}

/** The last non-empty serverUrl assistant `assistantId` had before a write replaced it, or null. */
export function previousServerUrl(state: SimState, assistantId: string): string | null {
  return state.collection<string>(PREVIOUS).get(assistantId) ?? null;
}

/** Collection of the tenant-level URL in force when each assistant's serverUrl was last cleared. */
const TENANT_URL_AT_CLEAR = 'webhookTenantUrlAtClear';

/**
 * Notes, after a PATCH whose body (`patch`) cleared the assistant's serverUrl (null), the
 * tenant-level URL of `tenantId` in force then, so a reading of {@link assistantUrl} may route to
 * it; a PATCH that sets a serverUrl forgets it. Kept always, so a behaviour switched on later finds it.
 */
export function rememberTenantUrlAtClear(state: SimState, tenantId: string, assistantId: string, patch: unknown): void {
  const url = (patch as { serverUrl?: unknown } | null)?.serverUrl;
  const notes = state.collection<string | null>(TENANT_URL_AT_CLEAR);
  if (url === null) notes.set(assistantId, tenantServerUrl(state, tenantId));
  else if (typeof url === 'string') notes.delete(assistantId);
}

/** The tenant-level URL in force when assistant `assistantId`'s serverUrl was last cleared, or null. */
export function tenantUrlAtClear(state: SimState, assistantId: string): string | null {
  return state.collection<string | null>(TENANT_URL_AT_CLEAR).get(assistantId) ?? null;
}

/**
 * §2.3 rule 4: the serverUrl an assistant's events use, given its stored value `current`:
 * `current` when it is a non-empty string, else null (the tenant URL is used).
 */
export const assistantUrl = seam('webhooks.assistant-server-url', (_state: SimState, _assistantId: string, current: unknown): string | null =>
  typeof current === 'string' && current !== '' ? current : null,
);

/** The serverUrl an assistant's events use under the behaviour in force (see {@link assistantUrl}). */
export function assistantServerUrl(state: SimState, assistantId: string, current: unknown): string | null {
  return state.behaviour.of(assistantUrl)(state, assistantId, current);
}

/**
 * §1: a call keeps the configuration in force when it started, so every event of the call
 * (`type`) goes to the serverUrl snapshotted then, else to the tenant URL.
 */
export const callEventRoute = seam('webhooks.call-route', (call: CallRecord, _type: string): { url?: string; assistantId?: string } =>
  call.serverUrl ? { url: call.serverUrl } : {},
);

/**
 * §2.3 rule 5: the URL an attempt requests for the configured URL `url` (`tenantUrl` is the
 * tenant-level one): the URL itself, path and query kept.
 */
export const requestUrl = seam('webhooks.request-url', (url: string, _tenantUrl: string | null): string => url);

/** Where an HTTP request for a configured URL is sent. */
export interface DeliveryTarget {
  /** Absolute URL actually requested (connect-to origin + path + query, or the URL itself). */
  requestUrl: string;
  /** `Host` header value: always the host (and port) of the configured URL. */
  host: string;
}

/** The default port of an http(s) URL's protocol. */
function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/**
 * Applies `webhookConnectTo` to a configured URL. Keys are matched as `"hostname:port"`
 * (hostname case-insensitive, the scheme's default port when the URL has none; an IPv6 literal
 * may be written with or without brackets). Throws TypeError when `url` is not an absolute URL.
 */
export function deliveryTarget(connectTo: Record<string, string>, url: string): DeliveryTarget {
  const u = new URL(url);
  const port = u.port || defaultPort(u.protocol);
  const hostname = u.hostname.toLowerCase();
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const wanted = new Set([`${hostname}:${port}`, `${bare}:${port}`]);
  const path = `${u.pathname || '/'}${u.search}`;
  for (const [key, origin] of Object.entries(connectTo)) {
    if (!wanted.has(key.toLowerCase())) continue;
    const o = new URL(origin);
    return { requestUrl: `${o.origin}${path}`, host: u.host };
  }
  return { requestUrl: `${u.origin}${path}`, host: u.host };
}
