/**
 * Registry of deliberate spec violations ("faults"). Each one breaks a single clause so the
 * conformance suite can prove it notices. Switch them on with
 * `PUT /__control/config {"faults": ["auth.accept-bearer", ...]}`; list them with
 * `GET /__control/faults`. A switch point in the code is always `faultOn(state, '<name>')`.
 *
 * Clause ids are `<spec section>/<short-slug>`, the ids of the suite's clause catalogue
 * (spec/clauses/*.json); test/unit/fault-clauses.test.ts checks that each one exists there.
 */
import { FAMILY_FAULTS } from './faults-families.ts';
import { GAP_FAULTS } from './faults-gaps.ts';
import { SYSTEMATIC_FAULTS } from './faults-systematic.ts';
import type { SimState } from './state.ts';

/** One fault: its name, the spec clauses it violates, and what it does. */
export interface FaultInfo {
  name: string;
  clauses: string[];
  description: string;
}

/** Every known fault. Add new ones here; names are `<area>.<what>`. */
export const FAULTS: readonly FaultInfo[] = [
  {
    name: 'bounds.idle-timeout-61',
    clauses: ['2.2/idle-timeout-bounds', '8/idle-timeout-0-60'],
    description: 'idleTimeoutSeconds accepts 61 (upper bound off by one).',
  },
  {
    name: 'bounds.transfer-mode-case-insensitive',
    clauses: ['2.2/transfer-mode-case-sensitive'],
    description: 'transferMode is matched case-insensitively (e.g. "Cold-Transfer" accepted, stored lower-case).',
  },
  {
    name: 'merge.transfer-settings-replace',
    clauses: ['2.5/deep-merge'],
    description: 'A transferSettings PATCH replaces the stored document instead of deep-merging into it.',
  },
  {
    name: 'merge.ivr-null-key-kept',
    clauses: ['2.7/null-key-deleted'],
    description: 'An ivrSettings key sent as null is stored as null instead of being deleted.',
  },
  {
    name: 'merge.tool-ids-empty-ignored',
    clauses: ['2.2/tool-ids-replace-set'],
    description: '`toolIds: []` is ignored instead of unlinking every tool.',
  },
  {
    name: 'merge.settings-clobbered',
    clauses: ['2.2/transfer-dial-timeout-merged-into-settings'],
    description: 'transferDialTimeout replaces the whole settings object instead of merging one key.',
  },
  // assistant bounds, validation and merge (§2.2–§2.7, §4.1, §8): model/assistant.ts,
  // validation/settings.ts, validation/server-url.ts
  {
    name: 'bounds.call-time-limit-9',
    clauses: ['2.2/call-time-limit-bounds', '8/call-time-limit-10-43200'],
    description: 'callTimeLimitSeconds accepts 9 (lower bound off by one).',
  },
  {
    name: 'bounds.call-time-limit-43201',
    clauses: ['2.2/call-time-limit-bounds', '8/call-time-limit-10-43200'],
    description: 'callTimeLimitSeconds accepts 43201 (upper bound off by one).',
  },
  {
    name: 'bounds.idle-timeout-minus-1',
    clauses: ['2.2/idle-timeout-bounds', '8/idle-timeout-0-60'],
    description: 'idleTimeoutSeconds accepts -1 (lower bound off by one).',
  },
  {
    name: 'bounds.idle-message-count-11',
    clauses: ['2.2/idle-message-max-spoken-count-bounds', '8/idle-message-max-spoken-count-0-10'],
    description: 'idleMessageMaxSpokenCount accepts 11 (upper bound off by one).',
  },
  {
    name: 'bounds.transfer-dial-timeout-0',
    clauses: ['2.2/transfer-dial-timeout-bounds', '8/transfer-dial-timeout-1-60'],
    description: 'transferDialTimeout accepts 0 (lower bound off by one).',
  },
  {
    name: 'bounds.transfer-dial-timeout-61',
    clauses: ['2.2/transfer-dial-timeout-bounds', '8/transfer-dial-timeout-1-60'],
    description: 'transferDialTimeout accepts 61 (upper bound off by one).',
  },
  {
    name: 'bounds.warm-whisper-31',
    clauses: ['2.2/warm-whisper-delay-bounds', '8/warm-whisper-delay-0-30'],
    description: 'warmWhisperDelaySeconds accepts 31 (upper bound off by one).',
  },
  {
    name: 'bounds.integer-string-unbounded',
    clauses: ['2.2/integer-string-accepted'],
    description: 'An integer string ("61") on an integer field is accepted without checking its value against the bounds; JSON integers are still checked.',
  },
  {
    name: 'bounds.non-integer-accepted',
    clauses: ['2.2/request-types'],
    description: 'A non-integer number within the bounds (10.5) is accepted and stored on the integer fields of §2.2.',
  },
  {
    name: 'bounds.warm-return-2001',
    clauses: ['2.2/warm-return-message-length', '8/warm-return-message-2000'],
    description: 'warmReturnMessage accepts 2001 characters.',
  },
  {
    name: 'bounds.instructions-append-2001',
    clauses: ['2.4/instructions-append-length', '8/instructions-append-2000'],
    description: 'expressiveOptions.instructionsAppend accepts 2001 characters.',
  },
  {
    name: 'bounds.interruption-min-duration-6',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minDuration accepts values up to 6 (5.5 and 6 accepted).',
  },
  {
    name: 'bounds.interruption-min-words-11',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minWords accepts 11.',
  },
  {
    name: 'bounds.language-name',
    clauses: ['2.6/language-name-rejected'],
    description: 'A dictionarySettings language given as a word of three or more letters (English) is accepted and stored as sent.',
  },
  {
    name: 'bounds.regional-locale-kept',
    clauses: ['2.6/regional-locale-base-code'],
    description: 'A regional locale (en-GB) is accepted but stored as sent instead of as its base code.',
  },
  {
    name: 'bounds.pronunciation-neither',
    clauses: ['2.6/pronunciation-needs-phonemes-or-respell'],
    description: 'A ttsPronunciations item with neither phonemes nor respell is accepted.',
  },
  {
    name: 'bounds.transfer-settings-unknown-key',
    clauses: ['2.5/unknown-key-rejected'],
    description: 'An unknown transferSettings key is accepted and stored (known keys are still type-checked).',
  },
  {
    name: 'validation.details-first-only',
    clauses: ['4.1/validation-error-details'],
    description: 'A rejected assistant PATCH lists only its first failing field in error.details.',
  },
  {
    name: 'validation.partial-apply',
    clauses: ['4.1/rejected-patch-changes-nothing'],
    description: 'A rejected assistant PATCH still answers 400 but stores the fields that passed validation.',
  },
  {
    name: 'merge.transfer-settings-null-ignored',
    clauses: ['2.5/null-clears'],
    description: 'transferSettings: null leaves the stored document instead of clearing it.',
  },
  {
    name: 'merge.dictionary-settings-merged',
    clauses: ['2.6/replace'],
    description: 'A dictionarySettings object is merged key by key into the stored one instead of replacing it.',
  },
  {
    name: 'merge.dictionary-settings-null-ignored',
    clauses: ['2.6/null-clears'],
    description: 'dictionarySettings: null leaves the stored document instead of clearing it.',
  },
  {
    name: 'merge.ivr-replace',
    clauses: ['2.7/deep-merge-per-key'],
    description: 'An ivrSettings PATCH replaces the stored document instead of merging per key.',
  },
  {
    name: 'merge.ivr-null-ignored',
    clauses: ['2.7/null-clears'],
    description: 'ivrSettings: null leaves the stored document instead of clearing it.',
  },
  {
    name: 'merge.plan-null-ignored',
    clauses: ['2.4/plan-null-deletes'],
    description: 'null on a conversationConfig plan, or on a field inside one, is accepted but leaves the stored value.',
  },
  {
    name: 'merge.expressive-options-null-kept',
    clauses: ['2.4/expressive-options-null-omits'],
    description: 'expressiveOptions: null is stored as null instead of deleting the key.',
  },
  {
    name: 'merge.tool-ids-union',
    clauses: ['2.2/tool-ids-replace-set'],
    description: 'A non-empty toolIds is added to the stored set instead of replacing it.',
  },
  {
    name: 'merge.dictionary-ids-empty-ignored',
    clauses: ['2.2/dictionary-ids-empty-unlinks'],
    description: '`dictionaryIds: []` is ignored instead of unlinking every dictionary.',
  },
  {
    name: 'merge.warm-whisper-clobbers',
    clauses: ['2.2/warm-whisper-delay-merged-into-settings'],
    description: 'warmWhisperDelaySeconds replaces the whole settings object instead of merging one key.',
  },
  {
    name: 'merge.warm-return-clobbers',
    clauses: ['2.2/warm-return-message-merged-into-settings'],
    description: 'warmReturnMessage replaces the whole settings object instead of merging one key.',
  },
  {
    name: 'merge.omitted-reset',
    clauses: ['4.1/omitted-unchanged'],
    description: 'A PATCH that omits idleMessages resets it to its default ([]).',
  },
  {
    name: 'merge.replay-drift',
    clauses: ['8/patch-replay-converges'],
    description: 'categories sent in a PATCH are appended to the stored list, so a replayed PATCH grows it.',
  },
  {
    name: 'xtenant.foreign-assistant-403',
    clauses: ['5.7/foreign-resource-not-found'],
    description: "Another tenant's assistant answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
  },
  {
    name: 'xtenant.foreign-message-differs',
    clauses: ['5.7/foreign-indistinguishable'],
    description:
      "Another tenant's assistant answers 404 RESOURCE_NOT_FOUND with a different message than a nonexistent one.",
  },
  // webhooks (§6): webhooks/signing.ts, webhooks/delivery.ts, webhooks/routing.ts
  {
    name: 'webhooks.sign-reserialised',
    clauses: ['6/b-raw-bytes', '6/b-signature'],
    description: 'Model B: the HMAC is computed over JSON.stringify(JSON.parse(body)), not over the bytes sent.',
  },
  {
    name: 'webhooks.wrong-secret',
    clauses: ['6/b-signature'],
    description: 'Model B: the HMAC is keyed by a secret other than the client server secret.',
  },
  {
    name: 'webhooks.drop-sha256-prefix',
    clauses: ['6/b-signature'],
    description: 'Model B: X-Service-Signature is the bare hex digest, without "sha256=".',
  },
  {
    name: 'webhooks.new-delivery-id-on-retry',
    clauses: ['6/b-same-delivery-id', '6/b-dedupe'],
    description: 'Model B: every retry carries a fresh X-Service-Delivery id.',
  },
  {
    name: 'webhooks.retry-model-a',
    clauses: ['6/a-no-retry'],
    description: 'Model A: a failed delivery is retried like model B.',
  },
  {
    name: 'webhooks.retries-3',
    clauses: ['6/b-retry-count'],
    description: 'Model B: only 3 retries after a failed first attempt instead of 5.',
  },
  {
    name: 'webhooks.retries-8',
    clauses: ['6/b-retry-count'],
    description: 'Model B: 8 retries after a failed first attempt instead of at most 5.',
  },
  {
    name: 'webhooks.constant-delay',
    clauses: ['6/b-backoff-exponential'],
    description: 'Model B: every retry waits webhookRetryBaseMs instead of doubling.',
  },
  {
    name: 'webhooks.ignore-server-url',
    clauses: ['6/route-server-url', '2.3/unset-tenant-url'],
    description: "Every event goes to the tenant-level URL, even when the assistant's serverUrl is set.",
  },
  {
    name: 'webhooks.model-a-secret-missing',
    clauses: ['6/a-secret-header'],
    description: 'Model A: the x-service-core-secret header is left out.',
  },
  // webhooks (§6)
  {
    name: 'webhooks.path-dropped',
    clauses: ['2.3/path-kept'],
    description: "A delivery to an assistant's serverUrl with a path (and query) is posted to `/` of that host (the tenant-level URL keeps its path).",
  },
  {
    name: 'webhooks.server-url-at-delivery',
    clauses: ['1/call-keeps-server-url'],
    description: "The end-of-call report goes to the assistant's serverUrl at delivery time (else the tenant URL) instead of the one in force when the call started.",
  },
  {
    name: 'webhooks.null-server-url-kept',
    clauses: ['2.3/unset-tenant-url'],
    description: 'After PATCH serverUrl: null, events keep going to the previous serverUrl instead of the tenant-level URL (the PATCH answer still shows null).',
  },
  {
    name: 'webhooks.test-request-on-patch',
    clauses: ['2.3/patch-no-test-request'],
    description: 'A PATCH /assistants/{id} that sets serverUrl sends a POST `{"type":"test-request"}` to it.',
  },
  {
    name: 'webhooks.no-retry-on-timeout',
    clauses: ['6/b-retry-on-failure'],
    description: 'Model B: an attempt that times out (no answer within webhookTimeoutMs) is not retried; a non-2xx answer still is.',
  },
  {
    name: 'webhooks.shared-delivery-id',
    clauses: ['6/b-dedupe'],
    description: "A new event reuses the delivery id of the tenant's previous event of the same model, so distinct events share one id.",
  },
  {
    name: 'webhooks.delivery-id-not-uuid',
    clauses: ['6/b-delivery-id-uuid'],
    description: 'Delivery ids (X-Service-Delivery, and the deliveries log) are `dlv_<24 hex>` tokens instead of UUIDs.',
  },
  {
    name: 'webhooks.supervisor-answered-string',
    clauses: ['6/a-end-of-call-fields'],
    description: 'The end-of-call report carries `supervisor_answered` as the string "true" or "false".',
  },
  {
    name: 'webhooks.no-call-id',
    clauses: ['6/voice-call-id'],
    description: 'Voice events (assistant-request, end-of-call-report, tool invocation) lack `call_id`.',
  },
  {
    name: 'webhooks.no-customer-identifier',
    clauses: ['6/messaging-fields'],
    description: 'Messaging events (assistant-request, end-of-conversation-report) lack `customer_identifier`.',
  },
  {
    name: 'webhooks.text-plain',
    clauses: ['6/events-post-json'],
    description: 'Events are sent with `Content-Type: text/plain` (same bytes).',
  },
  {
    name: 'webhooks.empty-2xx-drops-call',
    clauses: ['6/a-empty-2xx'],
    description: 'A 2xx with an empty body to a voice assistant-request ends the call at once: it is no longer live and gives no end-of-call report (control end answers 200, sends nothing).',
  },
  {
    name: 'webhooks.tool-event-model-b',
    clauses: ['6/delivery-model-per-event', '6/tool-invocation-event'],
    description: 'The tool invocation event is sent under model B (signature and delivery id, no x-service-core-secret).',
  },
  // cross-tenant (§5.7, §7 exception 2): routes/calls.ts, routes/monitoring.ts, routes/tools.ts
  {
    name: 'xtenant.foreign-call-403',
    clauses: ['5.7/foreign-resource-not-found', '5.7/foreign-indistinguishable', '5.7/isolation-call-read', '5.7/isolation-monitor-sessions-read', '7/monitor-404-bare-identical'],
    description: "Another tenant's call answers 403 (FORBIDDEN envelope, or bare {\"error\":\"forbidden\"} on the monitoring actions) instead of 404.",
  },
  {
    name: 'xtenant.foreign-call-message-differs',
    clauses: ['5.7/foreign-indistinguishable'],
    description: "Another tenant's call answers 404 RESOURCE_NOT_FOUND with a message different from an unknown call's (GET /calls/{id}, monitor-sessions, DELETE monitor-session).",
  },
  {
    name: 'xtenant.foreign-call-header',
    clauses: ['5.7/isolation-call-read', '5.7/foreign-indistinguishable'],
    description: "The 404 for another tenant's call carries an extra header `x-resource-owner: another-tenant` (every call route).",
  },
  {
    name: 'xtenant.foreign-bare-body',
    clauses: ['7/bare-404-end', '7/bare-404-takeover', '7/bare-404-monitor-session', '5.7/foreign-indistinguishable'],
    description: 'POST monitor-session/takeover/end on another tenant\'s call answers 404 `{"error":"not_found","reason":"other_tenant"}` instead of the byte-identical body.',
  },
  {
    name: 'xtenant.deleted-call-gone',
    clauses: ['7/bare-404-deleted-call'],
    description: 'POST monitor-session/takeover/end on a deleted call answers 410 `{"error":"gone"}` instead of the bare 404.',
  },
  {
    name: 'xtenant.foreign-tool-write-through',
    clauses: ['5.7/no-cross-tenant-write'],
    description: "PUT /tools/{id} on another tenant's tool answers 404 but applies the write.",
  },
  {
    name: 'xtenant.calls-list-leaks',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /calls lists every tenant's calls.",
  },
  {
    name: 'xtenant.foreign-tool-403',
    clauses: ['5.7/isolation-tool-update', '5.7/foreign-resource-not-found', '5.7/isolation-tool-instruction'],
    description: "PUT /tools/{id} and PUT /tools/{id}/instruction on another tenant's tool answer 403 FORBIDDEN instead of 404.",
  },
  {
    name: 'xtenant.foreign-override-message',
    clauses: ['5.7/isolation-text-override', '5.7/foreign-indistinguishable'],
    description: "On the per-assistant tool override routes, another tenant's assistant or tool answers 404 with a different message.",
  },
  {
    name: 'xtenant.foreign-assistant-write',
    clauses: ['5.7/no-cross-tenant-write'],
    description: "PATCH /assistants/{id} on another tenant's assistant applies the change and answers 200.",
  },
  {
    name: 'xtenant.foreign-call-end',
    clauses: ['5.7/no-cross-tenant-write', '7/bare-404-end'],
    description: "POST /calls/{id}/end on another tenant's live call ends it (the answer is still the bare 404).",
  },
  {
    name: 'xtenant.list-leak',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /assistants with an organization key lists every tenant's assistants of the organization.",
  },
  {
    name: 'xtenant.foreign-slow',
    clauses: ['5.7/timing-indistinguishable'],
    description: "GET /assistants/{id} of another tenant's assistant, and the bare monitoring routes on another tenant's call, answer after an extra ~20 ms (timing side channel).",
  },
  {
    name: 'xtenant.foreign-override-write-through',
    clauses: ['5.7/no-cross-tenant-write', '5.7/isolation-text-override'],
    description: "DELETE /assistants/{id}/tools/{toolId}/text-override with another tenant's assistant answers 404 but deletes its text overrides.",
  },
  // calls and conversations (§1, §4.5): routes/calls.ts
  {
    name: 'calls.conversations-in-calls',
    clauses: ['1/conversations-separate', '4.5/conversations-readable'],
    description: 'GET /calls also lists the tenant\'s text conversations.',
  },
  // live monitoring (§3, §4.5, §7 exceptions 2 and 3): routes/monitoring.ts
  {
    name: 'monitoring.conflict-in-envelope',
    clauses: ['7/monitor-409-body'],
    description: '409 of monitor-session/takeover/end is an envelope (code CONFLICT) instead of bare {"error":"conflict","reason":...}.',
  },
  {
    name: 'monitoring.retry-after-in-error',
    clauses: ['7/monitor-429-top-level', '4.5/monitor-session-429'],
    description: 'The per-tenant mint 429 is an envelope with `error.retryAfterSeconds` and no top-level retryAfterSeconds.',
  },
  {
    name: 'monitoring.delete-ends-call',
    clauses: ['4.5/monitor-session-delete'],
    description: 'DELETE /calls/{id}/monitor-session also ends the call.',
  },
  {
    name: 'monitoring.not-live-as-agent-absent',
    clauses: ['3/monitoring-not-live-final', '7/monitor-409-body'],
    description: 'Actions on a finished call answer 409 reason `agent_absent` instead of `not_live`.',
  },
  {
    name: 'monitoring.actor-label-altered',
    clauses: ['4.5/actor-label-verbatim'],
    description: 'actorLabel is stored trimmed and with <>"\'& removed instead of verbatim.',
  },
  {
    name: 'monitoring.callid-in-path',
    clauses: ['4.5/calls-live-callid-not-in-path'],
    description: 'The support `callId` of GET /calls/live is accepted in /calls/{id}/... paths.',
  },
  {
    name: 'monitoring.mint-in-envelope',
    clauses: ['7/bare-json-monitoring', '4.5/monitor-session-mint'],
    description: 'POST /calls/{id}/monitor-session answers its credential inside the envelope.',
  },
  {
    name: 'monitoring.no-rate-limit',
    clauses: ['4.5/monitor-session-429'],
    description: 'Minting monitor sessions is never throttled (no 429).',
  },
  {
    name: 'monitoring.no-slot-limit',
    clauses: ['4.5/monitor-session-slots'],
    description: 'Monitor sessions on one call are not limited by monitorSlotsPerCall.',
  },
  {
    name: 'monitoring.over-length-bare',
    clauses: ['7/monitor-400-envelope'],
    description: 'An over-length actorLabel answers a bare 400 {"error":"invalid_request"} instead of the envelope.',
  },
  // insights (§4.5): routes/insights.ts
  {
    name: 'insights.batch-26-accepted',
    clauses: ['4.5/insights-batch-bounds', '8/limit-insights-batch'],
    description: 'GET /calls/insights accepts 26 ids.',
  },
  {
    name: 'insights.batch-duplicates-accepted',
    clauses: ['4.5/insights-batch-unique'],
    description: 'GET /calls/insights accepts a repeated id.',
  },
  {
    name: 'insights.batch-unknown-fails',
    clauses: ['4.5/insights-batch-unknown-never-fails'],
    description: 'One unknown id in GET /calls/insights fails the whole request with 404.',
  },
  {
    name: 'xtenant.insights-batch-foreign-metrics',
    clauses: ['4.5/insights-batch-foreign-as-unknown', '5.7/foreign-indistinguishable'],
    description: "GET /calls/insights reports another tenant's call as `metrics_not_found`, or returns its metrics once they landed, instead of `call_not_found`.",
  },
  {
    name: 'insights.available-early',
    clauses: ['4.5/insights-404-until-metrics'],
    description: 'Insights of an ended call are served before insightsDelayMs has passed.',
  },
  {
    name: 'insights.not-found-message',
    clauses: ['4.5/insights-404-until-metrics'],
    description: "The 404 of GET /calls/{id}/insights says 'Insights not available' instead of 'Call insights not found'.",
  },
  {
    name: 'insights.missing-turn',
    clauses: ['4.5/insights-performance-per-turn'],
    description: 'The performance list has one entry fewer than the assistant turns.',
  },
  // SMS (§2.9, §4.3, §4.4): routes/sms.ts
  {
    name: 'sms.accept-1601',
    clauses: ['4.4/sms-message-length', '8/limit-sms-message'],
    description: 'POST /sms accepts a 1601-character message.',
  },
  {
    name: 'sms.accept-empty-message',
    clauses: ['4.4/sms-message-length'],
    description: 'POST /sms accepts an empty message.',
  },
  {
    name: 'xtenant.sms-foreign-number-403',
    clauses: ['4.4/sms-from-number-indistinguishable', '5.7/foreign-resource-not-found'],
    description: "POST /sms with another tenant's fromNumber answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
  },
  {
    name: 'sms.deleted-from-accepted',
    clauses: ['4.4/from-number-not-found'],
    description: 'POST /sms sends from a deleted number of the tenant instead of answering 404.',
  },
  {
    name: 'sms.no-details',
    clauses: ['7/validation-details'],
    description: 'A rejected POST /sms answers 400 VALIDATION_ERROR without error.details.',
  },
  {
    name: 'sms.reason-drops-properties',
    clauses: ['2.9/properties-need-not-be-supplied', '4.3/sms-reason-nine-fields'],
    description: 'POST /sms-reasons answers without `properties`.',
  },
  // organization routes (§4.5, §5.3, §5.6): auth.ts
  // tools (§4.5): routes/tools.ts
  {
    name: 'tools.put-clears-text-instructions',
    clauses: ['4.5/tool-put-keeps-text-instructions'],
    description: 'PUT /tools/{id} (and /instruction) without textInstructions clears it.',
  },
  {
    name: 'tools.null-keeps-text-instructions',
    clauses: ['4.5/tool-put-null-removes-text-instructions'],
    description: 'PUT /tools/{id} with textInstructions: null keeps the stored value.',
  },
  {
    name: 'tools.empty-description-stored',
    clauses: ['4.5/tool-empty-description-restores'],
    description: "An empty description override is stored as '' instead of restoring the default.",
  },
  {
    name: 'tools.voice-text-coupled',
    clauses: ['4.5/tool-overrides-independent'],
    description: 'PUT text-description-override also overrides the voice description.',
  },
  // text test suites (§3, §4.5, §8): routes/test-suites.ts
  // catalogues, prompts, channels (§2.10, §4.5): routes/models.ts, routes/prompts.ts, routes/chatapp.ts
  // task overrides (§2.8), calls and live monitoring (§4.5)
  {
    name: 'taskoverrides.null-dropped',
    clauses: ['2.8/task-override-shape'],
    description: 'GET /assistants/{id}/tasks/overrides lists an override whose instructionOverride is null without that key.',
  },
  {
    name: 'taskoverrides.object-not-array',
    clauses: ['4.2/task-overrides-array'],
    description: 'GET /assistants/{id}/tasks/overrides answers `data: { overrides: [...] }` instead of an array.',
  },
  {
    name: 'calls.call-missing-after-end',
    clauses: ['1/call-record-on-dial', '4.5/calls-readable', '6/missed-calls-readable'],
    description: 'GET /calls/{id} of an ended call answers 404.',
  },
  {
    name: 'monitoring.agent-absent-ignored',
    clauses: ['3/monitoring-agent-absent'],
    description: 'Takeover and end succeed while the assistant is away instead of 409 agent_absent.',
  },
  {
    name: 'monitoring.unknown-call-envelope',
    clauses: ['7/monitor-404-bare-identical'],
    description: 'POST monitor-session/takeover/end answer an unknown (or foreign, or deleted) call with the envelope 404 RESOURCE_NOT_FOUND instead of bare {"error":"not_found"}.',
  },
  {
    name: 'monitoring.live-list-callid-only',
    clauses: ['4.5/calls-live-row-ids'],
    description: 'GET /calls/live rows carry `callId` equal to the call id (no separate correlation id).',
  },
  {
    name: 'insights.live-call-has-insights',
    clauses: ['4.5/insights-404-until-metrics'],
    description: 'A call still in progress answers 200 insights.',
  },
  {
    name: 'sms.no-message-sid',
    clauses: ['4.4/sms-message-sid'],
    description: 'A sent SMS answers `data: {}`.',
  },
  {
    name: 'sms.reason-empty-body-rejected',
    clauses: ['2.9/sms-reason-request-optional'],
    description: 'POST /sms-reasons with `{}` answers 400 VALIDATION_ERROR.',
  },
  {
    name: 'prompts.link-null-ignored',
    clauses: ['2.2/prompt-link-fields'],
    description: 'PATCH /assistants/{id} with chatPromptId (or whisperSummaryPromptId, voicePersonaPromptId) null leaves the stored id.',
  },
  ...GAP_FAULTS,
  ...SYSTEMATIC_FAULTS,
  ...FAMILY_FAULTS,
];

const KNOWN = new Set(FAULTS.map((f) => f.name));

/** True when `name` is a registered fault. */
export function isKnownFault(name: string): boolean {
  return KNOWN.has(name);
}

/** True when the fault `name` is switched on in this simulator's config. */
export function faultOn(state: SimState, name: string): boolean {
  return state.config.faults.includes(name);
}
