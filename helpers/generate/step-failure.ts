/**
 * The one failure of a model-based test's step (the merge, lifecycle, limits and catalogue
 * models): an answer or a read the model did not allow, with the clauses that say what was
 * expected. A command throws it, so fast-check shrinks the sequence to a minimal one.
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
