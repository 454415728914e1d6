/**
 * Audit "what the run wrote is what the assistant holds" (§4.1, §2.2, §7): a model of each
 * assistant a test has seen, kept from the test's own answers, judged on every later answer about
 * that assistant in the same test:
 * - *omitted fields unchanged* (`4.1/omitted-unchanged`): an accepted PATCH answers the whole
 *   assistant (§4.1), so every documented field the PATCH did not name must hold what the test last
 *   saw, with no extra request;
 * - *read your writes* (`4.1/value-reads-back-exactly`): a free-text value an accepted PATCH sent
 *   is answered exactly as sent, and a following GET equals the PATCH answer;
 * - *refused writes change nothing* (`4.1/rejected-patch-changes-nothing`): after a refused write,
 *   the next GET equals what the test saw before it.
 *
 * It never judges what the run cannot tie to its own exchanges (module comment of ./audit.ts): a
 * write by another test or outside any test forgets what others knew of that assistant; a write
 * whose outcome is unknown (no answer, a 5xx), requests of one test overlapping on one assistant,
 * a write to a route that may touch assistants (helpers' {@link forgetAssistants}: the control API,
 * raw sockets, the operator's trigger) forget it too; and a difference stamped with an `updatedAt`
 * the test never saw is another writer's (helpers/live/write-journal.ts reads it the same way).
 * Compared: the documented fields of the assistant (helpers/spec/documented.ts), `updatedAt` aside (it
 * moves with every write), and `featureFlags` aside (response-only, the server's to set); a field
 * absent and a field null are the same (§2.4 rule 3, "null or omitted" readings).
 */
import type { OutsideWrite } from '../base/outside-writes';
import type { RunnerTestCase as Test } from 'vitest';
import type { ApiResponse, SentRequest } from '../http/client';
import type { UncheckedJson } from '../base/exchange';
import { currentTest } from '../record/current-test';
import { comparedFields, WRITE_STAMPS } from '../spec/documented';
import { movedKeys, stampOf } from '../spec/unchanged';
import { ownChange } from '../live/write-journal';
import { fieldsFound, isObject, judged, type AuditDefinition } from './audit';

/** The audit's name and clauses. */
export const ASSISTANT_STATE_AUDIT: AuditDefinition = {
  name: 'assistant state follows the writes',
  clauses: ['4.1/omitted-unchanged', '4.1/value-reads-back-exactly', '4.1/rejected-patch-changes-nothing'],
  invariant:
    'an accepted PATCH leaves every field it does not name as it was and reads back as written; a refused write changes nothing (compared on the documented fields)',
};

/** Request fields merged into `settings` (§2.2): naming one may change `settings`. */
const INTO_SETTINGS = ['settings', 'transferDialTimeout', 'warmWhisperDelaySeconds', 'warmReturnMessage'];

/** Free-text fields (§2.2) whose accepted value must read back exactly: no enum, format, pattern or normalising rule. */
const FREE_TEXT = ['name', 'firstMessage', 'developerPrompt', 'address', 'endOfCallMessage', 'summaryPrompt', 'structuredDataPrompt'];

/** What one test last saw of one assistant (what it wrote is in the journal of writes, helpers/live/write-journal.ts). */
interface Known {
  state: Record<string, UncheckedJson>;
  /** How the test came to know it: a read, its own accepted write, or a refused write since. */
  since: 'read' | 'accepted' | 'refused';
}

/** Assistant path → per test, what it knows. */
const knowledge = new Map<string, Map<Test, Known>>();
/** Assistant path → requests in flight on it, each with whether another write overlapped it. */
const inflight = new Map<string, Set<{ write: boolean; overlapped: boolean }>>();

/** Forgets everything every test knew of every assistant: something outside the audit's sight may have written one. */
export function forgetAssistants(): void {
  knowledge.clear();
}

/** Control paths whose writes cannot touch an assistant: the audit keeps what it knows across them. */
const CONTROL_LEAVES_ASSISTANTS = /^\/(health|organizations|tenants|keys\/rotate|dns|calls|conversations|deliveries)(\/|\?|$)/;

/**
 * Hears a write made outside the client (helpers/base/outside-writes.ts): forgets what every test
 * knew of every assistant, unless it is a control write that cannot touch one.
 */
export function forgetOnOutsideWrite(write: OutsideWrite): void {
  if (write.via === 'control' && write.path !== undefined && CONTROL_LEAVES_ASSISTANTS.test(write.path)) return;
  forgetAssistants();
}

/** Routes whose writes cannot touch an assistant (§4.5): the audit keeps what it knows across them. */
const SAFE_WRITES =
  /^\/(tools|prompts|test-suites|test-runs|sms-reasons|sms|calls|conversations|organization|v1\/|turn-flags|transcriber-banks|full-call-runs)/;

/** `/assistants/{id}` of a path about an assistant (itself or a sub-resource), else undefined. */
function assistantOf(path: string): string | undefined {
  return /^\/assistants\/[^/?]+/.exec(path)?.[0];
}

/** The compared fields of an assistant (helpers/spec/unchanged.ts): the documented ones, the write stamp and the server's own aside. */
function compared(): string[] {
  return comparedFields('assistant', WRITE_STAMPS);
}

/** The compared fields that moved, by the one rule of "unchanged" (helpers/spec/unchanged.ts). */
function moved(was: Record<string, UncheckedJson>, now: Record<string, UncheckedJson>, fields: string[]): string[] {
  return movedKeys(was, now, fields);
}

