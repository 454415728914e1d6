/**
 * Faults of the §2.3 serverUrl rules (the `bounds.*` faults of that field): each overrides one seam
 * of validation/server-url.ts. The range faults move one edge of one forbidden range, over-blocking
 * (a wider range) or under-blocking (a narrower one). Probes: simulator/test/faults/server-url.test.ts.
 */
import { isIP } from 'node:net';
import { override } from '../seam.ts';
import { ipv6Groups, type Cidr } from '../validation/formats.ts';
import { forbiddenDestination, forbiddenRanges, judgedAddresses, serverUrlHost, serverUrlMaxLength, serverUrlScheme } from '../validation/server-url.ts';
import { defineFaults } from './define.ts';

/** True for an IPv4-mapped IPv6 address (::ffff:a.b.c.d in any spelling). */
function isIPv4Mapped(ip: string): boolean {
  if (isIP(ip) !== 6) return false;
  const g = ipv6Groups(ip);
  return g !== null && g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
}

/** An override of the forbidden ranges that checks range `from` as `to` instead. */
function rangeAs(from: Cidr, to: Cidr) {
  return override(forbiddenRanges, (next) => () => next().map((r) => (r[0] === from[0] && r[1] === from[1] ? to : r)));
}

/** The serverUrl faults. */
export const SERVER_URL_FAULTS = defineFaults([
  {
    name: 'bounds.server-url-1025',
    clauses: ['2.3/https-max-1024', '8/server-url-1024-https'],
    description: 'serverUrl accepts 1,025 characters.',
    override: override(serverUrlMaxLength, (next) => () => next() + 1),
  },
  {
    name: 'bounds.server-url-refuses-1024',
    clauses: ['2.3/https-max-1024', '8/server-url-1024-https'],
    description: 'serverUrl refuses a URL of exactly 1,024 characters, its limit.',
    override: override(serverUrlMaxLength, (next) => () => next() - 1),
  },
  {
    name: 'bounds.server-url-http',
    clauses: ['2.3/https-max-1024', '8/server-url-1024-https'],
    description: 'serverUrl accepts an http:// URL (the host is still checked).',
    override: override(serverUrlScheme, (next) => (protocol) => protocol === 'http:' || next(protocol)),
  },
  {
    name: 'bounds.server-url-mapped-private',
    clauses: ['2.3/no-private-addresses'],
    description: 'An IPv4-mapped IPv6 form of a forbidden address (::ffff:10.0.0.1) is accepted as a serverUrl destination.',
    override: override(forbiddenDestination, (next) => (ip, ranges) => !isIPv4Mapped(ip) && next(ip, ranges)),
  },
  {
    name: 'bounds.server-url-first-address-only',
    clauses: ['2.3/no-private-addresses'],
    description: 'Only the first address a serverUrl hostname resolves to is checked ([public, private] accepted).',
    override: override(judgedAddresses, (next) => (addresses) => next(addresses).slice(0, 1)),
  },
  {
    name: 'bounds.private-172-slash-8',
    clauses: ['2.3/no-private-addresses', '2.3/public-name-accepted'],
    description: 'Over-blocking: all of 172/8 is treated as private, so public addresses such as 172.32.0.0 and 172.15.255.255 are refused.',
    override: rangeAs(['172.16.0.0', 12], ['172.0.0.0', 8]),
  },
  {
    name: 'bounds.private-172-slash-13',
    clauses: ['2.3/no-private-addresses'],
    description: 'Under-blocking: 172.16/12 is checked as 172.16/13, so 172.24.0.0 to 172.31.255.255 are accepted.',
    override: rangeAs(['172.16.0.0', 12], ['172.16.0.0', 13]),
  },
  {
    name: 'bounds.loopback-slash-24',
    clauses: ['2.3/no-private-addresses'],
    description: 'Under-blocking: only 127.0.0/24 counts as loopback, so 127.255.255.255 is accepted.',
    override: rangeAs(['127.0.0.0', 8], ['127.0.0.0', 24]),
  },
  {
    name: 'bounds.link-local-169-slash-8',
    clauses: ['2.3/no-private-addresses', '2.3/public-name-accepted'],
    description: 'Over-blocking: all of 169/8 is treated as link-local, so public 169.255.0.0 and 169.253.255.255 are refused.',
    override: rangeAs(['169.254.0.0', 16], ['169.0.0.0', 8]),
  },
  {
    name: 'bounds.private-10-slash-7',
    clauses: ['2.3/no-private-addresses', '2.3/public-name-accepted'],
    description: 'Over-blocking off by one: 10/8 is checked as 10/7, so public 11.0.0.0 is refused.',
    override: rangeAs(['10.0.0.0', 8], ['10.0.0.0', 7]),
  },
  {
    name: 'bounds.accept-unspecified',
    clauses: ['2.3/no-unspecified-address'],
    description: '0.0.0.0 (0/8) and :: are accepted, although a connection to them reaches the host itself.',
    override: override(forbiddenRanges, (next) => () => next().filter((r) => r[0] !== '0.0.0.0')),
  },
  {
    name: 'bounds.server-url-userinfo-host',
    clauses: ['2.3/no-private-addresses'],
    description:
      'A hand-written host parser takes the first name after https:// as the host, so https://public.example@10.0.0.1/ is judged by public.example while the delivering client connects to 10.0.0.1.',
    override: override(serverUrlHost, (next) => (url, raw) => /^https:\/\/([^/:@?#\\]+)@/i.exec(raw)?.[1] ?? next(url, raw)),
  },
]);
