/**
 * Personalities: two conformant readings of the spec that take different choices wherever the
 * spec leaves one open, so that the suite can be shown to assert only what the spec states.
 *
 * - `default`: the simulator's first reading (creates answer 200, ISO 8601 timestamps, …).
 * - `alt`: another careful reading. Every choice below is allowed by the section named:
 *   - creates swap 200 and 201: where the default reading answers 201 (e.g. `POST /assistants`)
 *     alt answers 200, and a POST the default answers 200 with a new `data.id` alt answers 201
 *     (§4 states no status for creates; "2xx");
 *   - assistants carry undocumented fields (§9.4: clients ignore unknown fields): `revision`,
 *     which every successful write of the assistant increments, and `servedAt`, the time of each
 *     read, so it changes on every read;
 *   - keys of `data` objects come in reverse order (§9.4: no key order);
 *   - `GET /assistants` lists in reverse order (§4.5: "list order is not guaranteed");
 *   - every list answer (`data` holding one array) carries extra wrapper keys `total` and
 *     `nextCursor` (§4.5 shows only the array; pagination: not shown);
 *   - assistant `createdAt` is a date (`YYYY-MM-DD`) and `updatedAt` a number (epoch
 *     milliseconds): two of the forms §2.2 allows ("date-time, date, number or null"; the default
 *     reading takes the third);
 *   - live-call rows carry the call id under `callUuid` (§4.5: "rows carry a call id and a
 *     separate callId"; the key of the call id is not stated);
 *   - parts whose names the spec does not state get other names: the insights' per-turn part is
 *     `turnMetrics` (§4.5 describes the content, not the key), a test run's and its cases'
 *     outcome is under `result` (§3 names the values, not the key).
 *   - PATCH /assistants/{id} validates the body before looking the id up (the spec orders
 *     neither way; an invalid body answers 400 for every id, so nothing about another tenant's
 *     assistant shows);
 *   - error messages are worded otherwise (§7: "human-readable, never parse it"), except the
 *     one the spec states word for word (`Call insights not found`, §4.5);
 *   - extra response headers (`x-request-id`, `x-served-by`), `Content-Type: application/json`
 *     without `charset`, and `Retry-After` as an HTTP date on a 429 that names no delay
 *     (§7 exception 3 keeps the top-level `retryAfterSeconds` too);
 *   - "retried up to 5 times" (§6 Model B rule 3) read as 5 attempts in all (§8 limit table:
 *     "5 attempts"), where the default reading makes 1 + 5 retries.
 *
 * Selected by `buildSimulator({ personality })` / `startSimulator({ personality })`, the CLI's
 * `--personality alt`, or the control config key `personality` (an addition to the control
 * contract). The choices of an answer's form are one `onSend` transformation of public JSON
 * answers ({@link altOnSend}); the choices inside the simulator's logic are overrides of seams
 * ({@link ALT_READING}), applied before any fault's. Either way no route mentions a personality.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { patchOrder } from './model/assistant.ts';
import { override, type Override } from './seam.ts';
import type { SimState } from './state.ts';
import { deliveryPolicy, MODEL_B_RETRIES } from './webhooks/policy.ts';

/**
 * The alt reading's choices that live inside the simulator's logic rather than in its answers'
 * form: overrides of seams (seam.ts), applied before any fault's.
 */
export const ALT_READING: readonly Override[] = [
  // "retried up to 5 times" (§6 Model B rule 3) as 5 attempts in all (§8 limit table): 4 retries.
  override(deliveryPolicy, (next) => (model) => (model === 'B' ? { ...next(model), retries: MODEL_B_RETRIES - 1 } : next(model))),
  // PATCH /assistants/{id} validates the body before looking the id up.
  override(patchOrder, () => (lookUp, validate) => {
    validate();
    return lookUp();
  }),
];

/** Whether the running simulator takes the alternative reading. */
function isAlt(state: SimState): boolean {
  return state.config.personality === 'alt';
}

/** Error messages the spec states word for word (kept in every reading): §4.5 insights 404. */
const STATED_MESSAGES = new Set(['Call insights not found']);

/** Successful writes per assistant id (alt's `revision`). */
const revisions = new WeakMap<SimState, Map<string, number>>();
let reads = 0;

function revisionsOf(state: SimState): Map<string, number> {
  let m = revisions.get(state);
  if (!m) revisions.set(state, (m = new Map()));
  return m;
}

function reversedKeys<T>(o: T): T {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return o;
  return Object.fromEntries(Object.entries(o as Record<string, unknown>).reverse()) as T;
}

