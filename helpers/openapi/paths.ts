/**
 * The path → schema table of the OpenAPI document: one row per operation of
 * spec §4 (§4.1–§4.5), naming the schemas/ files that give its request body and its success
 * `data`. The assembler (helpers/openapi/assemble.ts) turns each row into an operation whose
 * shapes are `$ref`s into `components.schemas` (each schemas/ file appears there once).
 *
 * A schema reference is `<file without .json>` or `<file>#/$defs/<name>`, e.g. `assistant`,
 * `sms#/$defs/request`, `events/end-of-call-report`. `'open'` means the spec does not show the
 * shape ("not shown"): the document leaves it open (any JSON) rather than inventing one.
 * The unit test (test/unit/openapi.test.ts) fails when a row names a schema that does not exist.
 */

/** A schema of schemas/ (`assistant`, `sms#/$defs/request`), or `open` for a shape the spec does not show. */
export type SchemaName = string;

/** HTTP methods used by §4. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Auth scope of an operation (§4 common header rules, §5.2, §5.3):
 * - `tenant`: `X-Tenant-Id` required with an organization key, omitted with a tenant key;
 * - `organization`: organization key without `X-Tenant-Id`; tenant keys get 403 ORG_SCOPE_REQUIRED;
 * - `organization-or-tenant`: an organization key needs no `X-Tenant-Id` (transcriber catalogue reads).
 */
export type AuthScope = 'tenant' | 'organization' | 'organization-or-tenant';

/** One query parameter. `schema` is a plain JSON Schema for a scalar (no schemas/ file holds one). */
export interface QueryParam {
  name: string;
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
}

/** Bare-JSON answers of §7 exceptions 2 and 3 (live monitoring). */
export interface BareAnswers {
  /** Success body (bare, not the envelope). */
  success: SchemaName;
  /** 404 body `{ "error": "not_found" }`. */
  notFound?: SchemaName;
  /** 409 body `{ "error": "conflict", "reason" }`. */
  conflict?: SchemaName;
  /** 429 body with top-level `retryAfterSeconds`. */
  tooMany?: SchemaName;
}

/** One row of the table: one operation of §4. */
export interface OperationRow {
  method: HttpMethod;
  /** Path as §4 writes it, with `{param}` placeholders (every path parameter is a uuid, §2.1). */
  path: string;
  /** Spec section, e.g. `4.1`. */
  section: string;
  /** One line from the spec. */
  summary: string;
  scope: AuthScope;
  /** Request body schema; absent when the operation takes no body. */
  request?: SchemaName;
  /** Schema of the envelope's `data` on success (§2.1). Ignored when `bare` is set. */
  data?: SchemaName;
  /** Success status (default 200). */
  successStatus?: number;
  /** Set for the bare-JSON operations of §7 exceptions 2 and 3. */
  bare?: BareAnswers;
  query?: QueryParam[];
  /** Further enveloped error statuses beyond 400/401/403/404/500 (e.g. 409, 429). */
  extraErrors?: number[];
}

/** Paths §4.5 names without a method; the document lists them with a description and no operation. */
export interface MethodlessPath {
  path: string;
  section: string;
  summary: string;
  scope: AuthScope;
}

