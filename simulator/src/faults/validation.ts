/**
 * Faults of the validation answer (§4.1, §7): each overrides one seam of validation/checker.ts or
 * model/assistant.ts. Probes: simulator/test/faults/validation.test.ts.
 */
import { ASSISTANT_PROPERTIES, refusedWrite } from '../model/assistant.ts';
import { override } from '../seam.ts';
import { unionRefusal, validationDetails } from '../validation/checker.ts';
import { defineFaults } from './define.ts';

/** The validation faults. */
export const VALIDATION_FAULTS = defineFaults([
  {
    name: 'validation.details-first-only',
    clauses: ['4.1/validation-error-details'],
    description: 'A rejected assistant PATCH lists only its first failing field in error.details.',
    override: override(validationDetails, (next) => (details) => next(details).slice(0, 1)),
  },
  {
    name: 'validation.partial-apply',
    clauses: ['4.1/rejected-patch-changes-nothing'],
    description: 'A rejected assistant PATCH still answers 400 but stores the fields that passed validation.',
    override: override(refusedWrite, (next) => (current, nextObject, failed, now) => {
      next(current, nextObject, failed, now);
      let changed = false;
      for (const k of ASSISTANT_PROPERTIES) {
        if (failed.has(k) || JSON.stringify(current[k]) === JSON.stringify(nextObject[k])) continue;
        current[k] = nextObject[k];
        changed = true;
      }
      if (changed) current.updatedAt = now;
    }),
  },
  {
    name: 'validation.details-per-rule',
    clauses: ['7/validation-details', '4.1/validation-error-details'],
    description:
      'error.details lists one entry per failed rule instead of one per invalid field: an "integer or integer string" field given neither lists both branches of the union.',
    override: override(unionRefusal, () => (field, branches) => branches.map((message) => ({ field, message }))),
  },
]);
