/**
 * The one failure of a model-based test's step (the merge, lifecycle, limits, catalogue and routing
 * models): an answer or a read the model did not allow, with the clauses that say what was
 * expected. A command throws it, so fast-check shrinks the sequence to a minimal one; and
 * {@link replayLine}, how a run's seed and path are printed so that the failure can be replayed.
 */
export class StepFailure extends Error {
  /** The catalogue ids of the expectations the step broke (one or more). */
  readonly clauses: string[];
  /**
   * @param message the request and what was expected against what came
   * @param clauses the catalogue id, or ids, of the expectation
   */
  constructor(message: string, clauses: string | string[]) {
    super(message);
    this.name = 'StepFailure';
    this.clauses = typeof clauses === 'string' ? [clauses] : clauses;
  }

  /** The first clause the step broke: the one its verdict is recorded on. */
  get clause(): string {
    return this.clauses[0];
  }
}

/**
 * The seed and shrink path of a model-based run, and the variables that replay it: `seed S, path P;
 * replay with FC_SEED=S FC_PATH=P` (`path -` and no FC_PATH when the run did not fail).
 */
export function replayLine(run: { seed: number; counterexamplePath?: string | null }): string {
  const path = run.counterexamplePath;
  return `seed ${run.seed}, path ${path ?? '-'}; replay with FC_SEED=${run.seed}${path ? ` FC_PATH=${path}` : ''}`;
}

/**
 * The shrunk command sequence of a failed model-based run, one command per line (indented four
 * spaces after the first), as its failure prints it; `?` when the run has no counterexample.
 */
export function counterexampleScript(run: { counterexample?: unknown[] | null }): string {
  return run.counterexample ? [...(run.counterexample[0] as Iterable<unknown>)].map(String).join('\n    ') : '?';
}
