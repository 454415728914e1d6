/**
 * Cleanup ledger (ceph/s3-tests style): undo actions are recorded as fixtures are made, run in
 * reverse order after the file's tests, and every failure is collected and raised at the end
 * rather than hiding behind the first. Actions marked independent (each restores one object of its
 * own, whatever the others do) keep their place in that order, but a run of them added one after
 * another goes side by side, at most `CORE_API_CONCURRENCY` at once: a live run's pooled assistants
 * are each a read and a write back, which one after another over a slow network took seconds each
 * (issue 43). "Independent" is the caller's promise, so an action added after a dependent one still
 * runs before it.
 */
import pLimit from 'p-limit';
import { redact } from '../base/redact';
import { concurrency } from './concurrency';

/** Thrown by {@link Cleanup.run} when one or more undo actions failed; `failures` lists them in the order the actions were added. */
export class CleanupError extends Error {
  constructor(readonly failures: string[]) {
    super(`cleanup left ${failures.length} problem(s):\n- ${failures.join('\n- ')}`);
    this.name = 'CleanupError';
  }
}

/** One recorded undo action. */
interface Action {
  label: string;
  fn: () => Promise<unknown>;
  independent: boolean;
}

/** How a ledger runs its actions. */
export interface CleanupOptions {
  /** Independent actions in flight at once (at least 1): default {@link concurrency}, read when the ledger runs. */
  atOnce?: () => number;
}

/** An ordered list of undo actions. */
export class Cleanup {
  private readonly actions: Action[] = [];
  private readonly atOnce: () => number;

  constructor(opts: CleanupOptions = {}) {
    this.atOnce = opts.atOnce ?? (() => concurrency());
  }

  /**
   * Records an undo action; `label` says what it restores or removes (no secrets). `independent`:
   * the action touches only an object of its own and its outcome does not depend on any other
   * action's (restoring one assistant's snapshot), so it may run beside the independent actions
   * added next to it.
   */
  add(label: string, fn: () => Promise<unknown>, opts: { independent?: boolean } = {}): void {
    this.actions.push({ label, fn, independent: opts.independent === true });
  }

  /** Number of pending actions. */
  get size(): number {
    return this.actions.length;
  }

  /**
   * Runs every action even when some fail, last added first. Independent actions added one after
   * another run as one group, side by side (at most `atOnce()` in flight), between the dependent
   * actions around them: those added after the group run before it, those added before it after.
   * When `atOnce()` throws (an `EnvError` for a `CORE_API_CONCURRENCY` it refuses), every action
   * still runs, one at a time, and the error is listed after the actions' failures.
   * @throws CleanupError listing each failed action with its (redacted) reason, in the order the actions were added.
   */
  async run(): Promise<void> {
    const actions = this.actions.splice(0);
    const failed: (string | undefined)[] = [];
    const attempt = async (i: number) => {
      try {
        await actions[i].fn();
      } catch (e) {
        failed[i] = redact(`${actions[i].label}: ${(e as Error).message}`);
      }
    };
    const problems: string[] = [];
    let atOnce = 1;
    try {
      atOnce = Math.max(1, this.atOnce());
    } catch (e) {
      problems.push(redact(`independent actions ran one at a time: ${(e as Error).message}`));
    }
    const limit = pLimit(atOnce);
    let i = actions.length - 1;
    while (i >= 0) {
      if (!actions[i].independent) {
        await attempt(i--);
        continue;
      }
      const group: number[] = [];
      for (; i >= 0 && actions[i].independent; i--) group.push(i);
      await Promise.all(group.map((k) => limit(() => attempt(k))));
    }
    const failures = [...failed.filter((f): f is string => f !== undefined), ...problems];
    if (failures.length > 0) throw new CleanupError(failures);
  }
}
