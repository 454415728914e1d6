/**
 * Where an event goes (§6 first paragraph, §2.3 rules 4 and 5, control-api.md `webhookConnectTo`).
 *
 * 1. Which URL: the URL passed by the emitter (a call's serverUrl snapshotted when it began, §1),
 *    else the assistant's `serverUrl` when set, else the tenant-level URL; none → no delivery.
 *    Fault `webhooks.ignore-server-url`: always the tenant-level URL. Fault
 *    `webhooks.null-server-url-kept`: an assistant whose serverUrl was set to null keeps routing
 *    to the URL it had before ({@link rememberServerUrl}, {@link assistantServerUrl}).
 * 2. Where the bytes really go: when `"host:port"` of that URL is a key of `webhookConnectTo`,
 *    the request is sent to that origin with the URL's path and query kept and the original
 *    `Host` header, like curl's `--connect-to`. A bare hostname has the path `/` (§2.3 rule 5).
 */
import { faultOn } from '../faults.ts';
import type { SimState } from '../state.ts';

/** The routing inputs of one event. */
export interface RouteInput {
  tenantId: string;
  assistantId?: string;
  /** Explicit URL; overrides the assistant and tenant URLs (not the `ignore-server-url` fault). */
  url?: string;
}

/**
 * The configured URL an event of this tenant/assistant is delivered to, or null when neither the
 * assistant (owned by the tenant) nor the tenant has one. An assistant of another tenant is ignored.
 */
export function routeUrl(state: SimState, input: RouteInput): string | null {
  const tenantUrl = state.tenants.get(input.tenantId)?.serverUrl ?? null;
  if (faultOn(state, 'webhooks.ignore-server-url')) return tenantUrl;
  if (input.url) return input.url;
  if (input.assistantId) {
    const a = state.assistants.get(input.assistantId);
    const url = a && a.tenantId === input.tenantId ? assistantServerUrl(state, input.assistantId, a.data.serverUrl) : null;
    if (url) return url;
  }
  return tenantUrl;
}

/** Collection of the last non-empty serverUrl each assistant had before a PATCH replaced it. */
const PREVIOUS = 'webhookPreviousServerUrls';

/**
 * Notes the serverUrl an assistant had before a write (`before`, as stored; ignored unless a
 * non-empty string), so the `webhooks.null-server-url-kept` fault can keep routing to it. Kept
 * whether or not the fault is on, so switching it on later finds the URL. Reset empties it.
 */
export function rememberServerUrl(state: SimState, assistantId: string, before: unknown): void {
  if (typeof before === 'string' && before !== '') state.collection<string>(PREVIOUS).set(assistantId, before);
}

/**
 * The serverUrl an assistant's events use, given its stored value `current`: `current` when it is
 * a non-empty string, else null (§2.3 rule 4: the tenant URL is used). Under the
 * `webhooks.null-server-url-kept` fault a null `current` gives the URL it had before instead.
 */
export function assistantServerUrl(state: SimState, assistantId: string, current: unknown): string | null {
  if (typeof current === 'string' && current !== '') return current;
  if (!faultOn(state, 'webhooks.null-server-url-kept')) return null;
  return state.collection<string>(PREVIOUS).get(assistantId) ?? null;
}

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
