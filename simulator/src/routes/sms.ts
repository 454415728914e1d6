/**
 * SMS reasons and SMS sending (§2.9, §4.3, §4.4).
 *
 * `POST /sms-reasons`: every request field optional (§2.9). 201 with all nine fields:
 * `{ id, name, reason, message, assistantId, content, properties, createdAt, updatedAt }`.
 * Readings: a string field sent as null or left out is answered as `''` (the response types are
 * strings; `assistantId` is "string, required"); `properties` defaults to `{}`; a non-string text
 * field → 400 VALIDATION_ERROR; an `assistantId` that is not one of the caller's assistants
 * (unknown, malformed or another tenant's, one code path) → 404 RESOURCE_NOT_FOUND.
 *
 * `POST /sms { fromNumber, toNumber, message }`: 201 `data: { messageSid, fromNumber, toNumber,
 * status: "queued", createdAt }`. Order: body shape (400 VALIDATION_ERROR, one detail per failing
 * field: `fromNumber` non-empty string, `toNumber` E.164, `message` 1 to 1600 characters counted as
 * Unicode code points) → number lookup: a `fromNumber` that is not a live number of the caller's
 * tenant (unknown, deleted, another tenant's, or not a number at all) → 404 RESOURCE_NOT_FOUND,
 * one code path.
 *
 * Reading (spec silent): a number of the caller's own tenant without SMS enabled
 * (`smsEnabled: false` in the control API) → 400 VALIDATION_ERROR on field `fromNumber`
 * ("SMS is not enabled on this number"): the number exists and is the caller's, so 404 would be
 * wrong, and nothing is revealed about other tenants since ownership is checked first.
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { principalOf, tenantOf } from '../auth.ts';
import { ApiError, forbidden, notFound, ok, validationError } from '../envelope.ts';
import { faultOn } from '../faults.ts';
import { findOwned } from '../resources.ts';
import type { PhoneNumberRecord, SimState } from '../state.ts';
import { Checker } from '../validation/checker.ts';
import { isE164, isPlainObject } from '../validation/formats.ts';

/** Longest SMS `message`, in characters (§4.4, §8). */
export const SMS_MESSAGE_MAX = 1600;

/** A sent message as stored (not served by any public route). */
interface SmsRecord {
  tenantId: string;
  messageSid: string;
  fromNumber: string;
  toNumber: string;
  message: string;
  createdAt: string;
}

const TEXT_FIELDS = ['name', 'reason', 'message', 'content'] as const;

/** The caller's live (not deleted) number record with E.164 `number`, or undefined. */
export function liveNumberOf(state: SimState, tenantId: string, number: string, includeDeleted = false): PhoneNumberRecord | undefined {
  return [...state.phoneNumbers.values()].find((p) => p.tenantId === tenantId && p.number === number && (includeDeleted || !p.deleted));
}

/** Plugin with the SMS routes. */
export const smsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.post('/sms-reasons', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    if (Object.keys(body).length === 0 && faultOn(state, 'sms.reason-empty-body-rejected')) {
      throw validationError([{ field: 'name', message: 'is required' }]);
    }
    const c = new Checker();
    for (const k of TEXT_FIELDS) {
      const v = body[k];
      c.check(k, v === undefined || v === null || typeof v === 'string', 'must be a string');
    }
    const aid = body.assistantId;
    c.check('assistantId', aid === undefined || aid === null || typeof aid === 'string', 'must be a uuid string');
    c.throwIfAny();
    if (typeof aid === 'string') findOwned(state, state.assistants, tenantId, aid, 'assistant');
    const now = new Date().toISOString();
    const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
    const data: Record<string, unknown> = {
      id: randomUUID(),
      name: text('name'),
      reason: text('reason'),
      message: text('message'),
      assistantId: typeof aid === 'string' ? aid : '',
      content: text('content'),
      properties: body.properties === undefined ? {} : structuredClone(body.properties),
      createdAt: now,
      updatedAt: now,
    };
    state.collection<{ tenantId: string; data: Record<string, unknown> }>('smsReasons').set(data.id as string, { tenantId, data });
    const out = structuredClone(data);
    if (faultOn(state, 'sms.reason-drops-properties')) delete out.properties;
    return ok(reply, out, 201);
  });

  app.post('/sms', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const c = new Checker();
    const { fromNumber, toNumber, message } = body;
    c.check('fromNumber', typeof fromNumber === 'string' && fromNumber !== '', 'is required: an E.164 number of your tenant');
    c.check('toNumber', isE164(toNumber), 'is required: an E.164 number such as +14155550123');
    const max = faultOn(state, 'sms.accept-1601') ? SMS_MESSAGE_MAX + 1 : faultOn(state, 'sms.refuses-1600') ? SMS_MESSAGE_MAX - 1 : SMS_MESSAGE_MAX;
    const min = faultOn(state, 'sms.accept-empty-message') ? 0 : faultOn(state, 'sms.refuses-one-character') ? 2 : 1;
    const len = typeof message !== 'string' ? -1 : faultOn(state, 'sms.counts-utf8-bytes') ? Buffer.byteLength(message, 'utf8') : [...message].length;
    c.check('message', len >= min && len <= max, `is required: a string of 1 to ${SMS_MESSAGE_MAX} characters`);
    if (!c.ok && faultOn(state, 'sms.no-details')) throw new ApiError(400, 'VALIDATION_ERROR', 'Validation failed');
    c.throwIfAny();
    const from = fromNumber as string;
    let rec = liveNumberOf(state, tenantId, from, faultOn(state, 'sms.deleted-from-accepted'));
    const p = principalOf(request);
    if (!rec && p.keyType === 'organization' && faultOn(state, 'xtenant.sms-org-key-org-numbers')) {
      // Fault: with an organization key the sender is looked up across the organization.
      rec = [...state.phoneNumbers.values()].find((n) => n.number === from && !n.deleted && state.tenants.get(n.tenantId)?.organizationId === p.organizationId);
    }
    if (!rec) {
      const foreign = [...state.phoneNumbers.values()].some((p) => p.number === from && !p.deleted && p.tenantId !== tenantId);
      if (foreign && faultOn(state, 'xtenant.sms-foreign-number-403')) throw forbidden('This number belongs to another tenant');
      const known = [...state.phoneNumbers.values()].some((p) => p.number === from);
      if (!known && faultOn(state, 'sms.unknown-from-400')) throw validationError([{ field: 'fromNumber', message: 'unknown number' }]);
      throw notFound();
    }
    if (!rec.smsEnabled) throw validationError([{ field: 'fromNumber', message: 'SMS is not enabled on this number' }]);
    const sms: SmsRecord = {
      tenantId,
      messageSid: `SM${randomBytes(16).toString('hex')}`,
      fromNumber: from,
      toNumber: toNumber as string,
      message: message as string,
      createdAt: new Date().toISOString(),
    };
    state.collection<SmsRecord>('smsMessages').set(sms.messageSid, sms);
    if (faultOn(state, 'sms.no-message-sid')) return ok(reply, {}, 201);
    return ok(reply, { messageSid: sms.messageSid, fromNumber: sms.fromNumber, toNumber: sms.toNumber, status: 'queued', createdAt: sms.createdAt }, 201);
  });
};
