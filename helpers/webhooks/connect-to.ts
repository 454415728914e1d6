/**
 * Routing deliveries for public hostnames to the suite's loopback receiver on a simulator (§2.3
 * rules 1–2 require an https serverUrl whose name resolves to a public address; control-api.md's
 * `POST /dns` and `webhookConnectTo` make that possible without any real network).
 *
 * `webhookConnectTo` is run-wide config, and suite files must not change run-wide config. This is
 * the one tolerated exception, kept harmless: a file only ever ADDS keys for host names unique to
 * its run prefix (`hooks-cf-3f9a2c.example.com:443`), keeps every other file's keys, re-reads and
 * re-writes until its keys are present (two files writing at once could otherwise clobber each
 * other), and removes only its own keys afterwards. Documented in docs/webhooks.md and the clause
 * catalogue (spec/clauses/webhooks.json).
 */
import type { ControlClient } from '../target/control';

/** A documentation-range address (RFC 5737 TEST-NET-3): public, neither private, loopback nor link-local (§2.3 rule 2). */
export const PUBLIC_TEST_ADDRESS = '203.0.113.77';

type ConnectToMap = Record<string, string>;

async function current(control: ControlClient): Promise<ConnectToMap> {
  // The contract's PUT answers the whole config; an empty PUT reads it without changing anything.
  const cfg = await control.config({});
  const map = cfg.webhookConnectTo;
  return map && typeof map === 'object' ? { ...(map as ConnectToMap) } : {};
}

function hasAll(map: ConnectToMap, entries: ConnectToMap): boolean {
  return Object.entries(entries).every(([k, v]) => map[k] === v);
}

/**
 * Adds `entries` (`"host:port"` → origin) to the simulator's `webhookConnectTo`, keeping all other
 * keys; re-reads after writing and retries until the entries are present.
 * @param attempts maximum write attempts (default 5)
 * @throws Error when the entries are still missing after `attempts` writes; ControlError on a control failure.
 */
export async function addConnectTo(control: ControlClient, entries: ConnectToMap, attempts = 5): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    const map = await current(control);
    if (hasAll(map, entries)) return;
    await control.config({ webhookConnectTo: { ...map, ...entries } });
    if (hasAll(await current(control), entries)) return;
  }
  throw new Error(`webhookConnectTo still lacks ${Object.keys(entries).join(', ')} after ${attempts} writes (another writer keeps replacing it)`);
}

/**
 * Makes sure `entries` are still present (another file may have clobbered them in a race) and
 * re-adds them if not. Call before triggering an event that relies on them.
 * @throws as {@link addConnectTo}.
 */
export async function ensureConnectTo(control: ControlClient, entries: ConnectToMap): Promise<void> {
  if (!hasAll(await current(control), entries)) await addConnectTo(control, entries);
}

/**
 * Removes this file's keys from `webhookConnectTo`, keeping every other key.
 * @throws ControlError on a control failure.
 */
export async function removeConnectTo(control: ControlClient, keys: string[]): Promise<void> {
  const map = await current(control);
  if (!keys.some((k) => k in map)) return;
  for (const k of keys) delete map[k];
  await control.config({ webhookConnectTo: map });
}

/**
 * Makes `hostname` resolve to a public address in the simulator's resolver and routes its https
 * deliveries (port 443) to `origin`. Registers the undo actions with `addCleanup`.
 * @returns the `webhookConnectTo` entry it added
 */
export async function routeHostTo(
  control: ControlClient,
  hostname: string,
  origin: string,
  addCleanup: (label: string, fn: () => Promise<unknown>) => void,
): Promise<ConnectToMap> {
  await control.dns(hostname, [PUBLIC_TEST_ADDRESS]);
  addCleanup(`dns ${hostname}`, () => control.dns(hostname, []));
  const entry = { [`${hostname}:443`]: origin };
  await addConnectTo(control, entry);
  addCleanup(`webhookConnectTo ${hostname}:443`, () => removeConnectTo(control, Object.keys(entry)));
  return entry;
}