function asDate(v: unknown): unknown {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v;
}

function asEpochMs(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : t;
}

/**
 * A public answer's JSON as the routes wrote it: the alt transform rewrites whatever shape each
 * route answers (assistants, lists, insights, test runs), so it reads the body untyped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the transform serves every route's shape
type AnswerJson = any;

/** Alt's form of one assistant object. */
function altAssistant(state: SimState, a: AnswerJson): AnswerJson {
  if (!a || typeof a !== 'object' || typeof a.id !== 'string') return a;
  reads += 1;
  const out = {
    ...a,
    createdAt: asDate(a.createdAt),
    updatedAt: asEpochMs(a.updatedAt),
    revision: revisionsOf(state).get(a.id) ?? 1,
    servedAt: `${new Date().toISOString()}#${reads}`,
  };
  if (!('createdAt' in a)) delete out.createdAt;
  if (!('updatedAt' in a)) delete out.updatedAt;
  return out;
}

function renameKey(o: AnswerJson, from: string, to: string): void {
  if (o && typeof o === 'object' && from in o) {
    o[to] = o[from];
    delete o[from];
  }
}

/**
 * The alt personality's `onSend` step for public answers: rewrites the JSON body and status as
 * described in the module comment. Answers the payload to send.
 */
export function altOnSend(state: SimState, request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (!isAlt(state) || typeof payload !== 'string') return payload;
  const route = request.routeOptions?.url ?? '';
  const status = reply.statusCode;
  if ((request.method === 'PATCH' || request.method === 'POST') && status >= 200 && status < 300 && route.startsWith('/assistants')) {
    const id = (request.params as Record<string, string> | undefined)?.id;
    if (id) revisionsOf(state).set(id, (revisionsOf(state).get(id) ?? 1) + 1);
  }
  // Extra headers, a Content-Type without charset, Retry-After as an HTTP date.
  reply.header('x-request-id', `alt-${(reads += 1)}`);
  reply.header('x-served-by', 'core-api-simulator-alt');
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('application/json')) reply.header('content-type', 'application/json');
  if (status === 429 && reply.getHeader('retry-after') === undefined) reply.header('retry-after', new Date(Date.now() + 1_000).toUTCString());
  let body: AnswerJson;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (body && body.success === false && body.error && typeof body.error.message === 'string' && !STATED_MESSAGES.has(body.error.message)) {
    body.error.message = `Request refused (${body.error.code}).`;
    return JSON.stringify(body);
  }
  if (!body || body.success !== true || !body.data || typeof body.data !== 'object') return payload;
  let data = body.data;
  if (request.method === 'POST' && status === 201) reply.code(200);
  else if (request.method === 'POST' && status === 200 && typeof data.id === 'string') reply.code(201);
  if (route === '/assistants' && request.method === 'GET' && Array.isArray(data.assistants)) {
    data = { ...data, assistants: [...data.assistants].reverse().map((a: AnswerJson) => reversedKeys(altAssistant(state, a))) };
  } else if (route.startsWith('/assistants') && !route.includes('/chatapp') && typeof data.id === 'string' && 'name' in data) {
    data = altAssistant(state, data);
  }
  if (route === '/calls/:id/insights') {
    data = { ...data };
    renameKey(data, 'performance', 'turnMetrics');
  }
  if (/^\/test-(suites\/:id\/run|runs)/.test(route)) {
    data = { ...data };
    renameKey(data, 'outcome', 'result');
    if (Array.isArray(data.cases))
      data.cases = data.cases.map((c: AnswerJson) => {
        const copy = { ...c };
        renameKey(copy, 'outcome', 'result');
        if (Array.isArray(copy.iterations))
          copy.iterations = copy.iterations.map((it: AnswerJson) => {
            const i2 = { ...it };
            renameKey(i2, 'outcome', 'result');
            return i2;
          });
        return copy;
      });
  }
  if (route === '/calls/live' && request.method === 'GET') {
    const rename = (rows: AnswerJson[]) =>
      rows.map((row: AnswerJson) => {
        const r = { ...row };
        renameKey(r, 'id', 'callUuid');
        return r;
      });
    data = Array.isArray(data) ? rename(data) : Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? rename(v) : v]));
  }
  const arrays = Array.isArray(data) ? [] : Object.entries(data).filter(([, v]) => Array.isArray(v));
  if (request.method === 'GET' && arrays.length === 1 && Object.keys(data).length === 1) {
    data = { ...data, total: (arrays[0][1] as unknown[]).length, nextCursor: null };
  }
  body.data = reversedKeys(data);
  return JSON.stringify(body);
}
