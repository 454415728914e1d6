/**
 * Faults of §6 events (and the §1, §2.3 rules on where they go): each overrides one seam of
 * webhooks/ (signing.ts, policy.ts, emit.ts, routing.ts). Probes: simulator/test/faults/webhooks.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { override } from '../seam.ts';
import { eventDeliveryId, deliveryModel, emptyAnswer, eventSent, payload, testRequestOnSet } from '../webhooks/emit.ts';
import { deliveryPolicy } from '../webhooks/policy.ts';
import { assistantUrl, callEventRoute, previousServerUrl, requestUrl, route, tenantServerUrl, tenantUrlAtClear } from '../webhooks/routing.ts';
import { attemptHeaders, signature } from '../webhooks/signing.ts';
import { deliveries } from '../webhooks/store.ts';
import { defineFaults } from './define.ts';

/** The §6 event faults. */
export const WEBHOOK_FAULTS = defineFaults([
  {
    name: 'webhooks.sign-reserialised',
    clauses: ['6/b-raw-bytes', '6/b-signature'],
    description: 'Model B: the HMAC is computed over JSON.stringify(JSON.parse(body)), not over the bytes sent.',
    override: override(signature, (next) => (secret, body, url) => next(secret, Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))), 'utf8'), url)),
  },
  {
    name: 'webhooks.wrong-secret',
    clauses: ['6/b-signature'],
    description: 'Model B: the HMAC is keyed by a secret other than the client server secret.',
    override: override(signature, (next) => (secret, body, url) => next(`${secret}x`, body, url)),
  },
  {
    name: 'webhooks.sign-with-host',
    clauses: ['6/b-host-independent'],
    description: 'The model B signature covers the host name with the body, so it fails when the delivery arrives through another host name (a tunnel).',
    override: override(
      signature,
      (next) => (secret, body, url) => next(secret, url ? Buffer.concat([Buffer.from(new URL(url).host, 'utf8'), body]) : body, url),
    ),
  },
  {
    name: 'webhooks.drop-sha256-prefix',
    clauses: ['6/b-signature'],
    description: 'Model B: X-Service-Signature is the bare hex digest, without "sha256=".',
    override: override(signature, (next) => (secret, body, url) => next(secret, body, url).replace(/^sha256=/, '')),
  },
  {
    name: 'webhooks.text-plain',
    clauses: ['6/events-post-json'],
    description: 'Events are sent with `Content-Type: text/plain` (same bytes).',
    override: override(attemptHeaders, (next) => (input) => ({ ...next(input), 'content-type': 'text/plain' })),
  },
  {
    name: 'webhooks.model-a-secret-missing',
    clauses: ['6/a-secret-header'],
    description: 'Model A: the x-service-core-secret header is left out.',
    override: override(attemptHeaders, (next) => (input) => {
      const headers = next(input);
      if (input.model === 'A') delete headers['x-service-core-secret'];
      return headers;
    }),
  },
  {
    name: 'webhooks.new-delivery-id-on-retry',
    clauses: ['6/b-same-delivery-id', '6/b-dedupe'],
    description: 'Model B: every retry carries a fresh X-Service-Delivery id.',
    override: override(attemptHeaders, (next) => (input) => next(input.model === 'B' && input.attempt > 1 ? { ...input, deliveryId: randomUUID() } : input)),
  },
  {
    name: 'webhooks.retry-model-a',
    clauses: ['6/a-no-retry'],
    description: 'Model A: a failed delivery is retried like model B.',
    override: override(deliveryPolicy, (next) => () => next('B')),
  },
  {
    name: 'webhooks.retries-3',
    clauses: ['6/b-retry-count'],
    description: 'Model B: only 3 retries after a failed first attempt instead of 5.',
    override: override(deliveryPolicy, (next) => (model) => (model === 'B' ? { ...next(model), retries: 3 } : next(model))),
  },
  {
    name: 'webhooks.retries-8',
    clauses: ['6/b-retry-count'],
    description: 'Model B: 8 retries after a failed first attempt instead of at most 5.',
    override: override(deliveryPolicy, (next) => (model) => (model === 'B' ? { ...next(model), retries: 8 } : next(model))),
  },
  {
    name: 'webhooks.constant-delay',
    clauses: ['6/b-backoff-exponential'],
    description: 'Model B: every retry waits webhookRetryBaseMs instead of doubling.',
    override: override(deliveryPolicy, (next) => (model) => ({ ...next(model), delayMs: (_n, baseMs) => baseMs })),
  },
  {
    name: 'webhooks.no-retry-on-timeout',
    clauses: ['6/b-retry-on-failure'],
    description: 'Model B: an attempt that times out (no answer within webhookTimeoutMs) is not retried; a non-2xx answer still is.',
    override: override(deliveryPolicy, (next) => (model) => {
      const policy = next(model);
      return { ...policy, retried: (o) => !o.timedOut && policy.retried(o) };
    }),
  },
  {
    name: 'webhooks.retry-5xx-only',
    clauses: ['6/b-retry-every-non-2xx'],
    description: 'Model B retries only 5xx answers and timeouts; a 4xx answer (400, 401, 404, 409, 429) ends the delivery.',
    override: override(deliveryPolicy, (next) => (model) => {
      const policy = next(model);
      if (model !== 'B') return policy;
      return { ...policy, retried: (o) => !(o.status !== null && o.status >= 400 && o.status < 500) && policy.retried(o) };
    }),
  },
  {
    name: 'webhooks.no-retry-on-refused',
    clauses: ['6/b-retry-every-non-2xx'],
    description: 'Model B does not retry a refused connection (no answer at all); only answers and timeouts are retried.',
    override: override(deliveryPolicy, (next) => (model) => {
      const policy = next(model);
      if (model !== 'B') return policy;
      return { ...policy, retried: (o) => !(o.status === null && !o.timedOut) && policy.retried(o) };
    }),
  },
  {
    name: 'webhooks.model-a-retries-429',
    clauses: ['6/a-no-retry'],
    description: 'Model A retries a 429 answer once (it must retry nothing).',
    override: override(deliveryPolicy, (next) => (model) => {
      const policy = next(model);
      return model === 'A' ? { ...policy, retries: 1, retried: (o) => o.status === 429 } : policy;
    }),
  },
  {
    name: 'webhooks.shared-delivery-id',
    clauses: ['6/b-dedupe'],
    description: "A new event reuses the delivery id of the tenant's previous event of the same model, so distinct events share one id.",
    override: override(eventDeliveryId, (next) => (state, tenantId, model) => {
      const previous = [...deliveries(state).values()].reverse().find((d) => d.tenantId === tenantId && d.model === model);
      return previous ? previous.deliveryId : next(state, tenantId, model);
    }),
  },
  {
    name: 'webhooks.delivery-id-not-uuid',
    clauses: ['6/b-delivery-id-uuid'],
    description: 'Delivery ids (X-Service-Delivery, and the deliveries log) are `dlv_<24 hex>` tokens instead of UUIDs.',
    override: override(eventDeliveryId, () => () => `dlv_${randomBytes(12).toString('hex')}`),
  },
  {
    name: 'webhooks.tool-event-model-b',
    clauses: ['6/delivery-model-per-event', '6/tool-invocation-event'],
    description: 'The tool invocation event is sent under model B (signature and delivery id, no x-service-core-secret).',
    override: override(deliveryModel, (next) => (type, model) => (type === 'tool-invocation' ? 'B' : next(type, model))),
  },
  {
    name: 'webhooks.no-call-id',
    clauses: ['6/voice-call-id'],
    description: 'Voice events (assistant-request, end-of-call-report, tool invocation) lack `call_id`.',
    override: override(payload, (next) => (body) => {
      const out = next(body);
      delete out.call_id;
      return out;
    }),
  },
  {
    name: 'webhooks.report-without-type',
    clauses: ['6/type-field'],
    description: 'The end-of-call report body carries no type field.',
    override: override(payload, (next) => (body) => {
      const out = next(body);
      if (out.type === 'end-of-call-report') delete out.type;
      return out;
    }),
  },
  {
    name: 'webhooks.no-customer-identifier',
    clauses: ['6/messaging-fields'],
    description: 'Messaging events (assistant-request, end-of-conversation-report) lack `customer_identifier`.',
    override: override(payload, (next) => (body) => {
      const out = next(body);
      delete out.customer_identifier;
      return out;
    }),
  },
  {
    name: 'webhooks.supervisor-answered-string',
    clauses: ['6/a-end-of-call-fields'],
    description: 'The end-of-call report carries `supervisor_answered` as the string "true" or "false".',
    override: override(payload, (next) => (body) => {
      const out = next(body);
      if (typeof out.supervisor_answered === 'boolean') out.supervisor_answered = String(out.supervisor_answered);
      return out;
    }),
  },
  {
    name: 'webhooks.onboarding-failed-dropped',
    clauses: ['6/onboarding-events'],
    description: 'The chatapp.onboarding.failed event is never delivered.',
    override: override(eventSent, (next) => (type, channel) => type !== 'chatapp.onboarding.failed' && next(type, channel)),
  },
  {
    name: 'webhooks.no-conversation-report-chatapp',
    clauses: ['6/end-of-conversation-every-channel'],
    description: 'A finished messaging-app thread delivers no end-of-conversation report (web chat and SMS threads do).',
    override: override(eventSent, (next) => (type, channel) => !(type === 'end-of-conversation-report' && channel === 'chatapp') && next(type, channel)),
  },
  {
    name: 'webhooks.empty-2xx-drops-call',
    clauses: ['6/a-empty-2xx'],
    description:
      'A 2xx with an empty body to a voice assistant-request ends the call at once: it is no longer live and gives no end-of-call report (control end answers 200, sends nothing).',
    override: override(emptyAnswer, () => () => 'end-call'),
  },
  {
    name: 'webhooks.test-request-on-patch',
    clauses: ['2.3/patch-no-test-request'],
    description: 'A PATCH /assistants/{id} that sets serverUrl sends a POST `{"type":"test-request"}` to it.',
    override: override(testRequestOnSet, () => () => true),
  },
  {
    name: 'webhooks.ignore-server-url',
    clauses: ['6/route-server-url', '2.3/unset-tenant-url'],
    description: "Every event goes to the tenant-level URL, even when the assistant's serverUrl is set.",
    override: override(route, () => (state, input) => tenantServerUrl(state, input.tenantId)),
  },
  {
    name: 'webhooks.null-server-url-kept',
    clauses: ['2.3/unset-tenant-url'],
    description:
      'After PATCH serverUrl: null, events keep going to the previous serverUrl instead of the tenant-level URL (the PATCH answer still shows null).',
    override: override(assistantUrl, (next) => (state, assistantId, current) => next(state, assistantId, current) ?? previousServerUrl(state, assistantId)),
  },
  {
    name: 'webhooks.tenant-url-frozen-at-clear',
    clauses: ['2.3/unset-tenant-url', '6/route-tenant-url'],
    description:
      "PATCH serverUrl: null copies the tenant-level URL of that moment into the assistant's route (a denormalised column): once the tenant-level URL changes, the assistant's events keep going to the old one.",
    override: override(assistantUrl, (next) => (state, assistantId, current) => next(state, assistantId, current) ?? tenantUrlAtClear(state, assistantId)),
  },
  {
    name: 'webhooks.server-url-at-delivery',
    clauses: ['1/call-keeps-server-url'],
    description:
      "The end-of-call report goes to the assistant's serverUrl at delivery time (else the tenant URL) instead of the one in force when the call started.",
    override: override(callEventRoute, (next) => (call, type) => (type === 'end-of-call-report' ? { assistantId: call.assistantId } : next(call, type))),
  },
  {
    name: 'webhooks.path-dropped',
    clauses: ['2.3/path-kept'],
    description: "A delivery to an assistant's serverUrl with a path (and query) is posted to `/` of that host (the tenant-level URL keeps its path).",
    override: override(requestUrl, (next) => (url, tenantUrl) => {
      if (url === tenantUrl) return next(url, tenantUrl);
      try {
        return new URL('/', url).href;
      } catch {
        return next(url, tenantUrl);
      }
    }),
  },
]);
