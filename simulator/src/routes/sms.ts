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
 *
 * Seams: the fields a reason requires ({@link reasonRequirements}), the answer to a reason
 * ({@link reasonView}), the message's length rule ({@link messageLength}), the refusal of a bad
 * body ({@link smsRefusal}), the sender lookup ({@link smsSender}) and the answer to a sent
 * message ({@link sentView}).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { principalOf, tenantOf } from '../auth.ts';
import { ApiError, notFound, ok, validationError, type FieldError } from '../envelope.ts';
import { findOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import type { PhoneNumberRecord, SimState } from '../state.ts';
import type { Principal } from '../types.ts';
import { Checker } from '../validation/checker.ts';
import { isE164, isPlainObject } from '../validation/formats.ts';

/** Longest SMS `message`, in characters (§4.4, §8). */
export const SMS_MESSAGE_MAX = 1600;

/** A sent message as stored (not served by any public route). */
export interface SmsRecord {
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

/** §2.9: the fields a POST /sms-reasons body must hold, as the failing fields of `body`: none, every field is optional. */
export const reasonRequirements = seam('sms.reason-requirements', (_body: Record<string, unknown>): FieldError[] => []);

/** §2.9, §4.3: a created reason is answered with all nine fields, `properties` included. */
export const reasonView = seam('sms.reason-view', (data: Record<string, unknown>): Record<string, unknown> => structuredClone(data));

/** The length rule of an SMS `message`: `min` to `max` as counted by `count`. */
export interface LengthRule {
  min: number;
  max: number;
  count: (message: string) => number;
}

/** §4.4, §8: an SMS `message` is 1 to {@link SMS_MESSAGE_MAX} characters (Unicode code points). */
export const messageLength = seam('sms.message-length', (): LengthRule => ({ min: 1, max: SMS_MESSAGE_MAX, count: (m) => [...m].length }));

/** §7: a refused POST /sms body answers 400 VALIDATION_ERROR with one detail per failing field. */
export const smsRefusal = seam('sms.refusal', (errors: FieldError[]): ApiError => validationError(errors));

/**
 * §4.4, §5.7: the number a message is sent from: a live number `from` of the caller's tenant;
 * anything else (unknown, deleted, another tenant's, not a number at all) is 404
 * RESOURCE_NOT_FOUND, one answer for all of them.
 */
export const smsSender = seam(
  'sms.sender',
  (state: SimState, principal: Principal & { tenantId: string }, from: string): PhoneNumberRecord | ApiError =>
    liveNumberOf(state, principal.tenantId, from) ?? notFound(),
);

/** §4.4: a sent message is answered with its `messageSid`, the numbers, `status` and `createdAt`. */
export const sentView = seam('sms.sent-view', (sms: SmsRecord): Record<string, unknown> => ({
  messageSid: sms.messageSid,
  fromNumber: sms.fromNumber,
  toNumber: sms.toNumber,
  status: 'queued',
  createdAt: sms.createdAt,
}));

/** Plugin with the SMS routes. */
export const smsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.post('/sms-reasons', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const required = state.behaviour.of(reasonRequirements)(body);
    if (required.length) throw validationError(required);
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
    return ok(reply, state.behaviour.of(reasonView)(data), 201);
  });

  app.post('/sms', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const c = new Checker();
    const { fromNumber, toNumber, message } = body;
    c.check('fromNumber', typeof fromNumber === 'string' && fromNumber !== '', 'is required: an E.164 number of your tenant');
    c.check('toNumber', isE164(toNumber), 'is required: an E.164 number such as +14155550123');
    const rule = state.behaviour.of(messageLength)();
    const len = typeof message === 'string' ? rule.count(message) : -1;
    c.check('message', len >= rule.min && len <= rule.max, `is required: a string of 1 to ${SMS_MESSAGE_MAX} characters`);
    if (!c.ok) throw state.behaviour.of(smsRefusal)(c.errors);
    const from = fromNumber as string;
    const rec = state.behaviour.of(smsSender)(state, { ...principalOf(request), tenantId }, from);
    if (rec instanceof ApiError) throw rec;
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
    return ok(reply, state.behaviour.of(sentView)(sms), 201);
  });
};
