/**
 * Registry of deliberate spec violations ("faults"). Each one breaks a single clause so the
 * conformance suite can prove it notices. Switch them on with
 * `PUT /__control/config {"faults": ["auth.accept-bearer", ...]}`; list them with
 * `GET /__control/faults`. A switch point in the code is always `faultOn(state, '<name>')`.
 *
 * Clause ids are `<spec section>/<short-slug>`; they are descriptive, another agent maps them to
 * the suite's clause ids.
 */
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
    name: 'auth.accept-bearer',
    clauses: ['5.1/scheme-apikey-only', '5.6/401-wrong-scheme'],
    description: '`Authorization: Bearer <key>` is accepted like `ApiKey <key>`.',
  },
  {
    name: 'auth.accept-rotated-key',
    clauses: ['5.4/rotation-invalidates-immediately', '5.6/401-rotated-key'],
    description: 'A key that was rotated away keeps authenticating as its former owner.',
  },
  {
    name: 'auth.org-key-no-tenant-ok',
    clauses: ['5.2/org-key-needs-x-tenant-id', '5.6/400-org-key-without-tenant'],
    description:
      'An organization key without X-Tenant-Id on a tenant-scoped route acts as the first tenant of the organization instead of answering 400 VALIDATION_ERROR.',
  },
  {
    name: 'auth.foreign-tenant-403-as-404',
    clauses: ['5.6/403-foreign-tenant'],
    description:
      'An organization key naming a tenant outside its organization (or an unknown tenant) answers 404 RESOURCE_NOT_FOUND instead of 403 FORBIDDEN.',
  },
  {
    name: 'envelope.drop-version',
    clauses: ['2.1/metadata-version-required', '9.1/version-on-every-response'],
    description: '`metadata.version` is left out of every envelope.',
  },
  {
    name: 'envelope.success-string',
    clauses: ['2.1/success-boolean'],
    description: '`success` is the string "true"/"false" instead of a boolean.',
  },
  {
    name: 'envelope.parse-as-500',
    clauses: ['7/400-parse'],
    description: 'A body that is not valid JSON answers 500 INTERNAL_SERVER_ERROR instead of 400 PARSE.',
  },
  {
    name: 'envelope.not-found-code',
    clauses: ['7/404-not-found-route'],
    description: 'An unknown route answers 404 RESOURCE_NOT_FOUND instead of NOT_FOUND.',
  },
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
  {
    name: 'xtenant.foreign-assistant-403',
    clauses: ['5.7/cross-tenant-resource-not-found'],
    description: "Another tenant's assistant answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
  },
  {
    name: 'xtenant.foreign-message-differs',
    clauses: ['5.7/cross-tenant-indistinguishable'],
    description:
      "Another tenant's assistant answers 404 RESOURCE_NOT_FOUND with a different message than a nonexistent one.",
  },
  // webhooks (§6): webhooks/signing.ts, webhooks/delivery.ts, webhooks/routing.ts
  {
    name: 'webhooks.sign-reserialised',
    clauses: ['6/model-b-hmac-raw-bytes'],
    description: 'Model B: the HMAC is computed over JSON.stringify(JSON.parse(body)), not over the bytes sent.',
  },
  {
    name: 'webhooks.wrong-secret',
    clauses: ['6/model-b-hmac-keyed-by-client-server-secret'],
    description: 'Model B: the HMAC is keyed by a secret other than the client server secret.',
  },
  {
    name: 'webhooks.drop-sha256-prefix',
    clauses: ['6/model-b-signature-sha256-prefix'],
    description: 'Model B: X-Service-Signature is the bare hex digest, without "sha256=".',
  },
  {
    name: 'webhooks.uppercase-hex',
    clauses: ['6/model-b-signature-hex'],
    description: 'Model B: the signature hex digest is upper-case.',
  },
  {
    name: 'webhooks.new-delivery-id-on-retry',
    clauses: ['6/model-b-retries-same-delivery-id'],
    description: 'Model B: every retry carries a fresh X-Service-Delivery id.',
  },
  {
    name: 'webhooks.bytes-change-on-retry',
    clauses: ['6/model-b-retries-same-body'],
    description: 'Model B: retries are sent compact instead of pretty-printed (signed correctly over the new bytes).',
  },
  {
    name: 'webhooks.retry-model-a',
    clauses: ['6/model-a-no-retries'],
    description: 'Model A: a failed delivery is retried like model B.',
  },
  {
    name: 'webhooks.retries-3',
    clauses: ['6/model-b-five-retries'],
    description: 'Model B: only 3 retries after a failed first attempt instead of 5.',
  },
  {
    name: 'webhooks.retries-8',
    clauses: ['6/model-b-five-retries'],
    description: 'Model B: 8 retries after a failed first attempt instead of at most 5.',
  },
  {
    name: 'webhooks.constant-delay',
    clauses: ['6/model-b-exponential-backoff'],
    description: 'Model B: every retry waits webhookRetryBaseMs instead of doubling.',
  },
  {
    name: 'webhooks.ignore-server-url',
    clauses: ['6/routing-assistant-server-url', '2.3/null-uses-tenant-url'],
    description: "Every event goes to the tenant-level URL, even when the assistant's serverUrl is set.",
  },
  {
    name: 'webhooks.model-a-secret-missing',
    clauses: ['6/model-a-secret-header'],
    description: 'Model A: the x-service-core-secret header is left out.',
  },
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
