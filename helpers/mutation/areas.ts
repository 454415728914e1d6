/**
 * The area table of the mutation run (issue 9): which catalogue clauses belong to a fault's area.
 *
 * A fault is named `<area>.<what>` (e.g. `auth.accept-bearer`). The clause ids a fault lists are
 * descriptive (the simulator authors' reading), so they need not match the catalogue's ids; the
 * kill rule therefore works on areas: a fault is killed only when a failing test names a clause
 * of the fault's area (docs/mutation.md). This file is the one documented table of those areas.
 *
 * A clause belongs to an area when
 * 1. its section is listed for the area and, where the entry has a `match` pattern, its id
 *    matches it (sections such as §4.5 and §7 serve several areas, so the slug decides), or
 * 2. it comes from one of the area's catalogue files (`files`), or
 * 3. its section is the section of one of the fault's own clause ids (e.g. `5.7/...` → §5.7):
 *    a failing test that names the very section the fault says it violates is on target. This
 *    also gives areas missing from the table a sensible meaning.
 */
import type { Clause } from '../catalogue';

/** One row of the area table. */
export interface AreaRule {
  /** Spec sections (`5.6`, `7`, `4.5`) whose clauses may belong to the area; exact match. */
  sections: string[];
  /** When set, a clause of those sections belongs only if its id matches (case-insensitive). */
  match?: RegExp;
  /** Catalogue files (`auth.json`) whose every clause belongs to the area. */
  files?: string[];
}

/**
 * The area table: area name (the fault name's prefix) → rules (any rule matching is enough).
 * Spec sections are those of ../shared/spec/core-api.md.
 */
export const AREA_TABLE: Readonly<Record<string, AreaRule[]>> = {
  // §5: scheme, key types, organization routes, rotation, client server secret, outcomes.
  auth: [{ sections: ['5', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '5.8'] }, { sections: [], files: ['auth.json'] }],
  // §2.1 envelope, §7 errors, §9 versioning.
  envelope: [{ sections: ['2.1', '7', '9', '9.1', '9.2', '9.3', '9.4'] }, { sections: [], files: ['envelope.json'] }],
  // Field validation: §2.2 field rules, §2.3 serverUrl, §2.4 settings bounds, §2.6 languages, §4.1 400s, §8 limits.
  bounds: [{ sections: ['2.2', '2.3', '2.4', '2.6', '4.1', '8'] }],
  // Merge and replace rules of §2.2–§2.7 and the PATCH partial-update rule (§4.1); §8 idempotency.
  merge: [{ sections: ['2.2', '2.4', '2.5', '2.6', '2.7', '4.1'] }, { sections: ['8'], match: /idempot|converge|replay|patch/i }],
  // Cross-tenant isolation: §5.7, §4.4's indistinguishable fromNumber, §7's not_found exceptions.
  xtenant: [
    { sections: ['5.7'] },
    { sections: ['4.4', '4.5', '7', '2.1'], match: /tenant|foreign|indistinguish|not-found|not_found|isolation/i },
    { sections: [], files: ['cross-tenant.json', 'authorization.json'] },
  ],
  // §6 events; §2.3 rules 4–5 (delivery target); §1 configuration read at call start.
  webhooks: [{ sections: ['6'] }, { sections: ['2.3', '1'], match: /deliver|event|webhook|server-url|serverurl|tenant-url|path|call-start|config/i }, { sections: [], files: ['webhooks.json'] }],
  // Live call monitoring: §3, §4.5 rows, §7 exceptions 2 and 3, monitor-session limits.
  monitoring: [{ sections: ['3', '4.5', '7', '8'], match: /monitor|takeover|live|agent-absent|not-live|retry-after|conflict|end-call|call-end|actor/i }],
  // Session insights (§4.5 rows, §8 batch limit).
  insights: [{ sections: ['4.5', '8', '7'], match: /insight|metrics|batch/i }],
  // SMS reasons (§2.9, §4.3) and sending (§4.4, §8 message limit).
  sms: [{ sections: ['2.9', '4.3', '4.4'] }, { sections: ['8', '4.5'], match: /sms/i }],
  // Organization-level routes (§5.3, §4.5 rows: audits, transcriber testing, tenants, transcribers).
  org: [{ sections: ['5.3'] }, { sections: ['4.5', '5.6', '8', '7'], match: /org|audit|transcriber|tenants|turn-flag|bank|full-call|backlog/i }],
  // Task overrides (§2.8, §4.2).
  tasks: [{ sections: ['2.8', '4.2'] }],
  // Tools, prompts, model/voice/transcriber catalogues (§4.5 rows, §2.10).
  tools: [{ sections: ['2.10'] }, { sections: ['4.5', '2.2'], match: /tool|prompt|model|voice|catalogue|text-instruction|override/i }],
  // Text test suites (§3 outcomes, §4.5 row, §8 limits).
  texttests: [{ sections: ['3', '4.5', '8', '7'], match: /test-suite|test-run|text-test|suite|iteration|case|realtime/i }],
  // Messaging-app channel (§4.5 chatapp-enabled, §3 onboarding, §7 codes).
  chatapp: [{ sections: ['3', '4.5', '7', '6'], match: /chatapp|onboard|messaging/i }],
  // Calls and conversations (§1 calls API read-only, text threads apart; §4.5 rows).
  calls: [{ sections: ['1', '4.5', '2.10'], match: /call|conversation/i }],
  // Assistant resource reads and writes (§2.2, §4.1, §4.5 assistant rows).
  assistant: [{ sections: ['2.2', '4.1'] }, { sections: ['4.5'], match: /assistant/i }],
};

