/**
 * A change the run did not make is never a `fail` (issue 32, item 2). Against a live tenant,
 * another run (or a person) may write a fixture between a test's "before" and "after" reads; the
 * difference then looks exactly like a refused PATCH that was partly applied. This module tells the
 * two apart from what the test itself saw, and only a change the evidence ties to the test's own
 * refused request stays a `fail`. Verified by `verify.unchanged` (helpers/checks/clause.ts).
 *
 * What the test saw (its journal, kept per test in memory by {@link noteAnswer}, which the client
 * calls for every answer; nothing of it reaches a record):
 * - every accepted write it made to a resource, with the answer's `updatedAt` (§2.2);
 * - every refused write it sent, with the fields and values sent, and the server's answer time
 *   (`metadata.timestamp`, §2.1: the server's clock, like `updatedAt`).
 *
 * The rule, when a comparison found a documented field moved (docs/validation-and-merge.md, "A
 * change the run did not make"): let `u` be the `updatedAt` of the "after" answer.
 * 1. `u` equals the "before" `updatedAt`, or the `updatedAt` of an accepted write of this test:
 *    the change came with a write the test saw answered, so it is judged (a `fail`).
 * 2. Otherwise the resource was written by a write this test did not see accepted: its own refused
 *    request applied in part, or another writer. It is the refused request's only when every moved
 *    field now holds the value that request sent (objects: every key sent holds its value; `null`
 *    sent: the field is null or gone) and `u` is no later than that request's answer: then judged.
 *    Anything else — a moved field the test never sent, a value it never sent, a change stamped
 *    after the refused request was answered, no refused request at all — is another writer: an
 *    `error` ("another writer changed assistant "…" (/assistants/…) at <u>"), counted in the record.
 * Without an `updatedAt` in the "after" answer there is no evidence, and the comparison is judged.
 *
 * Known gap: a foreign write that lands before the test's own accepted write is stamped over by it
 * (rule 1), and one that sets the very values a refused request sent reads as a partial apply.
 * Lanes (one fixture set per concurrent run) keep other runs off the fixture in the first place.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RunnerTestCase as Test } from 'vitest';
import type { ApiResponse, UncheckedJson } from '../base/exchange';
import { currentTest } from '../record/current-test';
import { onRequest } from '../http/client';
import { ownSide } from './own-side';
import type { TestRecorder } from '../record/test-recorder';
import { isObject } from '../base/values';
import { movedKeys, stampOf } from '../spec/unchanged';

/** One answer a test saw for a resource. */
interface Seen {
  /** The write's method, or GET. */
  method: string;
  status: number;
  /** `data.updatedAt` of the answer, when it is a string. */
  updatedAt?: string;
  /** The server's answer time (`metadata.timestamp`), when given. */
  at?: string;
  /**
   * What a write sent, as parsed JSON (never recorded anywhere), parsed when first read: only a
   * refused write's body is ever compared, and the robustness phase sends bodies of megabytes.
   */
  sent?: () => UncheckedJson;
}

/** Per test: resource path → what the test saw, in order. */
const journals = new WeakMap<Test, Map<string, Seen[]>>();

/** The resource an answer is about: its request path without the query string. */
function resourceOf(path: string): string {
  return path.split('?')[0];
}

/**
 * Notes one answer the running test received ({@link installWriteJournal} subscribes it to every
 * answer the client receives). `sent` is the body sent, parsed and unredacted, or a function that
 * parses it when first called (helpers/http/client.ts `SentRequest.body`): kept in memory for the
 * test only.
 */
export function noteAnswer(res: ApiResponse, sent: UncheckedJson | (() => UncheckedJson)): void {
  const task = currentTest();
  if (!task) return;
  let journal = journals.get(task);
  if (!journal) journals.set(task, (journal = new Map()));
  const key = resourceOf(res.request.path);
  const list = journal.get(key) ?? [];
  journal.set(key, list);
  const data = res.json?.data;
  const updatedAt = stampOf(data);
  const at = typeof res.json?.metadata?.timestamp === 'string' ? res.json.metadata.timestamp : undefined;
  const body = typeof sent === 'function' ? (sent as () => UncheckedJson) : () => sent;
  list.push({ method: res.request.method, status: res.status, updatedAt, at, sent: res.request.method === 'GET' ? undefined : body });
}

let installed = false;

