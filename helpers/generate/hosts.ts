/**
 * Hostnames for the serverUrl rules of §2.3, arranged the same way on every target: on a simulator
 * through the control API's DNS override (`POST /__control/dns`); on a live tenant with names that
 * behave the same everywhere (`*.invalid` never resolves, RFC 6761; `localhost` is loopback;
 * `example.com` resolves in public DNS to a public address, RFC 2606) and, given a wildcard DNS
 * domain (`CORE_API_WILDCARD_DNS`, sslip.io style), with names that carry their address
 * ({@link wildcardName}), so every single-address case runs on a live tenant too.
 */
import ipaddr from 'ipaddr.js';
import { getTarget, hasCapability, switchReason } from '../target/target';
import type { World } from '../world/world';
import type { ApiClient } from '../http/client';

/**
 * The name under a wildcard DNS `domain` that resolves to `address`, as sslip.io answers it: IPv4
 * with dashes (`10-0-0-1.<domain>`), IPv6 with every one of its eight groups written out and dashes
 * for colons (`0-0-0-0-0-0-0-1.<domain>` for ::1; sslip.io also reads `--1.<domain>`, but a DNS
 * label may neither begin nor end with a hyphen, so the full form is the one every resolver and URL
 * parser takes). An IPv4-mapped IPv6 address keeps its IPv6 form (`0-0-0-0-0-ffff-a00-1`).
 * @throws Error when `address` is not an IP address.
 */
export function wildcardName(address: string, domain: string): string {
  const ip = ipaddr.parse(address);
  const label = ip.kind() === 'ipv4' ? ip.toString().replace(/\./g, '-') : (ip as ipaddr.IPv6).toNormalizedString().replace(/:/g, '-');
  return `${label}.${domain}`;
}

/** The wildcard DNS domain of this run when names must be arranged through it (no control API), else undefined. */
function wildcardDomain(): string | undefined {
  return hasCapability('control') ? undefined : getTarget().wildcardDns;
}

/**
 * Why no name resolving to `addresses` can be arranged on this target, tagged with what would lift
 * it: a wildcard name carries one address, so a name with several needs a simulator's DNS control;
 * one address needs `CORE_API_WILDCARD_DNS`.
 */
export function unarrangeableReason(addresses: readonly string[]): string {
  return addresses.length > 1
    ? switchReason(
        'control',
        "not applicable to this target: a name resolving to several addresses needs a simulator's DNS control (a wildcard DNS name carries one address)",
      )
    : switchReason(
        'wildcardDns',
        "missing optional fixture: the target's DNS cannot be arranged without a control API; set CORE_API_WILDCARD_DNS=<domain> (a wildcard DNS service such as sslip.io) to run this",
      );
}

/** A public documentation address (TEST-NET-3, RFC 5737): public, and nothing listens there. */
export const PUBLIC_TEST_ADDRESS = '203.0.113.10';

/** Public name used on targets whose DNS cannot be arranged. */
export const LIVE_PUBLIC_HOST = 'example.com';

/**
 * A hostname that resolves in public DNS to a public address (§2.3 rule 2).
 * Simulator: `<runPrefix><label>.example.com` pointed at {@link PUBLIC_TEST_ADDRESS}; live: the
 * wildcard name of {@link PUBLIC_TEST_ADDRESS} when `CORE_API_WILDCARD_DNS` is set, else `example.com`.
 * @throws ControlError when the simulator refuses the DNS override.
 */
export async function publicHost(world: World, label = 'hooks'): Promise<string> {
  const wild = wildcardDomain();
  if (wild) return wildcardName(PUBLIC_TEST_ADDRESS, wild);
  if (!hasCapability('control') || !world.control) return LIVE_PUBLIC_HOST;
  const name = `${world.runPrefix}${label}.example.com`;
  await world.control.dns(name, [PUBLIC_TEST_ADDRESS]);
  return name;
}

/**
 * On a target whose DNS cannot be arranged (a live tenant: no control API), whether it refuses a
 * serverUrl on the public name `host` ({@link publicHost}): one PATCH of assistant `assistantId`,
 * which the caller puts back. Answers the refusal in words (`the target refuses https://host/… (400
 * VALIDATION_ERROR), a name that resolves in public DNS`), or undefined when it was accepted. On a
 * simulator nothing is sent: its DNS is arranged, so a refusal there is a failure to judge, not a
 * precondition.
 */
export async function publicNameRefusal(client: ApiClient, assistantId: string, host: string): Promise<string | undefined> {
  if (hasCapability('control')) return undefined;
  const probe = await client.patch(`/assistants/${assistantId}`, { serverUrl: `https://${host}/conformance-probe` });
  if (probe.status === 200) return undefined;
  return `the target refuses https://${host}/… (${probe.status} ${probe.json?.error?.code ?? ''}), a name that resolves in public DNS`;
}

/** A hostname that resolves nowhere: `<runPrefix><label>.invalid` (explicitly set to resolve to nothing on a simulator). */
export async function unresolvableHost(world: World, label = 'nowhere'): Promise<string> {
  const name = `${world.runPrefix}${label}.invalid`;
  if (hasCapability('control') && world.control) await world.control.dns(name, []);
  return name;
}