/** Every operation of §4. */
export const OPERATIONS: readonly OperationRow[] = [
  // §4.1–§4.4: shapes stated.
  {
    method: 'patch',
    path: '/assistants/{id}',
    section: '4.1',
    summary: 'Partial update of an assistant; omitted fields stay unchanged',
    scope: 'tenant',
    request: 'assistant.patch.request',
    data: 'assistant',
  },
  {
    method: 'get',
    path: '/assistants/{id}/tasks/overrides',
    section: '4.2',
    summary: 'Task overrides of an assistant',
    scope: 'tenant',
    data: 'task-override#/$defs/list',
  },
  {
    method: 'post',
    path: '/sms-reasons',
    section: '4.3',
    summary: 'Create an SMS reason; every request field optional',
    scope: 'tenant',
    request: 'sms-reason#/$defs/request',
    data: 'sms-reason',
  },
  {
    method: 'post',
    path: '/sms',
    section: '4.4',
    summary: 'Send one text from a number registered on the tenant',
    scope: 'tenant',
    request: 'sms#/$defs/request',
    data: 'sms#/$defs/answer',
  },
  // §4.5: existence and some rules stated; other shapes not shown.
  {
    method: 'get',
    path: '/assistants',
    section: '4.5',
    summary: 'List assistants (data.assistants, each with at least id and name; order not guaranteed); list parameters not shown',
    scope: 'tenant',
    data: 'open',
  },
  { method: 'get', path: '/assistants/{id}', section: '4.5', summary: 'Read an assistant', scope: 'tenant', data: 'assistant' },
  {
    method: 'post',
    path: '/assistants',
    section: '4.5',
    summary: 'Create an assistant (accepts transferSettings); request and answer shapes not shown',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  { method: 'get', path: '/phone-numbers/available', section: '4.5', summary: 'Search provider inventory', scope: 'tenant', data: 'open' },
  {
    method: 'post',
    path: '/phone-numbers',
    section: '4.5',
    summary: 'Purchase a number (billed from purchase until released)',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  { method: 'get', path: '/calls', section: '4.5', summary: 'Call records with transcript, summary, analysis, recording link', scope: 'tenant', data: 'open' },
  { method: 'get', path: '/calls/{id}', section: '4.5', summary: 'One call record', scope: 'tenant', data: 'open' },
  { method: 'get', path: '/conversations', section: '4.5', summary: 'Text conversations (web chat, SMS, messaging-app)', scope: 'tenant', data: 'open' },
  {
    method: 'get',
    path: '/calls/live',
    section: '4.5',
    summary: 'Calls in progress; rows carry a call id and a separate callId (schema live-call) used only for support correlation',
    scope: 'tenant',
    data: 'open',
  },
  {
    method: 'post',
    path: '/calls/{id}/monitor-session',
    section: '4.5',
    summary: 'Mint a browser join credential (bare JSON); per-tenant 429 with top-level retryAfterSeconds',
    scope: 'tenant',
    request: 'open',
    bare: { success: 'monitor#/$defs/bare', notFound: 'monitor#/$defs/notFound', conflict: 'monitor#/$defs/conflict', tooMany: 'monitor#/$defs/rateLimited' },
  },
  {
    method: 'delete',
    path: '/calls/{id}/monitor-session',
    section: '4.5',
    summary: 'Close one monitor session; does not end the call',
    scope: 'tenant',
    data: 'open',
  },
  {
    method: 'post',
    path: '/calls/{id}/takeover',
    section: '4.5',
    summary: 'Take over a live call (bare JSON); the actorLabel supplied is recorded verbatim',
    scope: 'tenant',
    request: 'open',
    bare: { success: 'monitor#/$defs/bare', notFound: 'monitor#/$defs/notFound', conflict: 'monitor#/$defs/conflict' },
  },
  {
    method: 'post',
    path: '/calls/{id}/end',
    section: '4.5',
    summary: 'End a live call (bare JSON); the actorLabel supplied is recorded verbatim',
    scope: 'tenant',
    request: 'open',
    bare: { success: 'monitor#/$defs/bare', notFound: 'monitor#/$defs/notFound', conflict: 'monitor#/$defs/conflict' },
  },
  {
    method: 'get',
    path: '/calls/{id}/monitor-sessions',
    section: '4.5',
    summary: 'Monitor-session audit read, during and after the call',
    scope: 'tenant',
    data: 'monitor-sessions',
  },
  {
    method: 'get',
    path: '/calls/{id}/insights',
    section: '4.5',
    summary: "Session insights of a call; 404 'Call insights not found' until metrics land",
    scope: 'tenant',
    data: 'insights',
  },
  {
    method: 'get',
    path: '/calls/insights',
    section: '4.5',
    summary: 'Insights of several calls; each miss reported as call_not_found or metrics_not_found',
    scope: 'tenant',
    data: 'insights#/$defs/batch',
    query: [{ name: 'ids', required: true, description: '1 to 25 unique call ids, comma separated (§4.5, §8)', schema: { type: 'string', minLength: 1 } }],
  },
  {
    method: 'patch',
    path: '/assistants/{id}/chatapp-enabled',
    section: '4.5',
    summary: 'Switch the messaging-app text channel; 400 without an onboarded linked number',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  {
    method: 'post',
    path: '/v1/retention/audits',
    section: '4.5',
    summary: 'Organization-level retention audit',
    scope: 'organization',
    request: 'open',
    data: 'open',
  },
  { method: 'post', path: '/v1/churn/audits', section: '4.5', summary: 'Organization-level churn audit', scope: 'organization', request: 'open', data: 'open' },
  { method: 'get', path: '/organization/tenants', section: '4.5', summary: 'Tenants of the organization', scope: 'organization', data: 'open' },
  {
    method: 'get',
    path: '/transcribers',
    section: '4.5',
    summary: 'Transcriber catalogue (every transcriber carries a language)',
    scope: 'organization-or-tenant',
    data: 'open',
  },
  { method: 'get', path: '/transcribers/{id}', section: '4.5', summary: 'One transcriber', scope: 'organization-or-tenant', data: 'transcriber' },
  {
    method: 'get',
    path: '/models',
    section: '4.5',
    summary: 'Model catalogue; every entry carries type chat or realtime (schema model)',
    scope: 'tenant',
    data: 'open',
  },
  { method: 'post', path: '/prompts', section: '4.5', summary: 'Create a prompt', scope: 'tenant', request: 'open', data: 'prompt' },
  {
    method: 'get',
    path: '/prompts',
    section: '4.5',
    summary: 'List prompts of a type',
    scope: 'tenant',
    data: 'open',
    query: [
      { name: 'type', required: false, description: 'prompt type; named values chat, whisper_summary, voice_persona, ivr (§4.5)', schema: { type: 'string' } },
    ],
  },
  {
    method: 'post',
    path: '/tools',
    section: '4.5',
    summary: 'Create a tool (instruction, optional textInstructions)',
    scope: 'tenant',
    request: 'open',
    data: 'tool',
  },
  {
    method: 'put',
    path: '/tools/{id}',
    section: '4.5',
    summary: 'Replace a tool; omitting textInstructions keeps it, null removes it',
    scope: 'tenant',
    request: 'open',
    data: 'tool',
  },
  {
    method: 'put',
    path: '/tools/{id}/instruction',
    section: '4.5',
    summary: 'Tenant copy of the Knowledge Base tool; optional textInstructions',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  {
    method: 'put',
    path: '/assistants/{id}/tools/{toolId}/steps/{stepId}/text-override',
    section: '4.5',
    summary: 'Per-assistant text override of a tool step',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  {
    method: 'delete',
    path: '/assistants/{id}/tools/{toolId}/steps/{stepId}/text-override',
    section: '4.5',
    summary: 'Remove a per-assistant text override of a tool step',
    scope: 'tenant',
    data: 'open',
  },
  {
    method: 'put',
    path: '/assistants/{id}/tools/{toolId}/text-description-override',
    section: '4.5',
    summary: 'Per-assistant text description override',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  {
    method: 'get',
    path: '/assistants/{id}/tools/{toolId}/text-override',
    section: '4.5',
    summary: 'Read the per-assistant text override of a tool',
    scope: 'tenant',
    data: 'open',
  },
  {
    method: 'delete',
    path: '/assistants/{id}/tools/{toolId}/text-override',
    section: '4.5',
    summary: 'Remove the per-assistant text override of a tool',
    scope: 'tenant',
    data: 'open',
  },
  {
    method: 'put',
    path: '/assistants/{id}/tools/{toolId}/description-override',
    section: '4.5',
    summary: 'Per-assistant voice description override; an empty description restores the defaults',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
  {
    method: 'post',
    path: '/test-suites/{id}/run',
    section: '4.5',
    summary: 'Run a text test suite; 400 VALIDATION_ERROR when the assistant runs a realtime model',
    scope: 'tenant',
    request: 'open',
    data: 'open',
  },
];

/** Paths §4.5 names without stating a method (transcriber testing, text test suites). */
export const METHODLESS_PATHS: readonly MethodlessPath[] = [
  {
    path: '/turn-flags',
    section: '4.5',
    summary: 'Transcriber testing: turn flags (methods not shown); organization key without X-Tenant-Id',
    scope: 'organization',
  },
  { path: '/transcriber-banks', section: '4.5', summary: 'Transcriber testing: banks of up to 8 candidates (methods not shown)', scope: 'organization' },
  { path: '/full-call-runs', section: '4.5', summary: 'Transcriber testing: full-call runs of up to 10 calls (methods not shown)', scope: 'organization' },
  {
    path: '/test-suites',
    section: '4.5',
    summary: 'Text test suites: mode text only, up to 12 cases, iterations 1 to 10 (methods not shown)',
    scope: 'tenant',
  },
  { path: '/test-runs', section: '4.5', summary: 'Text test runs; outcomes passed, failed, error (methods not shown)', scope: 'tenant' },
];

/** One webhook of §6 (OpenAPI 3.1 `webhooks`): the POST the service sends to the customer's server. */
export interface WebhookRow {
  /** Key in `webhooks` (the event's name in §6). */
  name: string;
  summary: string;
  /** Body schema (schemas/events/…). */
  body: SchemaName;
  /** §6 delivery model: A (shared-secret header) or B (HMAC signature). */
  model: 'A' | 'B';
}

/** The events of §6. */
export const WEBHOOKS: readonly WebhookRow[] = [
  { name: 'assistant-request', summary: 'A voice call starts', body: 'events/assistant-request', model: 'A' },
  { name: 'assistant-request-messaging', summary: 'A messaging conversation starts', body: 'events/assistant-request.messaging', model: 'A' },
  { name: 'end-of-call-report', summary: 'A voice call ends (needs a call that connected)', body: 'events/end-of-call-report', model: 'A' },
  { name: 'end-of-conversation-report', summary: 'A messaging conversation ends', body: 'events/end-of-conversation-report', model: 'A' },
  { name: 'tool-invocation', summary: "The assistant calls one of the customer's tools", body: 'events/tool-invocation', model: 'A' },
  {
    name: 'chatapp-onboarding',
    summary: 'Messaging-app onboarding lifecycle (tier_pending, completed, failed, calling.live)',
    body: 'events/chatapp-onboarding',
    model: 'B',
  },
];
