/**
 * The running test, as every recorder of test meta (checks, exchanges, drift, skip reasons) must
 * find it. Tests of one file may run concurrently (`describe.concurrent`: independent cases over
 * a real network, docs/benchmarks.md); vitest's `TestRunner.getCurrentTest()` then names whichever
 * test started last, so `clauseTest` (helpers/checks/clause.ts) runs each test body inside an
 * AsyncLocalStorage scope that carries its own task across every await. Outside such a scope
 * (hooks, plain `test`), vitest's current test is used, as before.
 *
 * The scope also carries what lets a test be cut off cleanly (helpers/base/deadline.ts): its abort
 * signal (aborted once the test is judged, so its requests stop and it cannot change a shared
 * fixture afterwards), its budget (paused while it is queued), the requests it is waiting on and
 * what it is queued for (named when it runs out of time).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { TestRunner, type RunnerTestCase as Test } from 'vitest';
import type { Budget } from '../base/deadline';
import { TestRecorder } from './test-recorder';

/** One request a test is waiting on: its words (`GET /assistants/…`) and when it was sent (ms since the epoch). */
export interface Waiting {
  what: string;
  since: number;
}

/** What a running clause test carries through its awaits. */
export interface TestScope {
  /** The test; undefined in a detached scope (work done on no test's behalf, e.g. restoring a fixture). */
  task?: Test;
  /** The test's record (its task's meta, closed once `signal` aborts); undefined in a detached scope. */
  record?: TestRecorder;
  /** Aborted once the test is judged (passed, failed or cut off). */
  signal?: AbortSignal;
  /** The test's charged time (paused while queued). */
  budget?: Budget;
  /** Requests in flight, by a private key. */
  inflight: Map<symbol, Waiting>;
  /** Queued waits in progress (a shared fixture, a request slot, a 429 pause), by a private key. */
  queued: Map<symbol, Waiting>;
}

const scope = new AsyncLocalStorage<TestScope>();

/** The test whose body is running in this async context, or undefined outside a test. */
export function currentTest(): Test | undefined {
  const s = scope.getStore();
  return s ? s.task : TestRunner.getCurrentTest();
}

/** The scope of the running clause test, or undefined outside one. */
export function currentScope(): TestScope | undefined {
  return scope.getStore();
}

/**
 * The record of the test whose body is running in this async context (helpers/record/test-recorder.ts),
 * or undefined outside a test. Inside a clause test's scope it is closed once the test was judged.
 */
export function currentRecord(): TestRecorder | undefined {
  const s = scope.getStore();
  if (s) return s.record;
  const task = TestRunner.getCurrentTest();
  return task ? new TestRecorder(task.meta) : undefined;
}

/**
 * Runs `fn` with `task` as the current test for everything it awaits; answers what `fn` answers.
 * The scope's record writes into `task.meta` until `extra.signal` aborts.
 */
export function runAsTest<T>(task: Test, fn: () => T, extra: Omit<TestScope, 'task' | 'record' | 'inflight' | 'queued'> = {}): T {
  const record = new TestRecorder(task.meta, () => extra.signal?.aborted === true);
  return scope.run({ task, record, inflight: new Map(), queued: new Map(), ...extra }, fn);
}

/** Runs `fn` on no test's behalf (nothing recorded, no test's signal): restoring a shared fixture after a cut-off test. */
export function runDetached<T>(fn: () => T): T {
  return scope.run({ inflight: new Map(), queued: new Map() }, fn);
}

/**
 * Marks the running test as waiting on a request until the returned function is called (named
 * when the test runs out of time). No-op outside a clause test.
 */
export function markInflight(what: string): () => void {
  const s = scope.getStore();
  if (!s) return () => undefined;
  const key = Symbol(what);
  s.inflight.set(key, { what, since: Date.now() });
  return () => void s.inflight.delete(key);
}

/**
 * Marks the running test as queued (for a shared fixture, a request slot, a 429 pause) until the
 * returned function is called. Its budget does not run while it is queued (any wait of it): that
 * time is not the target's; its wall cap still runs (helpers/base/deadline.ts). No-op outside a clause test.
 */
export function markQueued(what: string): () => void {
  const s = scope.getStore();
  if (!s) return () => undefined;
  const key = Symbol(what);
  s.queued.set(key, { what, since: Date.now() });
  s.budget?.pause();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    s.queued.delete(key);
    s.budget?.resume();
  };
}
