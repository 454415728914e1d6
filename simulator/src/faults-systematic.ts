/**
 * Faults found by the systematic pass over the clause catalogue (docs/mutation.md): for each
 * testable clause, the plausible ways a real implementation gets it wrong that no older fault
 * stood for. Registered in faults.ts with the others; each names the catalogue clause ids it
 * breaks (ids only: the simulator does not read the catalogue).
 * - The other side of a bound: the bound itself refused (over-blocking by one), or one past the
 *   lower bound accepted, for §2.4 interruptionPlan, §8 lengths, §4.4 SMS, §4.5 batches and suites.
 * - The wrong status or code for a named outcome (§5.6, §7): 422 for validation, 403 for a missing
 *   key, 401 for a missing X-Tenant-Id, FORBIDDEN for ORG_SCOPE_REQUIRED, VALIDATION_ERROR for PARSE.
 * - A rule applied to only some of its cases: one key placement or scheme spelling let through
 *   (§5.1), one unknown-tenant case answered 404 (§5.6), one prompt type refused (§4.5), one
 *   chatapp precondition skipped (§4.5), one not-found case of §4.4 answered 400.
 */
import type { FaultInfo } from './faults.ts';

const bound = (name: string, clauses: string[], description: string): FaultInfo => ({ name, clauses, description });

const INTERRUPTION = ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'];
const SMS_LENGTH = ['4.4/sms-message-length', '8/limit-sms-message'];
const INSIGHTS_BATCH = ['4.5/insights-batch-bounds', '8/limit-insights-batch'];
const ITERATIONS = ['4.5/test-suite-iterations', '8/limit-test-iterations'];

/** The faults of this file. */
export const SYSTEMATIC_FAULTS: readonly FaultInfo[] = [
  bound('bounds.interruption-min-duration-negative', INTERRUPTION, 'interruptionPlan.minDuration accepts values below 0 (down to -1).'),
  bound('bounds.interruption-min-duration-refuses-0', INTERRUPTION, 'interruptionPlan.minDuration refuses 0, its lower bound.'),
  bound('bounds.interruption-min-duration-refuses-5', INTERRUPTION, 'interruptionPlan.minDuration refuses 5, its upper bound.'),
  bound('bounds.interruption-min-words-minus-1', INTERRUPTION, 'interruptionPlan.minWords accepts -1.'),
  bound('bounds.interruption-min-words-refuses-0', INTERRUPTION, 'interruptionPlan.minWords refuses 0, its lower bound.'),
  bound('bounds.interruption-min-words-refuses-10', INTERRUPTION, 'interruptionPlan.minWords refuses 10, its upper bound.'),
  bound('bounds.warm-return-refuses-2000', ['2.2/warm-return-message-length', '8/warm-return-message-2000'], 'warmReturnMessage refuses 2000 characters, its limit (over-blocking by one).'),
  bound('bounds.instructions-append-refuses-2000', ['2.4/instructions-append-length', '8/instructions-append-2000'], 'expressiveOptions.instructionsAppend refuses 2000 characters, its limit.'),
  bound('assistants.list-without-name', ['4.5/assistants-list'], 'GET /assistants rows carry id but not name.'),
  bound('assistants.create-ignores-transfer-settings', ['4.5/assistant-create-transfer-settings'], 'POST /assistants accepts transferSettings but does not store it (the created assistant reads null).'),
];
