/**
 * Audit "answers of their stated types" (§2.2, §2.8, §4.1-§4.4; issue 39): every 2xx answer of a
 * route whose answer the spec states is judged against the schema of that answer, field by field,
 * in the exact JSON type and format stated: the assistant of GET and PATCH /assistants/{id} (the
 * §2.2 response column: `number or null` is no numeric string, ids are strings, the date-like
 * fields one of their four forms), the task overrides of §4.2 (an empty list included), the SMS
 * reason of §4.3 (a reference the request left out may be null, one it sent may not) and the
 * `messageSid` of §4.4. Undocumented fields are drift (§9.4), never judged here; answers whose
 * shape the spec does not show are not judged at all.
 */
import type { ApiResponse, SentRequest } from '../http/client';
import { formatIssues, validate } from '../spec/validator';
import { judged, type AuditDefinition } from './audit';

/** The audit's name and clauses. */
export const ANSWER_TYPES_AUDIT: AuditDefinition = {
  name: 'answers of their stated types',
  clauses: ['2.2/response-shape', '2.8/task-override-shape', '4.3/sms-reason-nine-fields', '4.4/sms-message-sid'],
  invariant:
    'every 2xx answer of a route whose answer the spec states holds each field in its stated JSON type and format, an empty list and a reference the request left out included',
};

/** A route whose answer the spec states: its method, its path (no query), the schema of its `data`, the clause it proves. */
interface StatedAnswer {
  method: string;
  path: RegExp;
  /** The schema of `data` (helpers/spec/validator.ts names), given the request sent. */
  schema: (sent: SentRequest) => string;
  clause: string;
}

/** The routes whose answers the spec states, in §4's order. */
const STATED: readonly StatedAnswer[] = [
  { method: 'PATCH', path: /^\/assistants\/[^/]+$/, schema: () => 'assistant', clause: '2.2/response-shape' },
  { method: 'GET', path: /^\/assistants\/[^/]+$/, schema: () => 'assistant', clause: '2.2/response-shape' },
  { method: 'GET', path: /^\/assistants\/[^/]+\/tasks\/overrides$/, schema: () => 'task-override#/$defs/list', clause: '2.8/task-override-shape' },
  {
    method: 'POST',
    path: /^\/sms-reasons$/,
    // §2.9: assistantId is "string, required" in the answer; with none sent, what it holds is not stated (null allowed).
    schema: (sent) => (sentMember(sent, 'assistantId') ? 'sms-reason' : 'sms-reason#/$defs/fromEmptyRequest'),
    clause: '4.3/sms-reason-nine-fields',
  },
  { method: 'POST', path: /^\/sms$/, schema: () => 'sms#/$defs/answer', clause: '4.4/sms-message-sid' },
];

function sentMember(sent: SentRequest, key: string): boolean {
  const body = sent.body as Record<string, unknown> | undefined;
  return !!body && typeof body === 'object' && !Array.isArray(body) && body[key] !== undefined && body[key] !== null;
}

/** The stated answer of a request, if the spec states one. */
function statedAnswer(sent: SentRequest): StatedAnswer | undefined {
  const path = sent.path.split('?')[0];
  return STATED.find((s) => s.method === sent.method && s.path.test(path));
}

/** Observes one request (helpers/http/client.ts `onRequest`): judges its 2xx answer when the spec states that answer's shape. */
export function auditAnswerTypes(sent: SentRequest): (answer: ApiResponse | undefined) => void {
  const stated = statedAnswer(sent);
  if (!stated) return () => undefined;
  return (answer) => {
    if (!answer || answer.status < 200 || answer.status >= 300 || !answer.json || typeof answer.json !== 'object') return;
    const schema = stated.schema(sent);
    const result = validate(schema, answer.json.data);
    judged(ANSWER_TYPES_AUDIT, stated.clause, result.ok, `${sent.method} ${sent.path.split('?')[0]} answers data of its stated types (schemas/${schema})`, {
      expected: `data valid against schemas/${schema}`,
      actual: formatIssues(result.issues),
    });
  };
}
