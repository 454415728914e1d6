/**
 * Small format checks shared by routes and the control API: uuid, E.164, integer-or-integer-string
 * (§2.2), and the address classes that §2.3 forbids for serverUrl.
 */
import { isIP } from 'node:net';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical 8-4-4-4-12 hex uuid string (any version, any case). */
export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID_RE.test(v);
}

/** True for an E.164 number: `+`, a non-zero digit, then up to 14 more digits. */
export function isE164(v: unknown): v is string {
  return typeof v === 'string' && /^\+[1-9]\d{1,14}$/.test(v);
}

/** True for a JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads "integer or integer string" (§2.2): a JSON integer, or a string of ASCII digits with an
 * optional leading `-` (no spaces, no `+`, no decimal point). Returns the number, or null when the
 * value is neither.
 */
export function readIntegerLike(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
  return null;
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inV4(ip: number, base: string, bits: number): boolean {
  const size = 2 ** (32 - bits);
  const start = ipv4ToInt(base);
  return ip >= start && ip < start + size;
}

/** An IPv4 range: its base address and prefix length (`['10.0.0.0', 8]` is 10/8). */
export type Cidr = readonly [base: string, bits: number];

/**
 * The IPv4 ranges §2.3 forbids as a serverUrl destination: private 10/8, 172.16/12, 192.168/16,
 * loopback 127/8, link-local 169.254/16, and "this network" 0/8 (0.0.0.0, the unspecified address).
 */
export const FORBIDDEN_IPV4_RANGES: readonly Cidr[] = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['0.0.0.0', 8],
];

/** True when an IPv4 address lies in one of `ranges` (default: the ranges §2.3 forbids). */
export function isForbiddenIPv4(ip: string, ranges: readonly Cidr[] = FORBIDDEN_IPV4_RANGES): boolean {
  const n = ipv4ToInt(ip);
  return ranges.some(([base, bits]) => inV4(n, base, bits));
}

/** Expands an IPv6 address (no zone id) to its 8 16-bit groups; null when it cannot be read. */
export function ipv6Groups(ip: string): number[] | null {
  let s = ip.toLowerCase();
  const pct = s.indexOf('%');
  if (pct !== -1) s = s.slice(0, pct);
  // A trailing dotted IPv4 part becomes two groups.
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (v4) {
    if (isIP(v4[1]) !== 4) return null;
    const n = ipv4ToInt(v4[1]);
    s = s.slice(0, -v4[1].length) + `${((n >>> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 && missing !== 0) return null;
  if (halves.length === 2 && missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const out: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    out.push(parseInt(g, 16));
  }
  return out.length === 8 ? out : null;
}

/**
 * True when an IPv6 address is one §2.3 forbids: loopback ::1, link-local fe80::/10, unique-local
 * fc00::/7, and IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) forms of a forbidden
 * IPv4 address (the unspecified :: is the compatible form of 0.0.0.0), and the forms that embed an
 * IPv4 address (SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), judged by that address
 * against `ranges` (default: the IPv4 ranges §2.3 forbids). Unreadable input counts as forbidden.
 */
export function isForbiddenIPv6(ip: string, ranges: readonly Cidr[] = FORBIDDEN_IPV4_RANGES): boolean {
  const g = ipv6Groups(ip);
  if (!g) return true;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7] === 1) return true; // ::1
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7
  const embedded = `${g[6] >> 8}.${g[6] & 0xff}.${g[7] >> 8}.${g[7] & 0xff}`;
  if (zeros(5) && g[5] === 0xffff) return isForbiddenIPv4(embedded, ranges); // ::ffff:a.b.c.d
  if (zeros(6)) return isForbiddenIPv4(embedded, ranges); // ::a.b.c.d (deprecated compatible form), :: included
  // Forms that embed an IPv4 address, judged by it (a reading: §2.3 does not name them):
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return isForbiddenIPv4(embedded, ranges); // ::ffff:0:a.b.c.d (SIIT)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isForbiddenIPv4(embedded, ranges); // 64:ff9b::/96 (NAT64)
  if (g[0] === 0x2002) return isForbiddenIPv4(`${g[1] >> 8}.${g[1] & 0xff}.${g[2] >> 8}.${g[2] & 0xff}`, ranges); // 2002::/16 (6to4)
  return false;
}

/**
 * True when `ip` (v4 or v6 literal) is forbidden as a serverUrl destination (§2.3 rule 2), judged
 * against the IPv4 `ranges` (default: those §2.3 forbids); anything but an IP literal is.
 */
export function isForbiddenAddress(ip: string, ranges: readonly Cidr[] = FORBIDDEN_IPV4_RANGES): boolean {
  const kind = isIP(ip);
  if (kind === 4) return isForbiddenIPv4(ip, ranges);
  if (kind === 6) return isForbiddenIPv6(ip, ranges);
  return true;
}

/** True for a loopback peer address (127/8, ::1, ::ffff:127.x.x.x). */
export function isLoopbackPeer(addr: string | undefined): boolean {
  if (!addr) return false;
  if (addr === '::1') return true;
  const v4 = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
