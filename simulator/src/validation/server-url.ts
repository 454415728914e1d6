/**
 * serverUrl rules of §2.3 / §8: an https:// URL of at most 1,024 characters whose host resolves,
 * through the control DNS table only (no real DNS, no request sent, rule 3), and never to a
 * private, loopback, link-local, unique-local or unspecified address (rule 2). An IP-literal host
 * is judged the same way without a lookup. If any resolved address is forbidden, the URL is
 * rejected (a mixed answer could still reach the private one).
 */
import { isIP } from 'node:net';
import type { SimState } from '../state.ts';
import { isForbiddenAddress } from './formats.ts';

/** Maximum serverUrl length in characters (§8). */
export const SERVER_URL_MAX = 1024;

/** Why `value` is not an acceptable serverUrl, or null when it is. `null` itself is acceptable (clears). */
export function serverUrlProblem(state: SimState, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') return 'must be a string or null';
  if (value.length > SERVER_URL_MAX) return `must be at most ${SERVER_URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid https:// URL';
  }
  if (url.protocol !== 'https:') return 'must use https://';
  let host = url.hostname;
  if (host === '') return 'must name a host';
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (isIP(host) !== 0) {
    return isForbiddenAddress(host) ? 'must not point to a private, loopback or link-local address' : null;
  }
  const addresses = state.resolve(host);
  if (addresses.length === 0) return 'hostname does not resolve in public DNS';
  if (addresses.some((a) => isForbiddenAddress(a))) {
    return 'hostname resolves to a private, loopback or link-local address';
  }
  return null;
}
