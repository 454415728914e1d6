/**
 * Cleanup ledger (ceph/s3-tests style): undo actions are recorded as fixtures are made, run in
 * reverse order after the file's tests, and every failure is collected and raised at the end
 * rather than hiding behind the first. Actions marked independent (each restores one object of its
 * own, whatever the others do) run first, side by side: a live run's pooled assistants are each a
 * read and a write back, which one after another over a slow network took seconds each (issue 43).
 */
import pLimit from 'p-limit';
import { redact } from '../base/redact';

/** Independent actions in flight at once. */
const INDEPENDENT_AT_ONCE = 8;

/** Thrown by {@link Cleanup.run} when one or more undo actions failed; `failures` lists them. */
export class CleanupError extends Error {
  constructor(readonly failures: string[]) {
    super(`cleanup left ${failures.length} problem(s):\n- ${failures.join('\n- ')}`);
    this.name = 'CleanupError';
  }
}

/** An ordered list of undo actions. */
export class Cleanup {
  private readonly actions: { label: string; fn: () => Promise<unknown>; independent: boolean }[] = [];

  /**
   * Records an undo action; `label` says what it restores or removes (no secrets). `independent`:
   * the action touches only an object of its own and its outcome does not depend on any other
   * action's (restoring one assistant's snapshot), so it may run before and beside the others.
   */
  add(label: string, fn: () => Promise<unknown>, opts: { independent?: boolean } = {}): void {
    this.actions.push({ label, fn, independent: opts.independent === true });
  }

  /** Number of pending actions. */
  get size(): number {
    return this.actions.length;
  }

  /**
   * Runs every action even when some fail: the independent ones first, up to
   * {@link INDEPENDENT_AT_ONCE} at once, then the others, last added first.
   * @throws CleanupError listing each failed action with its (redacted) reason.
   */
  async run(): Promise<void> {
    const failures: string[] = [];
    const attempt = async ({ label, fn }: { label: string; fn: () => Promise<unknown> }) => {
      try {
        await fn();
      } catch (e) {
        failures.push(redact(`${label}: ${(e as Error).message}`));
      }
    };
    const independent = this.actions.filter((a) => a.independent).reverse();
    const rest = this.actions.filter((a) => !a.independent);
    this.actions.length = 0;
    const limit = pLimit(INDEPENDENT_AT_ONCE);
    await Promise.all(independent.map((a) => limit(() => attempt(a))));
    while (rest.length > 0) await attempt(rest.pop()!);
    if (failures.length > 0) throw new CleanupError(failures);
  }
}