/**
 * Subscribes the journal to every request the client sends (helpers/http/client.ts `onRequest`),
 * once per module instance: the client calls up into no check, the journal hears it.
 */
export function installWriteJournal(): void {
  if (installed) return;
  installed = true;
  onRequest((sent) => (answer) => {
    // The body is parsed only if a comparison ever reads it (a refused write's, ownChange).
    if (answer) noteAnswer(answer, () => sent.body);
  });
}

/** Whether `now` holds what `sent` set: every key of a sent object recursively, `null` as null or gone, anything else equal. */
export function holdsSent(now: unknown, sent: unknown): boolean {
  if (sent === null) return now === null || now === undefined;
  if (isObject(sent)) return isObject(now) && Object.entries(sent).every(([k, v]) => holdsSent(now[k], v));
  return isDeepStrictEqual(now, sent);
}

/** The compared object of a shape's part: the part itself, or its `data` for an answer-shaped part (`{ status, data }`). */
function objectOf(part: unknown): Record<string, unknown> | undefined {
  if (!isObject(part)) return undefined;
  const keys = Object.keys(part);
  if (keys.length === 2 && keys.includes('status') && keys.includes('data')) return isObject(part.data) ? part.data : undefined;
  return part;
}

/** Words for the fixture: `assistant "conformance-suite-merge" (/assistants/…)`, or the path alone. */
function fixtureWords(path: string, data: unknown): string {
  const kind = /^\/?([a-z-]+)s\//.exec(path.replace(/^\/v\d+/, ''))?.[1] ?? 'resource';
  const name = isObject(data) && typeof data.name === 'string' ? ` ${JSON.stringify(data.name)}` : '';
  return `${kind}${name} (${path})`;
}

/**
 * Whether a change of resource `path`, now stamped `u`, is tied to test `task`'s own exchanges
 * (rules 1 and 2 of the module comment): `u` is the "before" stamp or an accepted write's of the
 * test; or every field in `moved` holds what one of its refused writes sent (`now` holds the values)
 * and `u` is no later than that refusal's answer. Read by `verify.unchanged` (through
 * {@link judgeChange}) and by the assistant-state audit (helpers/audits/assistant-state.ts): one
 * journal, one rule.
 */
export function ownChange(task: Test, path: string, beforeStamp: string | undefined, u: string, moved: string[], now: Record<string, unknown>): boolean {
  const seen = journals.get(task)?.get(path) ?? [];
  const accepted = seen.filter((s) => s.method !== 'GET' && s.status >= 200 && s.status < 300);
  if (u === beforeStamp || accepted.some((s) => s.updatedAt === u)) return true;
  const stampedBy = (s: Seen) => s.at === undefined || !(Date.parse(u) > Date.parse(s.at));
  return seen.some((s) => {
    if (s.method === 'GET' || s.status < 400 || s.status >= 500 || !stampedBy(s)) return false;
    const sent = s.sent?.();
    return isObject(sent) && (moved.length === 0 || moved.every((k) => k in sent && holdsSent(now[k], sent[k])));
  });
}

/**
 * Judges a difference an "unchanged" comparison found (see the module comment): returns when it is
 * the API's to judge; throws when another writer made it.
 * @param was the compared part of "before" (a {@link import('../spec/documented').Shape}'s `part`)
 * @param now the compared part of "after"
 * @param before the whole "before" value (a resource, or an answer), for its `updatedAt`
 * @param res the "after" answer; without it (or without its `updatedAt`) there is no evidence
 * @param record the test record the verdict goes into (the check's)
 * @throws OwnSideError (`foreign-write`) when another writer changed the resource
 */
export function judgeChange(was: unknown, now: unknown, before: unknown, res: ApiResponse | undefined, record?: TestRecorder): void {
  const task = currentTest();
  const u = stampOf(res);
  if (!task || !res || u === undefined) return;
  const path = resourceOf(res.request.path);
  const b = objectOf(now) ?? {};
  const moved = movedKeys(objectOf(was) ?? {}, b).filter((k) => k !== 'updatedAt');
  if (ownChange(task, path, stampOf(before), u, moved, b)) return;
  const what = moved.length ? `moved: ${moved.join(', ')}, to values this test did not send` : 'only updatedAt moved, by no write of this test';
  throw ownSide(
    'foreign-write',
    `another writer changed ${fixtureWords(path, res.json?.data)} at ${u} (${what}); the comparison is not the API's to fail: no verdict`,
    record,
  );
}
