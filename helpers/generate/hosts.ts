/**
 * Hostnames for the serverUrl rules of §2.3, arranged the same way on every target: on a simulator
 * through the control API's DNS override (`POST /__control/dns`), on a live tenant with names that
 * behave the same everywhere (`*.invalid` never resolves, RFC 6761; `localhost` is loopback;
 * `example.com` resolves in public DNS to a public address, RFC 2606).
 */
import { hasCapability } from '../target';
import type { World } from '../world';

/** A public documentation address (TEST-NET-3, RFC 5737): public, and nothing listens there. */
export const PUBLIC_TEST_ADDRESS = '203.0.113.10';

/** Public name used on targets whose DNS cannot be arranged. */
export const LIVE_PUBLIC_HOST = 'example.com';

/**
 * A hostname that resolves in public DNS to a public address (§2.3 rule 2).
 * Simulator: `<runPrefix><label>.example.com` pointed at {@link PUBLIC_TEST_ADDRESS}; live: `example.com`.
 * @throws ControlError when the simulator refuses the DNS override.
 */
export async function publicHost(world: World, label = 'hooks'): Promise<string> {
  if (!hasCapability('control') || !world.control) return LIVE_PUBLIC_HOST;
  const name = `${world.runPrefix}${label}.example.com`;
  await world.control.dns(name, [PUBLIC_TEST_ADDRESS]);
  return name;
}

/** A hostname that resolves nowhere: `<runPrefix><label>.invalid` (explicitly set to resolve to nothing on a simulator). */
export async function unresolvableHost(world: World, label = 'nowhere'): Promise<string> {
  const name = `${world.runPrefix}${label}.invalid`;
  if (hasCapability('control') && world.control) await world.control.dns(name, []);
  return name;
}

/**
 * A hostname that resolves to `addresses`, or undefined when the target's DNS cannot be arranged
 * (live tenant): callers skip with that reason.
 * @throws ControlError when the simulator refuses the DNS override.
 */
export async function hostResolvingTo(world: World, label: string, addresses: string[]): Promise<string | undefined> {
  if (!hasCapability('control') || !world.control) return undefined;
  const name = `${world.runPrefix}${label}.example.com`;
  await world.control.dns(name, addresses);
  return name;
}
