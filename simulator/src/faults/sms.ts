/**
 * Faults of SMS reasons and sending (§2.9, §4.3, §4.4), and of the sender's tenant isolation
 * (§5.7): each overrides one seam of routes/sms.ts. Probes: simulator/test/faults/sms.test.ts.
 */
import { ApiError, forbidden, validationError } from '../envelope.ts';
import { liveNumberOf, messageLength, reasonRequirements, reasonView, sentView, smsRefusal, smsSender } from '../routes/sms.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The SMS faults. */
export const SMS_FAULTS = defineFaults([
  {
    name: 'sms.reason-empty-body-rejected',
    clauses: ['2.9/sms-reason-request-optional'],
    description: 'POST /sms-reasons with `{}` answers 400 VALIDATION_ERROR.',
    override: override(reasonRequirements, (next) => (body) => (Object.keys(body).length === 0 ? [{ field: 'name', message: 'is required' }] : next(body))),
  },
  {
    name: 'sms.reason-drops-properties',
    clauses: ['2.9/properties-need-not-be-supplied', '4.3/sms-reason-nine-fields'],
    description: 'POST /sms-reasons answers without `properties`.',
    override: override(reasonView, (next) => (data) => {
      const out = next(data);
      delete out.properties;
      return out;
    }),
  },
  {
    name: 'sms.reason-omitted-reference-dropped',
    clauses: ['4.3/sms-reason-nine-fields'],
    description: 'POST /sms-reasons without assistantId answers without the assistantId key (a serialiser that drops what the request left out).',
    override: override(reasonView, (next) => (data) => {
      const out = next(data);
      if (!out.assistantId) delete out.assistantId;
      return out;
    }),
  },
  {
    name: 'sms.reason-astral-replaced',
    clauses: ['4.3/sms-reason-echo'],
    description: "POST /sms-reasons stores its texts in a 3-byte utf8 column: every character outside the BMP (an emoji, an astral script) comes back as '?'.",
    override: override(reasonView, (next) => (data) => {
      const out = next(data);
      for (const k of ['name', 'reason', 'message', 'content'])
        if (typeof out[k] === 'string') out[k] = (out[k] as string).replace(/[\u{10000}-\u{10FFFF}]/gu, '?');
      return out;
    }),
  },
  {
    name: 'sms.accept-1601',
    clauses: ['4.4/sms-message-length', '8/limit-sms-message'],
    description: 'POST /sms accepts a 1601-character message.',
    override: override(messageLength, (next) => () => ({ ...next(), max: next().max + 1 })),
  },
  {
    name: 'sms.refuses-1600',
    clauses: ['4.4/sms-message-length', '8/limit-sms-message'],
    description: 'POST /sms refuses a 1,600-character message, its limit.',
    override: override(messageLength, (next) => () => ({ ...next(), max: next().max - 1 })),
  },
  {
    name: 'sms.accept-empty-message',
    clauses: ['4.4/sms-message-length'],
    description: 'POST /sms accepts an empty message.',
    override: override(messageLength, (next) => () => ({ ...next(), min: 0 })),
  },
  {
    name: 'sms.refuses-one-character',
    clauses: ['4.4/sms-message-length', '8/limit-sms-message'],
    description: 'POST /sms refuses a 1-character message (non-empty read as "at least 2").',
    override: override(messageLength, (next) => () => ({ ...next(), min: 2 })),
  },
  {
    name: 'sms.counts-utf8-bytes',
    clauses: ['4.4/sms-message-length', '8/limit-sms-message'],
    description: 'The SMS message limit counts UTF-8 bytes: 1,600 characters that take two bytes each (U+00E9) are refused.',
    override: override(messageLength, (next) => () => ({ ...next(), count: (m) => Buffer.byteLength(m, 'utf8') })),
  },
  {
    name: 'sms.no-details',
    clauses: ['7/validation-details'],
    description: 'A rejected POST /sms answers 400 VALIDATION_ERROR without error.details.',
    override: override(smsRefusal, () => () => new ApiError(400, 'VALIDATION_ERROR', 'Validation failed')),
  },
  {
    name: 'sms.deleted-from-accepted',
    clauses: ['4.4/from-number-not-found'],
    description: 'POST /sms sends from a deleted number of the tenant instead of answering 404.',
    override: override(smsSender, (next) => (state, principal, from) => liveNumberOf(state, principal.tenantId, from, true) ?? next(state, principal, from)),
  },
  {
    name: 'sms.unknown-from-400',
    clauses: ['4.4/from-number-not-found', '4.4/sms-from-number-indistinguishable'],
    description: 'POST /sms with a fromNumber that never existed answers 400 VALIDATION_ERROR; deleted and other-tenant numbers still answer 404.',
    override: override(smsSender, (next) => (state, principal, from) => {
      const sender = next(state, principal, from);
      const known = [...state.phoneNumbers.values()].some((p) => p.number === from);
      return sender instanceof ApiError && !known ? validationError([{ field: 'fromNumber', message: 'unknown number' }]) : sender;
    }),
  },
  {
    name: 'xtenant.sms-foreign-number-403',
    clauses: ['4.4/sms-from-number-indistinguishable', '5.7/foreign-resource-not-found'],
    description: "POST /sms with another tenant's fromNumber answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
    override: override(smsSender, (next) => (state, principal, from) => {
      const sender = next(state, principal, from);
      const foreign = [...state.phoneNumbers.values()].some((p) => p.number === from && !p.deleted && p.tenantId !== principal.tenantId);
      return sender instanceof ApiError && foreign ? forbidden('This number belongs to another tenant') : sender;
    }),
  },
  {
    name: 'xtenant.sms-org-key-org-numbers',
    clauses: ['4.4/from-number-not-found'],
    description:
      "With an organization key, POST /sms finds fromNumber among every tenant of the organization, so tenant A's request sends from tenant B's number.",
    override: override(smsSender, (next) => (state, principal, from) => {
      const sender = next(state, principal, from);
      if (!(sender instanceof ApiError) || principal.keyType !== 'organization') return sender;
      const inOrganization = [...state.phoneNumbers.values()].find(
        (n) => n.number === from && !n.deleted && state.tenants.get(n.tenantId)?.organizationId === principal.organizationId,
      );
      return inOrganization ?? sender;
    }),
  },
  {
    name: 'sms.no-message-sid',
    clauses: ['4.4/sms-message-sid'],
    description: 'A sent SMS answers `data: {}`.',
    override: override(sentView, () => () => ({})),
  },
]);
