/**
 * Cleanup ledger (ceph/s3-tests style): undo actions are recorded as fixtures are made, run in
 * reverse order after the file's tests, and every failure is collected and raised at the end
 * rather than hiding behind the first.
 */
import { redact } from '../base/redact';

/** Thrown by {@link Cleanup.run} when one or more undo actions failed; `failures` lists them. */
export class CleanupError extends Error {
  constructor(readonly failures: string[]) {
    super(`cleanup left ${failures.length} problem(s):\n- ${failures.join('\n- ')}`);
    this.name = 'CleanupError';
  }
}

/** An ordered list of undo actions. */
export class Cleanup {
  private readonly actions: { label: string; fn: () => Promise<unknown> }[] = [];

  /** Records an undo action; `label` says what it restores or removes (no secrets). */
  add(label: string, fn: () => Promise<unknown>): void {
    this.actions.push({ label, fn });
  }

  /** Number of pending actions. */
  get size(): number {
    return this.actions.length;
  }

  /**
   * Runs every action, last added first, even when some fail.
   * @throws CleanupError listing each failed action with its (redacted) reason.
   */
  async run(): Promise<void> {
    const failures: string[] = [];
    while (this.actions.length > 0) {
      const { label, fn } = this.actions.pop()!;
      try {
        await fn();
      } catch (e) {
        failures.push(redact(`${label}: ${(e as Error).message}`));
      }
    }
    if (failures.length > 0) throw new CleanupError(failures);
  }
}
