/**
 * Faults of the robustness classes: each takes away one of the simulator's input limits, so that
 * hostile input of that class breaks it. Registered in faults.ts; killed by the robustness phase
 * (suites/robustness.test.ts).
 */
import type { FaultInfo } from './faults.ts';

/** The faults of this file. */
export const ROBUSTNESS_FAULTS: readonly FaultInfo[] = [
  {
    name: 'robustness.no-body-limits',
    clauses: ['7/no-server-error-on-input', '7/no-500-in-envelope-on-input'],
    description: 'The body limits are off: deep nesting, __proto__/constructor keys, 1e400 and huge strings reach the handlers (500s, values stored that cannot be served back).',
  },
  {
    name: 'robustness.413-before-body',
    clauses: ['7/no-server-error-on-input'],
    description: 'A body over the size limit is answered 413 from its Content-Length before it is read, and the connection is closed (clients may see a reset instead of the answer).',
  },
  {
    name: 'robustness.control-path-raw',
    clauses: ['7/path-spellings-agree', '7/no-server-error-on-input'],
    description: 'The control-path decision reads the raw URL while the router decodes it: /%5f_control/... reaches the control API after the public auth hook ran.',
  },
];
