/**
 * Audit "replay converges" (§8: PATCH and PUT are safe to send again): an accepted
 * `PATCH /assistants/{id}` or `PUT /tools/{id}` is sent once more, as a client retrying after a lost
 * answer would, and the second answer must hold the same state:
 * - PATCH (`8/patch-replay-converges`): every documented field of the assistant equal, `updatedAt`
 *   and `featureFlags` aside (the state audit of ./assistant-state.ts judges the replay as a PATCH
 *   too: every field it does not name unchanged);
 * - PUT of a tool (`8/put-replay-converges`): a tool can be neither read nor listed (§4.5), so the
 *   two answers are compared on what was sent: each sent field holds the sent value, an array
 *   as many items as sent, each holding the sent item (a server may add a step id; it may not
 *   append the steps again).
 * The test gets the replay's answer, the state the target is in after both writes. At most one replay per test, and on a live tenant at most {@link LIVE_REPLAYS} per worker, so the
 * request budget holds. A replay of a request sent outside a test, not audited, or itself a
 * replay is never sent. Whatever the replay meets that is not an answer of the API (target
 * trouble) leaves the audit without a judgement.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RunnerTestCase as Test } from 'vitest';
import type { ApiResponse, SentRequest } from '../http/client';
import type { UncheckedJson } from '../base/exchange';
import { currentTest } from '../record/current-test';
import { comparedFields, WRITE_STAMPS } from '../spec/documented';
import { movedKeys } from '../spec/unchanged';
import { getTarget } from '../target/target';
import { fieldsFound, isObject, judged, type AuditDefinition } from './audit';

/** The audit's name and clauses. */
export const REPLAY_AUDIT: AuditDefinition = {
  name: 'replay converges',
  clauses: ['8/patch-replay-converges', '8/put-replay-converges'],
  invariant: 'an accepted PATCH of an assistant or PUT of a tool, sent again, leaves the same state',
};

/** Replays a worker sends at most on a live tenant (each is one request of the run's budget). */
export const LIVE_REPLAYS = 5;

const replayedIn = new WeakSet<Test>();
let liveReplays = 0;

/** Whether `now` holds what was `sent`: objects key by key, arrays item by item with as many items, anything else equal. */
export function holdsReplayed(now: unknown, sent: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(now) && now.length === sent.length && sent.every((item, i) => holdsReplayed(now[i], item));
  if (isObject(sent)) return isObject(now) && Object.entries(sent).every(([k, v]) => holdsReplayed(now[k], v));
  return isDeepStrictEqual(now ?? null, sent ?? null);
}

function kindOf(sent: SentRequest): 'patch' | 'put' | undefined {
  const path = sent.path.split('?')[0];
  if (sent.method === 'PATCH' && /^\/assistants\/[^/]+$/.test(path)) return 'patch';
  if (sent.method === 'PUT' && /^\/tools\/[^/]+$/.test(path)) return 'put';
  return undefined;
}

/** The compared fields of an assistant that differ between the two answers, by the one rule of "unchanged" (helpers/spec/unchanged.ts). */
function differing(first: Record<string, UncheckedJson>, second: Record<string, UncheckedJson>): string[] {
  return movedKeys(first, second, comparedFields('assistant', WRITE_STAMPS));
}

function judgeReplay(kind: 'patch' | 'put', sent: SentRequest, first: Record<string, UncheckedJson>, second: Record<string, UncheckedJson>): void {
  const where = `${sent.method} ${sent.path.split('?')[0]} sent twice`;
  if (kind === 'patch') {
    const diff = differing(first, second);
    judged(
      REPLAY_AUDIT,
      '8/patch-replay-converges',
      diff.length === 0,
      'a PATCH sent again answers the same assistant',
      fieldsFound(where, first, second, diff),
    );
    return;
  }
  const body = isObject(sent.body) ? sent.body : {};
  const wrong = Object.keys(body).filter((k) => !holdsReplayed(second[k], body[k]));
  judged(
    REPLAY_AUDIT,
    '8/put-replay-converges',
    wrong.length === 0,
    'a PUT sent again leaves what it sent, nothing appended',
    fieldsFound(where, body, second, wrong),
  );
}

/** Whether the run's target is a live tenant (false where no target is configured, as in the project's own tests). */
function onLiveTenant(): boolean {
  try {
    return getTarget().mode === 'live';
  } catch {
    return false;
  }
}

/** Observes one request (helpers/http/client.ts `onRequest`): replays an accepted PATCH or PUT once per test. */
export function auditReplay(sent: SentRequest): (answer: ApiResponse | undefined) => Promise<ApiResponse | void> | void {
  const kind = kindOf(sent);
  const test = currentTest();
  if (!kind || !test || sent.replay || !sent.audited || replayedIn.has(test)) return () => undefined;
  return async (answer) => {
    const first = answer?.json?.data;
    if (!answer || answer.status < 200 || answer.status >= 300 || !isObject(first) || replayedIn.has(test)) return;
    const live = onLiveTenant();
    if (live && liveReplays >= LIVE_REPLAYS) return;
    replayedIn.add(test);
    if (live) liveReplays += 1;
    let again: ApiResponse;
    try {
      again = await sent.resend();
    } catch {
      return;
    }
    const second = again.json?.data;
    if (again.status >= 200 && again.status < 300 && isObject(second)) judgeReplay(kind, sent, first, second);
    // The caller gets the answer of the last write it caused, so what it compares with later reads (updatedAt) is the target's state.
    return again;
  };
}
