/**
 * A body that does not parse is asked for again before it is judged (issue 32, item 6). A proxy,
 * a gateway or a flaky network can hand over a well-framed answer whose body was cut or rewritten
 * on the way: nothing at the HTTP layer says so, only the JSON does not parse. One such answer
 * proves nothing about the API; the same request sent again (§8 lets a client resend GET, PUT,
 * PATCH and DELETE: "PATCH and PUT converge when replayed, DELETE is idempotent in effect") tells
 * the two apart. Only a body that is not JSON on both answers is the API's (it fails
 * `2.1/json-envelope`), and the record says it was asked again (up to `UNREADABLE_RESENDS` times).
 *
 * The rules, used by helpers/http/client.ts:
 * - Unreadable: a complete 2xx whose body is not JSON (not empty, not 204), or any answer whose
 *   Content-Type says JSON but whose body does not parse. (A 5xx outside the API's JSON is already
 *   target trouble; a plain-text or HTML 4xx is a refusal from the HTTP layer, graded by the tests.)
 * - Resendable methods are sent once more at once. The second answer is handed to the test, marked
 *   `notJsonResent`, when it has the first one's status (an unreadable body again is then the
 *   API's). Another status (a replayed DELETE answering 404) judges neither: target trouble.
 * - A POST is never resent (§8), so its one unreadable answer is not judged: target trouble, an
 *   `error` verdict naming it, never a `fail`.
 */
import type { ApiResponse } from '../base/exchange';
import { notJson } from '../base/exchange';

/**
 * How many times a request whose answer did not parse is sent again before the last answer is
 * judged: twice, so a proxy that cuts 2% of bodies leaves a body unread on every attempt about
 * once in 125,000 requests, not once in 2,500 (issue 32: only a non-JSON answer that persists is the API's).
 */
export const UNREADABLE_RESENDS = 2;

/** Whether an answer's body is unreadable in the sense of the module comment (worth asking again). */
export function unreadableBody(res: Pick<ApiResponse, 'status' | 'text' | 'json' | 'headers'>): boolean {
  if (res.json !== undefined || res.text.trim() === '') return false;
  if (notJson(res)) return true;
  return /[/+]json\b/i.test(res.headers['content-type'] ?? '');
}

/** Whether §8 lets the client send `method` again after an answer it could not read (every method but POST). */
export function resendable(method: string): boolean {
  return method.toUpperCase() !== 'POST';
}

/** "200 application/json": the answer's status and content type, for messages. */
function statusAndType(res: Pick<ApiResponse, 'status' | 'headers'>): string {
  return `${res.status} ${(res.headers['content-type'] ?? 'no content type').split(';')[0].trim()}`;
}

/**
 * Why an unreadable answer to a POST is not judged (the words of the `error`), or, for a resent
 * request, why the second answer cannot be handed on; undefined when it can.
 * @param words the request as `METHOD /path`, redacted
 * @param first the unreadable first answer
 * @param second the answer to the resend, when there was one
 */
export function unjudgedBody(
  words: string,
  first: Pick<ApiResponse, 'status' | 'headers'>,
  second?: Pick<ApiResponse, 'status' | 'headers'>,
): string | undefined {
  const cut = `${words}: the body of a ${statusAndType(first)} answer is not JSON (cut or rewritten on the way, or the API's)`;
  if (!second) return `${cut}; a POST is never resent (§8), so one such answer is not judged`;
  if (second.status === first.status) return undefined;
  return `${cut}; sent again (§8) it answered ${second.status}, so neither answer is judged`;
}
