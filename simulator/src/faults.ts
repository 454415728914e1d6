/**
 * Registry of deliberate spec violations ("faults"). Each one breaks a single clause so the
 * conformance suite can prove it notices. Switch them on with
 * `PUT /__control/config {"faults": ["auth.accept-bearer", ...]}`; list them with
 * `GET /__control/faults`. A switch point in the code is always `faultOn(state, '<name>')`.
 *
 * Clause ids are `<spec section>/<short-slug>`, the ids of the suite's clause catalogue
 * (spec/clauses/*.json); test/unit/fault-clauses.test.ts checks that each one exists there.
 */
import { FAMILY_FAULTS } from './faults-families.ts';
import { GAP_FAULTS } from './faults-gaps.ts';
import { SYSTEMATIC_FAULTS } from './faults-systematic.ts';
import type { SimState } from './state.ts';

/** One fault: its name, the spec clauses it violates, and what it does. */
export interface FaultInfo {
  name: string;
  clauses: string[];
  description: string;
}

/** Every known fault. Add new ones here; names are `<area>.<what>`. */
export const FAULTS: readonly FaultInfo[] = [
  // cross-tenant (§5.7): routes/assistants.ts, routes/tools.ts
  // organization routes (§4.5, §5.3, §5.6): auth.ts
  // tools (§4.5): routes/tools.ts
  // text test suites (§3, §4.5, §8): routes/test-suites.ts
  // catalogues, prompts, channels (§2.10, §4.5): routes/models.ts, routes/prompts.ts, routes/chatapp.ts
  // task overrides (§2.8), calls and live monitoring (§4.5)
  ...GAP_FAULTS,
  ...SYSTEMATIC_FAULTS,
  ...FAMILY_FAULTS,
];

const KNOWN = new Set(FAULTS.map((f) => f.name));

/** True when `name` is a registered fault. */
export function isKnownFault(name: string): boolean {
  return KNOWN.has(name);
}

/** True when the fault `name` is switched on in this simulator's config. */
export function faultOn(state: SimState, name: string): boolean {
  return state.config.faults.includes(name);
}
