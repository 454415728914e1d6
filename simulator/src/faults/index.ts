/**
 * The fault catalogue: every deliberate spec violation the simulator can switch on, one file per
 * area (auth.ts, …), each fault an override of one seam. Listed by `GET /__control/faults`,
 * switched on with `PUT /__control/config {"faults": [...]}`.
 *
 * Clause ids are `<spec section>/<short-slug>`, the ids of the suite's clause catalogue
 * (spec/clauses/*.json); test/unit/fault-clauses.test.ts checks that each one exists there.
 *
 * No route handler mentions a fault: the simulator reads seams (seam.ts), and `behaviourFor`
 * puts the overrides of the faults a config switches on into the behaviour in force.
 */
import type { Personality } from '../config.ts';
import { ALT_READING } from '../personality.ts';
import { Behaviour, type Override } from '../seam.ts';
import { ASSISTANTS_FAULTS } from './assistants.ts';
import { AUTH_FAULTS } from './auth.ts';
import { BOUNDS_FAULTS } from './bounds.ts';
import { CATALOG_FAULTS } from './catalog.ts';
import { CHATAPP_FAULTS } from './chatapp.ts';
import { ENVELOPE_FAULTS } from './envelope.ts';
import { MERGE_FAULTS } from './merge.ts';
import { ORG_FAULTS } from './org.ts';
import { PROMPTS_FAULTS } from './prompts.ts';
import { ROBUSTNESS_FAULTS } from './robustness.ts';
import { ROUTES_FAULTS } from './routes.ts';
import { SERVER_URL_FAULTS } from './server-url.ts';
import { TASKOVERRIDES_FAULTS } from './taskoverrides.ts';
import { TEXTTESTS_FAULTS } from './texttests.ts';
import { TOOLS_FAULTS } from './tools.ts';
import { VALIDATION_FAULTS } from './validation.ts';
import type { Fault, FaultInfo } from './define.ts';
import { CALL_FAULTS } from './calls.ts';
import { INSIGHTS_FAULTS } from './insights.ts';
import { MONITORING_FAULTS } from './monitoring.ts';
import { SMS_FAULTS } from './sms.ts';
import { WEBHOOK_FAULTS } from './webhooks.ts';

export type { Fault, FaultInfo } from './define.ts';

/** Every fault of the catalogue, in catalogue order, each an override of one seam. */
export const SEAM_FAULTS = [
  ...AUTH_FAULTS,
  ...ENVELOPE_FAULTS,
  ...ROUTES_FAULTS,
  ...ROBUSTNESS_FAULTS,
  ...SERVER_URL_FAULTS,
  ...ORG_FAULTS,
  ...CATALOG_FAULTS,
  ...PROMPTS_FAULTS,
  ...CHATAPP_FAULTS,
  ...TEXTTESTS_FAULTS,
  ...TOOLS_FAULTS,
  ...WEBHOOK_FAULTS,
  ...CALL_FAULTS,
  ...MONITORING_FAULTS,
  ...INSIGHTS_FAULTS,
  ...SMS_FAULTS,
  ...BOUNDS_FAULTS,
  ...MERGE_FAULTS,
  ...VALIDATION_FAULTS,
  ...ASSISTANTS_FAULTS,
  ...TASKOVERRIDES_FAULTS,
] as const satisfies readonly Fault[];

/** The name of a fault (typed from the catalogue). */
export type FaultName = (typeof SEAM_FAULTS)[number]['name'];

/** Every known fault as the control API lists it (name, clauses, description). */
export const FAULTS: readonly FaultInfo[] = SEAM_FAULTS.map(({ name, clauses, description }) => ({ name, clauses: [...clauses], description }));

const BY_NAME = new Map<string, Fault>(SEAM_FAULTS.map((f) => [f.name, f]));

/** True when `name` is a registered fault. */
export function isKnownFault(name: string): boolean {
  return BY_NAME.has(name);
}

/**
 * The behaviour of a config: the personality's overrides first (personality.ts), then each
 * switched-on fault's override in the order the config lists them. Unknown names are ignored
 * (the control API refuses them before they reach the config).
 */
export function behaviourFor(config: { faults: readonly string[]; personality: Personality }): Behaviour {
  const overrides: Override[] = config.personality === 'alt' ? [...ALT_READING] : [];
  for (const name of config.faults) {
    const fault = BY_NAME.get(name);
    if (fault) overrides.push(fault.override);
  }
  return new Behaviour(overrides);
}
