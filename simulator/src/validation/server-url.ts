/**
 * serverUrl rules of §2.3 / §8: an https:// URL of at most 1,024 characters whose host resolves,
 * through the control DNS table only (no real DNS, no request sent, rule 3), and never to a
 * private, loopback, link-local, unique-local or unspecified address (rule 2). An IP-literal host
 * is judged the same way without a lookup. If any resolved address is forbidden, the URL is
 * rejected (a mixed answer could still reach the private one).
 *
 * Faults (one §2.3 clause each): `bounds.server-url-1025`, `bounds.server-url-http`,
 * `bounds.server-url-mapped-private` (an IPv4-mapped IPv6 address is never forbidden),
 * `bounds.server-url-first-address-only` (only the first resolved address is checked).
 */
import { isIP } from 'node:net';
import { faultOn } from '../faults.ts';
import type { SimState } from '../state.ts';
import { ipv6Groups, isForbiddenAddress } from './formats.ts';

/** Maximum serverUrl length in characters (§8). */
export const SERVER_URL_MAX = 1024;

/** True for an IPv4-mapped IPv6 address (::ffff:a.b.c.d in any spelling). */
function isIPv4Mapped(ip: string): boolean {
  if (isIP(ip) !== 6) return false;
  const g = ipv6Groups(ip);
  return g !== null && g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
}

/** isForbiddenAddress, with the switch point of fault `bounds.server-url-mapped-private`. */
function forbidden(state: SimState, ip: string): boolean {
  if (isIPv4Mapped(ip) && faultOn(state, 'bounds.server-url-mapped-private')) return false;
  return isForbiddenAddress(ip, state.config.faults);
}

/** Why `value` is not an acceptable serverUrl, or null when it is. `null` itself is acceptable (clears). */
export function serverUrlProblem(state: SimState, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') return 'must be a string or null';
  const max = faultOn(state, 'bounds.server-url-1025')
    ? SERVER_URL_MAX + 1
    : faultOn(state, 'bounds.server-url-refuses-1024')
      ? SERVER_URL_MAX - 1
      : SERVER_URL_MAX;
  if (value.length > max) return `must be at most ${SERVER_URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid https:// URL';
  }
  const httpOk = url.protocol === 'http:' && faultOn(state, 'bounds.server-url-http');
  if (url.protocol !== 'https:' && !httpOk) return 'must use https://';
  let host = url.hostname;
  if (host === '') return 'must name a host';
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (isIP(host) !== 0) {
    return forbidden(state, host) ? 'must not point to a private, loopback or link-local address' : null;
  }
  const addresses = state.resolve(host);
  if (addresses.length === 0) return 'hostname does not resolve in public DNS';
  const checked = faultOn(state, 'bounds.server-url-first-address-only') ? addresses.slice(0, 1) : addresses;
  if (checked.some((a) => forbidden(state, a))) {
    return 'hostname resolves to a private, loopback or link-local address';
  }
  return null;
}
