/**
 * How deep the generative phase goes (issue 39): the route space, the request shapes and the
 * model-based tests draw `depth` times their everyday number of cases. 1 (the default) keeps
 * `npm run conformance` within its time budget; a nightly run sets more.
 */
import { readEnv, type EnvSource } from '../base/env';

/**
 * The depth of the generative phase, `CORE_API_GENERATIVE_DEPTH` (an integer of at least 1,
 * default 1): a multiplier of the cases each generator draws, not a time.
 * @throws EnvError when the variable holds something else (helpers/base/env.ts).
 */
export function generativeDepth(source?: EnvSource): number {
  return readEnv('CORE_API_GENERATIVE_DEPTH', source);
}
