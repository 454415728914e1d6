/**
 * Faults of the text test suites (§3, §4.5, §8): each overrides one seam of routes/test-suites.ts;
 * a bound fault moves one end of its bound by one. Probes: simulator/test/faults/texttests.test.ts.
 */
import { caseOutcomeName, iterationsBounds, iterationsWhole, maxCases, runnableModel, suiteMode } from '../routes/test-suites.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The text test faults. */
export const TEXTTESTS_FAULTS = defineFaults([
  {
    name: 'texttests.accept-13-cases',
    clauses: ['4.5/test-suite-max-cases', '8/limit-test-suite-cases'],
    description: 'POST /test-suites accepts 13 cases.',
    override: override(maxCases, (next) => () => next() + 1),
  },
  {
    name: 'texttests.refuses-12-cases',
    clauses: ['4.5/test-suite-max-cases', '8/limit-test-suite-cases'],
    description: 'A test suite of 12 cases, the limit, is refused.',
    override: override(maxCases, (next) => () => next() - 1),
  },
  {
    name: 'texttests.accept-voice-mode',
    clauses: ['4.5/test-suite-mode-text-only'],
    description: 'POST /test-suites accepts mode "voice".',
    override: override(suiteMode, (next) => (mode) => mode === 'voice' || next(mode)),
  },
  {
    name: 'texttests.iterations-11',
    clauses: ['4.5/test-suite-iterations', '8/limit-test-iterations'],
    description: 'iterations 11 is accepted.',
    override: override(iterationsBounds, (next) => () => ({ ...next(), max: next().max + 1 })),
  },
  {
    name: 'texttests.iterations-refuses-10',
    clauses: ['4.5/test-suite-iterations', '8/limit-test-iterations'],
    description: 'A test suite with iterations 10, the upper bound, is refused.',
    override: override(iterationsBounds, (next) => () => ({ ...next(), max: next().max - 1 })),
  },
  {
    name: 'texttests.iterations-0-accepted',
    clauses: ['4.5/test-suite-iterations', '8/limit-test-iterations'],
    description: 'A test suite with iterations 0 is accepted.',
    override: override(iterationsBounds, (next) => () => ({ ...next(), min: next().min - 1 })),
  },
  {
    name: 'texttests.iterations-refuses-1',
    clauses: ['4.5/test-suite-iterations', '8/limit-test-iterations'],
    description: 'A test suite with iterations 1, the lower bound, is refused.',
    override: override(iterationsBounds, (next) => () => ({ ...next(), min: next().min + 1 })),
  },
  {
    name: 'texttests.fractional-iterations',
    clauses: ['4.5/test-suite-iterations', '8/limit-test-iterations'],
    description: 'A test suite with a fractional iterations within the bounds (2.5) is accepted: the bounds are checked, that it counts runs is not.',
    override: override(iterationsWhole, () => () => true),
  },
  {
    name: 'texttests.realtime-run-accepted',
    clauses: ['4.5/test-run-realtime-400'],
    description: 'A run against an assistant with a realtime model starts instead of answering 400 VALIDATION_ERROR.',
    override: override(runnableModel, () => () => true),
  },
  {
    name: 'texttests.unknown-outcome',
    clauses: ['3/test-run-outcomes'],
    description: 'A passing case reads outcome `success` instead of `passed`.',
    override: override(caseOutcomeName, (next) => (outcome) => (outcome === 'passed' ? 'success' : next(outcome))),
  },
]);