/** Aliases of area names a fault catalogue may use (`cross-tenant.x` → `xtenant`). */
export const AREA_ALIASES: Readonly<Record<string, string>> = {
  'cross-tenant': 'xtenant',
  crosstenant: 'xtenant',
  webhook: 'webhooks',
  events: 'webhooks',
  organization: 'org',
  monitor: 'monitoring',
  'text-tests': 'texttests',
  tests: 'texttests',
  task: 'tasks',
  'task-overrides': 'tasks',
  assistants: 'assistant',
  validation: 'bounds',
  catalog: 'tools',
  catalogue: 'tools',
  prompts: 'tools',
  models: 'tools',
  conversations: 'calls',
};

/** A fault as `GET /__control/faults` lists it. */
export interface Fault {
  /** `<area>.<what>`, e.g. `auth.accept-bearer`. */
  name: string;
  /** The simulator authors' descriptive clause ids (`<section>/<slug>`). */
  clauses: string[];
  description: string;
}

/** Area of a fault: the name's prefix before the first `.`, resolved through {@link AREA_ALIASES}. */
export function areaOf(faultName: string): string {
  const prefix = faultName.split('.')[0].toLowerCase();
  return AREA_ALIASES[prefix] ?? prefix;
}

/** Section of a clause id (`5.6/bearer-401` → `5.6`). */
function sectionOfId(id: string): string {
  return id.split('/')[0];
}

/**
 * Whether a catalogue clause belongs to the fault's area (rules 1–3 of this module's header).
 * A clause id absent from the catalogue (`clause` undefined) is judged by its section alone.
 */
export function clauseInArea(clauseId: string, clause: Pick<Clause, 'section' | 'file'> | undefined, fault: Fault): boolean {
  const section = clause?.section ?? sectionOfId(clauseId);
  const rules = AREA_TABLE[areaOf(fault.name)] ?? [];
  for (const rule of rules) {
    if (rule.files && clause?.file && rule.files.includes(clause.file)) return true;
    if (rule.sections.includes(section) && (!rule.match || rule.match.test(clauseId))) return true;
  }
  return fault.clauses.some((c) => sectionOfId(c) === section);
}

/** The catalogue clauses of a fault's area (for file selection and the report). */
export function areaClauses(catalogue: Map<string, Clause>, fault: Fault): Set<string> {
  const out = new Set<string>();
  for (const [id, c] of catalogue) if (clauseInArea(id, c, fault)) out.add(id);
  return out;
}
