/**
 * serverUrl rules of §2.3 / §8: an https:// URL of at most 1,024 characters whose host resolves,
 * through the control DNS table only (no real DNS, no request sent, rule 3), and never to a
 * private, loopback, link-local, unique-local or unspecified address (rule 2). An IP-literal host
 * is judged the same way without a lookup. If any resolved address is forbidden, the URL is
 * rejected (a mixed answer could still reach the private one).
 *
 * Each rule is a seam (seam.ts): the length limit, the scheme, the forbidden ranges, the judgement
 * of one address, and which resolved addresses are judged.
 */
import { isIP } from 'node:net';
import { seam } from '../seam.ts';
import type { SimState } from '../state.ts';
import { FORBIDDEN_IPV4_RANGES, isForbiddenAddress, type Cidr } from './formats.ts';

/** Maximum serverUrl length in characters (§8). */
export const SERVER_URL_MAX = 1024;

/** §2.3, §8: the longest serverUrl accepted, in characters. */
export const serverUrlMaxLength = seam('server-url.max-length', (): number => SERVER_URL_MAX);

/** §2.3 rule 1: the URL scheme a serverUrl may use (`protocol` as URL reads it, e.g. `https:`): https only. */
export const serverUrlScheme = seam('server-url.scheme', (protocol: string): boolean => protocol === 'https:');

/** §2.3 rule 2: the IPv4 ranges a serverUrl may not reach (validation/formats.ts {@link FORBIDDEN_IPV4_RANGES}). */
export const forbiddenRanges = seam('server-url.forbidden-ranges', (): readonly Cidr[] => FORBIDDEN_IPV4_RANGES);

/** §2.3 rule 2: whether a destination address (an IP literal) is forbidden, judged against `ranges`. */
export const forbiddenDestination = seam('server-url.forbidden-destination', (ip: string, ranges: readonly Cidr[]): boolean => isForbiddenAddress(ip, ranges));

/** §2.3 rule 2: the addresses of a resolved host that are judged: every one of them. */
export const judgedAddresses = seam('server-url.judged-addresses', (addresses: readonly string[]): readonly string[] => addresses);

/**
 * §2.3 rule 2: the host a serverUrl names, as the client that delivers to it reads the URL (WHATWG
 * URL: userinfo, backslashes and the IPv4 forms in decimal, octal or hex all resolved), brackets of
 * an IPv6 literal included. `raw` is the URL as sent.
 */
export const serverUrlHost = seam('server-url.host', (url: URL, _raw: string): string => url.hostname);

/** Why `value` is not an acceptable serverUrl, or null when it is. `null` itself is acceptable (clears). */
export function serverUrlProblem(state: SimState, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') return 'must be a string or null';
  const seams = state.behaviour;
  if (value.length > seams.of(serverUrlMaxLength)()) return `must be at most ${SERVER_URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid https:// URL';
  }
  if (!seams.of(serverUrlScheme)(url.protocol)) return 'must use https://';
  let host = seams.of(serverUrlHost)(url, value);
  if (host === '') return 'must name a host';
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const ranges = seams.of(forbiddenRanges)();
  const forbidden = (ip: string) => seams.of(forbiddenDestination)(ip, ranges);
  if (isIP(host) !== 0) {
    return forbidden(host) ? 'must not point to a private, loopback or link-local address' : null;
  }
  const addresses = state.resolve(host);
  if (addresses.length === 0) return 'hostname does not resolve in public DNS';
  if (seams.of(judgedAddresses)(addresses).some(forbidden)) {
    return 'hostname resolves to a private, loopback or link-local address';
  }
  return null;
}
