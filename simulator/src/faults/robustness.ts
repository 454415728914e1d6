/**
 * Faults of the robustness classes (§7: no server error on any input): each takes away one of the
 * simulator's input limits, so that hostile input of that class breaks it; killed by the
 * robustness phase (suites/robustness.test.ts). Each overrides one seam of
 * validation/body-limits.ts or request-input.ts. Probes: simulator/test/faults/robustness.test.ts.
 */
import { controlPathReading, parsedBody, readsBodyAsJson } from '../request-input.ts';
import { override } from '../seam.ts';
import { bodyLimits, oversizeBodyAnswer } from '../validation/body-limits.ts';
import { defineFaults } from './define.ts';

/** The control-path decision on the raw URL, as the router does NOT read it (no percent-decoding). */
function isControlPathRaw(url: string | undefined): boolean {
  if (!url) return false;
  return url === '/__control' || url.startsWith('/__control/') || url.startsWith('/__control?');
}

/** The robustness faults. */
export const ROBUSTNESS_FAULTS = defineFaults([
  {
    name: 'robustness.no-body-limits',
    clauses: ['7/no-server-error-on-input', '7/no-500-in-envelope-on-input'],
    description:
      'The body limits are off: deep nesting, __proto__/constructor keys, 1e400 and huge strings reach the handlers (500s, values stored that cannot be served back).',
    override: override(bodyLimits, () => () => null),
  },
  {
    name: 'robustness.413-before-body',
    clauses: ['7/no-server-error-on-input'],
    description:
      'A body over the size limit is answered 413 from its Content-Length before it is read, and the connection is closed (clients may see a reset instead of the answer).',
    override: override(oversizeBodyAnswer, () => () => 'from-content-length'),
  },
  {
    name: 'robustness.control-path-raw',
    clauses: ['7/path-spellings-agree', '7/no-server-error-on-input'],
    description:
      'The control-path decision reads the raw URL while the router decodes it: /%5f_control/... reaches the control API after the public auth hook ran.',
    override: override(controlPathReading, () => (url) => isControlPathRaw(url)),
  },
  {
    name: 'robustness.array-body-empty-update',
    clauses: ['4.1/body-object'],
    description:
      'A JSON array body passes a `typeof body === "object"` check and is read field by field, finding none: PATCH with [] or [{"name":…}] answers 200 as an empty update instead of 400.',
    override: override(parsedBody, (next) => (parsed) => (Array.isArray(parsed) ? {} : next(parsed))),
  },
  {
    name: 'robustness.media-type-exact',
    clauses: ['4/json-media-type-parameters'],
    description:
      'A body is read as JSON only under the exact Content-Type `application/json`: with `; charset=utf-8` or `Application/JSON` it is dropped and the PATCH answers 200 as an empty update.',
    override: override(readsBodyAsJson, () => (contentType) => contentType === 'application/json'),
  },
]);
