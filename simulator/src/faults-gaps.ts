/**
 * Faults of the detection-gap classes (issue 13): each breaks one rule on one side of a
 * boundary, the way real implementations get it wrong. Registered in faults.ts with the others.
 * - Over-blocking and under-blocking at the edges of the §2.3 ranges.
 * - Addresses that reach the host itself without being written as loopback (0.0.0.0, ::).
 * - `timezone` as a zone name (§2.2): any string accepted, or real zones refused.
 * - Raw header bytes: a lenient parser that ends a header line at a bare LF or CR (§5.6).
 * - Model B retries every non-2xx (§6 B.3), model A none (§6 A.3).
 */
import type { FaultInfo } from './faults.ts';

/** The faults of this file. */
export const GAP_FAULTS: readonly FaultInfo[] = [
  {
    name: 'auth.lenient-header-parser',
    clauses: ['5.6/401-trailing-newline'],
    description: 'The HTTP parser is lenient: a bare LF or CR ends a header line, so a key followed by a stray newline byte authenticates (2xx) instead of 401.',
  },
  {
    name: 'bounds.private-172-slash-8',
    clauses: ['2.3/no-private-addresses', '2.3/public-name-accepted'],
    description: 'Over-blocking: all of 172/8 is treated as private, so public addresses such as 172.32.0.0 and 172.15.255.255 are refused.',
  },
  {
    name: 'bounds.private-172-slash-13',
    clauses: ['2.3/no-private-addresses'],
    description: 'Under-blocking: 172.16/12 is checked as 172.16/13, so 172.24.0.0 to 172.31.255.255 are accepted.',
  },
  {
    name: 'bounds.loopback-slash-24',
    clauses: ['2.3/no-private-addresses'],
    description: 'Under-blocking: only 127.0.0/24 counts as loopback, so 127.255.255.255 is accepted.',
  },
  {
    name: 'bounds.link-local-169-slash-8',
    clauses: ['2.3/no-private-addresses', '2.3/public-name-accepted'],
    description: 'Over-blocking: all of 169/8 is treated as link-local, so public 169.255.0.0 and 169.253.255.255 are refused.',
  },
  {
    name: 'bounds.private-10-slash-7',
    clauses: ['2.3/no-private-addresses', '2.3/public-name-accepted'],
    description: 'Over-blocking off by one: 10/8 is checked as 10/7, so public 11.0.0.0 is refused.',
  },
  {
    name: 'bounds.accept-unspecified',
    clauses: ['2.3/no-unspecified-address'],
    description: '0.0.0.0 (0/8) and :: are accepted, although a connection to them reaches the host itself.',
  },
  {
    name: 'bounds.timezone-any-string',
    clauses: ['2.2/timezone-zone-name'],
    description: 'timezone accepts any string (Mars/Olympus, UTC+25, an empty string).',
  },
  {
    name: 'bounds.timezone-region-city-only',
    clauses: ['2.2/timezone-zone-name'],
    description: 'Over-blocking: only Region/City zone names are accepted, so UTC and three-part names such as America/Argentina/Buenos_Aires are refused.',
  },
  {
    name: 'webhooks.retry-5xx-only',
    clauses: ['6/b-retry-every-non-2xx'],
    description: 'Model B retries only 5xx answers and timeouts; a 4xx answer (400, 401, 404, 409, 429) ends the delivery.',
  },
  {
    name: 'webhooks.no-retry-on-refused',
    clauses: ['6/b-retry-every-non-2xx'],
    description: 'Model B does not retry a refused connection (no answer at all); only answers and timeouts are retried.',
  },
  {
    name: 'webhooks.model-a-retries-429',
    clauses: ['6/a-no-retry'],
    description: 'Model A retries a 429 answer once (it must retry nothing).',
  },
];
