/**
 * Wildcard DNS (sslip.io / nip.io style) for the simulator's name resolution: with a domain
 * configured (`startSimulator({ wildcardDns })`, CLI `--wildcard-dns <domain>`), a name under it
 * resolves to the address written into its leftmost-but-domain label, as those public services
 * answer. This lets a run without the control API (live-tenant mode) arrange any address for the
 * §2.3 serverUrl rules, the same way it would against a real tenant through such a service.
 *
 * Forms (the label just before the domain; anything before that label is ignored, as the services do):
 * - IPv4 with dashes: `10-0-0-1.<domain>` → 10.0.0.1; or dotted: `10.0.0.1.<domain>`.
 * - IPv6 with dashes for colons: `0-0-0-0-0-0-0-1.<domain>` → ::1, `fe80--1.<domain>` → fe80::1,
 *   `--1.<domain>` → ::1 (sslip.io's spelling; `--` stands for `::`).
 * A name under the domain that carries no address does not resolve.
 */
import { isIP } from 'node:net';

/** The address a wildcard name stands for, or undefined when `hostname` is not under `domain` or carries no address. */
export function wildcardAddress(hostname: string, domain: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const suffix = `.${domain.toLowerCase().replace(/^\.|\.$/g, '')}`;
  if (!host.endsWith(suffix)) return undefined;
  const labels = host.slice(0, -suffix.length).split('.');
  const dotted = labels.slice(-4).join('.');
  if (labels.length >= 4 && isIP(dotted) === 4) return dotted;
  const last = labels[labels.length - 1] ?? '';
  const v4 = last.replace(/-/g, '.');
  if (/^\d{1,3}(-\d{1,3}){3}$/.test(last) && isIP(v4) === 4) return v4;
  const v6 = last.replace(/-/g, ':');
  if (isIP(v6) === 6) return v6;
  return undefined;
}
