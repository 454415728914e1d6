/**
 * The running test, as every recorder of test meta (checks, exchanges, drift, skip reasons) must
 * find it. Tests of one file may run concurrently (`describe.concurrent`: independent cases over
 * a real network, docs/benchmarks.md); vitest's `TestRunner.getCurrentTest()` then names whichever
 * test started last, so `clauseTest` (helpers/clause.ts) runs each test body inside an
 * AsyncLocalStorage scope that carries its own task across every await. Outside such a scope
 * (hooks, plain `test`), vitest's current test is used, as before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { TestRunner, type RunnerTestCase as Test } from 'vitest';

const scope = new AsyncLocalStorage<Test>();

/** The test whose body is running in this async context, or undefined outside a test. */
export function currentTest(): Test | undefined {
  return scope.getStore() ?? TestRunner.getCurrentTest();
}

/** Runs `fn` with `task` as the current test for everything it awaits; answers what `fn` answers. */
export function runAsTest<T>(task: Test, fn: () => T): T {
  return scope.run(task, fn);
}
