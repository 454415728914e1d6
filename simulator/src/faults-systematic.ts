/**
 * Faults found by the systematic pass over the clause catalogue (docs/mutation.md): for each
 * testable clause, the plausible ways a real implementation gets it wrong that no older fault
 * stood for. Registered in faults.ts with the others; each names the catalogue clause ids it
 * breaks (ids only: the simulator does not read the catalogue).
 * - The other side of a bound: the bound itself refused (over-blocking by one), or one past the
 *   lower bound accepted, for §8 lengths, §4.4 SMS, §4.5 batches and suites.
 * - The wrong status or code for a named outcome (§5.6, §7): 422 for validation, 403 for a missing
 *   key, 401 for a missing X-Tenant-Id, FORBIDDEN for ORG_SCOPE_REQUIRED, VALIDATION_ERROR for PARSE.
 * - A rule applied to only some of its cases: one key placement or scheme spelling let through
 *   (§5.1), one unknown-tenant case answered 404 (§5.6), one prompt type refused (§4.5), one
 *   chatapp precondition skipped (§4.5), one not-found case of §4.4 answered 400.
 */
import type { FaultInfo } from './faults.ts';


/** The faults of this file. */
export const SYSTEMATIC_FAULTS: readonly FaultInfo[] = [
];