/**
 * A hostname that resolves to `addresses`: on a simulator through its DNS control; on a live tenant
 * the wildcard name of a single address when `CORE_API_WILDCARD_DNS` is set. Undefined when it
 * cannot be arranged: callers skip with {@link unarrangeableReason}.
 * @throws ControlError when the simulator refuses the DNS override.
 */
export async function hostResolvingTo(world: World, label: string, addresses: string[]): Promise<string | undefined> {
  const wild = wildcardDomain();
  if (wild) return addresses.length === 1 ? wildcardName(addresses[0]!, wild) : undefined;
  if (!hasCapability('control') || !world.control) return undefined;
  const name = `${world.runPrefix}${label}.example.com`;
  await world.control.dns(name, addresses);
  return name;
}

/**
 * The §2.3 ranges a serverUrl must not resolve to, as CIDR blocks (IPv4 only here: the first
 * public IPv6 address beside fc00::/7 or fe80::/10 lies in space a careful implementer may also
 * refuse, so IPv6 edges are checked from the inside only). `0.0.0.0/8` is "this network": a
 * connection to 0.0.0.0 reaches the host itself (see {@link UNSPECIFIED_ADDRESSES}).
 */
export const FORBIDDEN_IPV4_RANGES: readonly { label: string; base: string; bits: number }[] = [
  { label: 'private 10/8', base: '10.0.0.0', bits: 8 },
  { label: 'private 172.16/12', base: '172.16.0.0', bits: 12 },
  { label: 'private 192.168/16', base: '192.168.0.0', bits: 16 },
  { label: 'loopback 127/8', base: '127.0.0.0', bits: 8 },
  { label: 'link-local 169.254/16', base: '169.254.0.0', bits: 16 },
];

/** IPv6 ranges of §2.3 (loopback, link-local, unique-local), checked at their inside edges. */
export const FORBIDDEN_IPV6_RANGES: readonly { label: string; base: string; bits: number }[] = [
  { label: 'link-local fe80::/10', base: 'fe80::', bits: 10 },
  { label: 'unique-local fc00::/7', base: 'fc00::', bits: 7 },
];

/** Addresses that reach the host itself without being written as loopback: 0.0.0.0 and :: (§2.3 reading). */
export const UNSPECIFIED_ADDRESSES: readonly string[] = ['0.0.0.0', '::'];

/** One generated edge case of a range: an address and whether §2.3 refuses it. */
export interface RangeEdge {
  /** e.g. "private 172.16/12: last address inside". */
  label: string;
  address: string;
  refused: boolean;
}

/**
 * Both sides of every edge of the §2.3 ranges, computed with ipaddr.js: the first and the last
 * address inside each range (refused) and, for IPv4, the address just before and just after it
 * (accepted, unless it falls into another forbidden range or into 0/8). Over-blocking a public
 * neighbour is a violation as much as under-blocking the edge.
 */
export function rangeEdges(): RangeEdge[] {
  const toInt = (a: ipaddr.IPv4) => a.octets.reduce((n, o) => n * 256 + o, 0);
  const fromInt = (n: number) => ipaddr.IPv4.parse([24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.'));
  const forbidden = (addr: ipaddr.IPv4) => [...FORBIDDEN_IPV4_RANGES, { base: '0.0.0.0', bits: 8 }].some((r) => addr.match(ipaddr.IPv4.parse(r.base), r.bits));
  const out: RangeEdge[] = [];
  for (const r of FORBIDDEN_IPV4_RANGES) {
    const cidr = `${r.base}/${r.bits}`;
    const first = toInt(ipaddr.IPv4.networkAddressFromCIDR(cidr));
    const last = toInt(ipaddr.IPv4.broadcastAddressFromCIDR(cidr));
    out.push({ label: `${r.label}: first address inside`, address: fromInt(first).toString(), refused: true });
    out.push({ label: `${r.label}: last address inside`, address: fromInt(last).toString(), refused: true });
    for (const [side, n] of [
      ['just below', first - 1],
      ['just above', last + 1],
    ] as const) {
      const addr = fromInt(n);
      if (!forbidden(addr)) out.push({ label: `${r.label}: first public address ${side}`, address: addr.toString(), refused: false });
    }
  }
  for (const r of FORBIDDEN_IPV6_RANGES) {
    const bits = r.bits;
    const bytes = ipaddr.IPv6.parse(r.base).toByteArray();
    const lastBytes = bytes.map((b, i) => {
      const keep = Math.max(0, Math.min(8, bits - i * 8));
      const mask = keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
      return (b & mask) | (~mask & 0xff);
    });
    out.push({ label: `${r.label}: first address inside`, address: ipaddr.fromByteArray(bytes).toString(), refused: true });
    out.push({ label: `${r.label}: last address inside`, address: ipaddr.fromByteArray(lastBytes).toString(), refused: true });
  }
  return out;
}
