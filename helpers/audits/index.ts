/**
 * The invariant audits (issue 34): stated invariants of the spec judged on every matching exchange
 * of every suite, beside the envelope audit (helpers/audits/envelope.ts). Each is one module with its
 * definition (name, clauses, invariant); {@link INVARIANT_AUDITS} lists them, and
 * {@link installInvariantAudits} subscribes them to every request the client sends. Their clauses
 * are, with the envelope audit's, the stated exception to "a test records only the clauses it
 * declares" (docs/writing-suites.md): an audit judges whatever exchange it meets.
 */
import { onRequest } from '../http/client';
import { onOutsideWrite } from '../base/outside-writes';
import { installWriteJournal } from '../live/write-journal';
import type { AuditDefinition } from './audit';
import { ASSISTANT_STATE_AUDIT, auditAssistantState, forgetOnOutsideWrite } from './assistant-state';
import { LISTS_AUDIT, auditLists } from './lists';
import { REVOKED_AUDIT, auditRevoked } from './revoked';
import { REPLAY_AUDIT, auditReplay } from './replay';
import { ANSWER_TYPES_AUDIT, auditAnswerTypes } from './answer-types';

export type { AuditDefinition } from './audit';

/** Every invariant audit, in the order the report lists them. */
export const INVARIANT_AUDITS: readonly AuditDefinition[] = [ASSISTANT_STATE_AUDIT, REPLAY_AUDIT, LISTS_AUDIT, REVOKED_AUDIT, ANSWER_TYPES_AUDIT];

/** The clauses the invariant audits record, whatever test they judge an exchange of. */
export const INVARIANT_AUDIT_CLAUSES: readonly string[] = [...new Set(INVARIANT_AUDITS.flatMap((a) => a.clauses))];

let installed = false;

/** Subscribes every invariant audit to the client's requests (helpers/http/client.ts `onRequest`), once per module instance. */
export function installInvariantAudits(): void {
  if (installed) return;
  installed = true;
  // The journal of writes first: the state audit reads it (helpers/live/write-journal.ts).
  installWriteJournal();
  // The state audit first: it knows the first answer before the replay audit resends the request.
  for (const observe of [auditAssistantState, auditReplay, auditLists, auditRevoked, auditAnswerTypes]) onRequest(observe);
  onOutsideWrite(forgetOnOutsideWrite);
}