/**
 * A GET of an assistant the test knows: judged against what the test knows, then known. A change
 * is judged only when the journal of writes ties it to the test's own exchanges (`ownChange`, the
 * rule `verify.unchanged` uses); otherwise another writer made it and nothing is judged.
 */
function judgeRead(test: Test, path: string, known: Known, data: Record<string, UncheckedJson>): Known {
  const where = `GET ${path}`;
  const diff = moved(known.state, data, compared());
  const u = stampOf(data);
  const ours = u === undefined || ownChange(test, path, stampOf(known.state), u, diff, data);
  if (known.since !== 'read' && (diff.length === 0 || ours)) {
    const refused = known.since === 'refused';
    judged(
      ASSISTANT_STATE_AUDIT,
      refused ? '4.1/rejected-patch-changes-nothing' : '4.1/value-reads-back-exactly',
      diff.length === 0,
      refused ? 'a refused write changes nothing' : 'a GET after an accepted PATCH answers what the PATCH answered',
      fieldsFound(`${where} after ${refused ? 'a refused write' : 'an accepted PATCH'}`, known.state, data, diff),
    );
  }
  return { state: data, since: 'read' };
}

/** An accepted PATCH of an assistant the test knows: omitted fields unchanged, free text as sent. */
function judgeAcceptedPatch(known: Known | undefined, body: Record<string, UncheckedJson>, data: Record<string, UncheckedJson>, where: string): void {
  if (known) {
    const named = Object.keys(body).some((k) => INTO_SETTINGS.includes(k)) ? [...Object.keys(body), 'settings'] : Object.keys(body);
    const diff = moved(
      known.state,
      data,
      compared().filter((k) => !named.includes(k)),
    );
    judged(
      ASSISTANT_STATE_AUDIT,
      '4.1/omitted-unchanged',
      diff.length === 0,
      'an accepted PATCH leaves every field it does not name unchanged',
      fieldsFound(`${where} named ${Object.keys(body).join(', ') || 'nothing'}`, known.state, data, diff),
    );
  }
  const sentText = FREE_TEXT.filter((k) => typeof body[k] === 'string' && body[k] !== '');
  if (sentText.length === 0) return;
  const wrong = sentText.filter((k) => data[k] !== body[k]);
  judged(
    ASSISTANT_STATE_AUDIT,
    '4.1/value-reads-back-exactly',
    wrong.length === 0,
    'an accepted value is answered exactly as written',
    fieldsFound(where, body, data, wrong),
  );
}

/** What the test knows after its own write on the assistant, judged where it can be. */
function afterWrite(known: Known | undefined, sent: SentRequest, answer: ApiResponse | undefined, path: string): Known | undefined {
  if (!answer || answer.status >= 500 || answer.status === 429 || sent.path.split('?')[0] !== path || !sent.audited) return undefined;
  const data = answer.json?.data;
  // A validation refusal (§4.1 400) is judged by what follows; another refusal's effect is the business of other clauses (§5.7).
  if (answer.status === 400) return known && { ...known, since: 'refused' };
  if (answer.status >= 300) return undefined;
  if (sent.method !== 'PATCH' || !isObject(data) || !isObject(sent.body)) return undefined;
  judgeAcceptedPatch(known, sent.body, data, `PATCH ${path}`);
  return { state: data, since: 'accepted' };
}

function learn(path: string, test: Test, next: Known | undefined): void {
  const perTest = knowledge.get(path) ?? new Map<Test, Known>();
  knowledge.set(path, perTest);
  if (next) perTest.set(test, next);
  else perTest.delete(test);
}

/** Observes one request (helpers/http/client.ts `onRequest`). */
export function auditAssistantState(sent: SentRequest): (answer: ApiResponse | undefined) => void {
  const full = sent.path.split('?')[0];
  const path = assistantOf(full);
  const write = sent.method !== 'GET' && sent.method !== 'HEAD';
  const test = currentTest();
  if (!path) {
    if (write && !SAFE_WRITES.test(full) && !(sent.method === 'POST' && full === '/assistants')) forgetAssistants();
    return sent.method === 'POST' && full === '/assistants' && test ? (answer) => learnCreated(answer, test) : () => undefined;
  }
  const flights = inflight.get(path) ?? new Set();
  inflight.set(path, flights);
  const me = { write, overlapped: [...flights].some((f) => f.write) };
  if (write) {
    for (const f of flights) f.overlapped = true;
    for (const t of knowledge.get(path)?.keys() ?? []) if (t !== test) knowledge.get(path)!.delete(t);
  }
  flights.add(me);
  return (answer) => {
    flights.delete(me);
    if (!test) return;
    const known = knowledge.get(path)?.get(test);
    if (me.overlapped) return learn(path, test, undefined);
    if (write) return learn(path, test, afterWrite(known, sent, answer, path));
    const data = answer?.json?.data;
    if (!answer || answer.status !== 200 || full !== path || !isObject(data) || !sent.audited) return;
    learn(path, test, known ? judgeRead(test, path, known, data) : { state: data, since: 'read' });
  };
}

/** A created assistant is known to the test that created it, as the create answered it. */
function learnCreated(answer: ApiResponse | undefined, test: Test): void {
  const data = answer?.json?.data;
  if (!answer || answer.status >= 300 || !isObject(data) || typeof data.id !== 'string') return;
  learn(`/assistants/${data.id}`, test, { state: data, since: 'read' });
}
